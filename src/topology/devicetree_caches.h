/* SPDX-License-Identifier: MIT */
/* Caches as the device tree describes them (arm64, POWER, RISC-V): the level-1 data
 * cache in each cpu node, the higher levels in cache nodes linked by phandles
 * (next-level-cache, or l2-cache on POWER). Many arm64 guests show sysfs cache
 * directories without sizes, and some machines show none at all; the tree still
 * has them. Read from a root directory, so recorded trees are parsed in tests. */
#ifndef MEMBENCH_DEVICETREE_CACHES_H
#define MEMBENCH_DEVICETREE_CACHES_H

#include <stdbool.h>
#include <stddef.h>

#include "topology/topology.h"

#define DT_MAX_CPU_NODES 1024  /* cpu nodes looked at */
#define DT_MAX_CACHE_NODES 64  /* cache nodes reached through the cpu nodes' links */
#define DT_MAX_LEVELS 8        /* a chain of links ends at level 8 */

/* The data and unified caches the device tree under sys_root
 * (sys_root/firmware/devicetree/base) describes, as instances shared by logical CPU
 * ids of t (t->cpus: the online CPUs). A cpu node's CPUs are those whose
 * sys_root/devices/system/cpu/cpuN/of_node names it; with no such link anywhere, the
 * enabled cpu nodes in ascending reg order are paired with the online CPUs in
 * ascending id order, only when the counts match. A cache's sharers are all CPUs
 * whose chain of links reaches it; its level is its cache-level, else one more than
 * the level it was reached from.
 *
 * Appends to *out (realloc'd; the caller frees each shared list and the array);
 * *n is the number of entries already in *out and is updated. The new entries come
 * in order of level, then of first CPU. Each instance's
 * source is CACHE_FROM_DEVICE_TREE, its line_size 0 where the tree does not say
 * (the caller fills it from the CPU). note (may be NULL) gets one line when
 * something had to be assumed (pairing by order) or the tree could not be used,
 * "" otherwise. Returns false when there is no device tree or no cache in it that
 * belongs to an online CPU (then *out and *n are unchanged). Bounded: at most
 * DT_MAX_CPU_NODES cpu nodes, DT_MAX_CACHE_NODES cache nodes, chains of at most
 * DT_MAX_LEVELS levels; phandle loops stop. */
bool devicetree_caches(const char *sys_root, const topology *t, cache_instance **out, size_t *n, char *note,
                       size_t notelen);

#endif
