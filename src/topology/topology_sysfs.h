/* SPDX-License-Identifier: MIT */
/* The parts of topology_load that read sysfs alone (topology.c), called in order by
 * topology_load (topology_load.c), which adds the other sources' views between
 * them: so topology.c calls no source's code, and the sources call topology.c's. */
#ifndef MEMBENCH_TOPOLOGY_SYSFS_H
#define MEMBENCH_TOPOLOGY_SYSFS_H

#include <stdbool.h>

#include "topology/topology.h"

/* CPUs, cores, packages, NUMA nodes and sysfs's cache instances; false only when no
 * CPU at all can be found (t is then freed). */
bool topology_read_sysfs(const char *sys_root, const cpu_list *usable, topology *t);
/* Huge page sizes and the THP mode. */
void topology_read_pages(const char *sys_root, topology *t);
/* Says each node that has CPUs but no memory. */
void topology_warn_memoryless_nodes(topology *t);

#endif
