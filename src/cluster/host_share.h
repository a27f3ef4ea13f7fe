/* SPDX-License-Identifier: MIT */
/* Ranks that share a host: either refused, or the host's usable CPUs are split
 * between them so that no two measure on the same CPUs. */
#ifndef MEMBENCH_HOST_SHARE_H
#define MEMBENCH_HOST_SHARE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cpu_list.h"

/* The share of the index-th of count ranks: cpus sorted, cut into count runs of
 * consecutive CPUs (the first cpus % count runs one CPU longer), so a core's
 * neighbours stay together. False, with one line in err, when there are fewer
 * CPUs than ranks. out is allocated (cpu_list_free). */
bool host_share_split(const cpu_list *cpus, int index, int count, cpu_list *out, char *err, size_t errlen);

/* "0,1" of the ranks whose hosts[] equal hosts[rank] (itself included) into buf;
 * returns how many there are. hosts: n names, each NUL-terminated. */
int host_share_ranks(const char *const *hosts, int n, int rank, char *buf, size_t size);

#endif
