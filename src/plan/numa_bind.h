/* SPDX-License-Identifier: MIT */
/* perf bench numa mem's binding lists (-C CPUs, -M memory nodes), planned against a
 * topology so they are tested on recorded sysfs trees. A list is comma-separated
 * entries `START[_LEN][-END][#STEP][xMUL]`: for v = START, START+STEP, ... <= END,
 * MUL consecutive tasks get v (CPUs: the LEN CPUs v..v+LEN-1; nodes: node v); tasks
 * are given bindings in order across entries. Unlike perf, every entry is checked:
 * a malformed entry, a CPU this process may not run on, or a node that does not
 * exist or has no memory is refused with one line naming it (perf runs on, binds
 * wrongly or crashes); a memory node without CPUs (CXL, HBM) is a valid target
 * (perf drops it and the rest of the list). Bindings past the last task are
 * checked too (the list is wrong either way), and ids above CPU_LIST_MAX_ID are
 * refused, so no list makes the planner walk more than 65536 values per entry. */
#ifndef MEMBENCH_NUMA_BIND_H
#define MEMBENCH_NUMA_BIND_H

#include <stdbool.h>
#include <stddef.h>

#include "topology/topology.h"
#include "util/cpu_list.h"

/* What a list gave: for the first `bound` tasks a binding; the others are unbound.
 * `ignored` counts bindings the list had beyond the last task (perf ignores them
 * with a NOTE; membench says so in a warning); counted, not walked, it stops at
 * INT_MAX ("0-15x2000000000"). */
typedef struct {
    cpu_list *cpus; /* -C: ntasks entries; count 0 = unbound (all unbound after -M) */
    int *nodes;     /* -M: ntasks entries; -1 = unbound (all unbound after -C) */
    int ntasks;
    int bound;
    int ignored;
} numa_binding;

/* Parses -C LIST for ntasks tasks. On error returns false with one line in err
 * ("-C '0,8': CPU 8 is not available to this process (usable: 0-1)"). b is
 * zeroed first; free with numa_binding_free. */
bool numa_bind_cpus(const topology *t, const char *list, int ntasks, numa_binding *b, char *err, size_t errlen);
/* Parses -M LIST for ntasks tasks ("-M '1': no NUMA node 1 here (nodes: 0)"). */
bool numa_bind_nodes(const topology *t, const char *list, int ntasks, numa_binding *b, char *err, size_t errlen);
/* Only the syntax (no topology): for the option parser. */
bool numa_bind_syntax(const char *flag, const char *list, bool cpus, char *err, size_t errlen);
void numa_binding_free(numa_binding *b);

#endif
