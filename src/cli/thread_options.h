/* SPDX-License-Identifier: MIT */
/* The values of the shared options that need more than a number: --cpus LIST,
 * --kernel ISA, and how -p, OMP_NUM_THREADS and --cpus decide the thread count. */
#ifndef MEMBENCH_THREAD_OPTIONS_H
#define MEMBENCH_THREAD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/omp_env.h"
#include "util/cpu_list.h"

/* Replaces *cpus (freeing the old list). */
parse_result parse_cpus_option(const char *arg, cpu_list *cpus, char *err, size_t errlen);
/* An ISA --kernel accepts (from the ISA table), and one this CPU can run. */
parse_result parse_kernel_option(const char *arg, const char **isa, char *err, size_t errlen);

/* -p (or OMP_NUM_THREADS) wins; else the length of --cpus; else every usable CPU. */
int resolve_thread_count(int threads, bool threads_from_p, const cpu_list *cpus, bool cpus_given, size_t usable);

#endif
