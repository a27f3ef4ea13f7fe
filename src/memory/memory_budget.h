/* SPDX-License-Identifier: MIT */
/* How much a run may allocate: never beyond what the machine and its cgroup can
 * give. The margin leaves room for the page cache, our own code and other tenants. */
#ifndef MEMBENCH_MEMORY_BUDGET_H
#define MEMBENCH_MEMORY_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEMORY_MARGIN_FIXED (64ULL << 20) /* the reserve left free, at most */
#define MEMORY_MARGIN_PERCENT 10          /* and this share of what is available */
#define NODE_MARGIN_MIN (16ULL << 20)     /* the reserve is at least this */
#define NODE_MARGIN_SHARE 8               /* a node's: 1/8 of it, up to MEMORY_MARGIN_FIXED */
#define MEMORY_RESERVE_SHARE 4            /* the budget's: 1/4 of what is available, likewise */

/* Budget for benchmark buffers given the bytes available (MemAvailable and cgroup
 * headroom, whichever is smaller): available - 10% - the reserve, never negative.
 * The reserve (memory_reserve_bytes) is 64 MiB from 256 MiB available up: a fixed
 * 64 MiB would leave nothing in a 64 MiB cgroup, which still runs small buffers; a
 * smaller share (an eighth) left a 256 MiB cgroup too little for the process itself
 * (numa mem -a under ASan hit the limit). */
uint64_t memory_budget_from(uint64_t available);

/* Bytes kept free out of `bytes` of memory: a quarter, at least 16 MiB, at most
 * 64 MiB; 0 (unknown): 64 MiB. */
uint64_t memory_reserve_bytes(uint64_t bytes);

/* Bytes a bound allocation leaves free on a NUMA node of node_total bytes (0:
 * unknown): the reserve, an eighth of the node, at least 16 MiB, at most 64 MiB. A bound
 * allocation the node cannot hold ends in the OOM killer, so some margin is needed;
 * the machine-wide 64 MiB would keep half of a 128 MiB memory-only (CXL-style) node
 * idle. Unknown size: the full 64 MiB. */
uint64_t node_margin_bytes(uint64_t node_total);
/* That margin for NUMA node `node`, from its size in sysfs. */
uint64_t node_margin_bytes_of(int node);

/* The budget on this machine now. False when it cannot be known (MemAvailable or
 * a cgroup limit unreadable): why names the file and the reason, and nothing may
 * be allocated. */
bool memory_budget(uint64_t *bytes, char *why, size_t whylen);

#endif
