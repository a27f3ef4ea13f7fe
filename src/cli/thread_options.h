/* Options every multi-threaded mode shares: -p THREADS, --cpus LIST, --kernel ISA,
 * and how they decide the thread count. Parsed the same way, with the same
 * one-line errors, in the sweep and in stream. */
#ifndef MEMBENCH_THREAD_OPTIONS_H
#define MEMBENCH_THREAD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/omp_env.h"
#include "util/cpu_list.h"

parse_result parse_threads_option(const char *arg, int *threads, char *err, size_t errlen);
/* Replaces *cpus (freeing the old list). */
parse_result parse_cpus_option(const char *arg, cpu_list *cpus, char *err, size_t errlen);
/* isas: NULL-terminated list of accepted names; the CPU must support the one given. */
parse_result parse_kernel_option(const char *arg, const char *const *isas, const char **isa, char *err,
                                 size_t errlen);

/* -p (or OMP_NUM_THREADS) wins; else the length of --cpus; else every usable CPU. */
int resolve_thread_count(int threads, bool threads_from_p, const cpu_list *cpus, bool cpus_given, size_t usable);

#endif
