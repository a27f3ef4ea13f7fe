/* SPDX-License-Identifier: MIT */
/* Which CPU pairs `membench c2c` measures, and where their memory lives.
 * Pure planning on a topology (no timing, no allocation), so it is tested against
 * recorded sysfs trees.
 *
 * - Local pair: two usable CPUs of one NUMA node (same package first), never SMT
 *   siblings of one core unless asked (--smt) or there is no other choice: siblings
 *   share L1 and L2, so their "transfer" never leaves the core.
 * - Node representatives: one CPU per node with usable CPUs, the first usable one
 *   that the local pair did not use (when the node has another), for the writer
 *   node x reader node matrices.
 * - Home: the node whose memory the buffer is bound to. A node without memory
 *   (CPUs only) gets its nearest node with memory, as its threads would. */
#ifndef MEMBENCH_C2C_PLAN_H
#define MEMBENCH_C2C_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/topology.h"

typedef struct {
    int writer, reader;   /* CPUs */
    bool siblings;        /* SMT siblings of one core */
} c2c_pair;

/* The local pair; smt asks for siblings. False when there is none (fewer than two
 * usable CPUs on any node; with smt: no usable sibling pair). *siblings_only is set
 * when siblings were taken because no node had two distinct cores. */
bool c2c_local_pair(const topology *t, bool smt, c2c_pair *out, bool *siblings_only);

/* Nodes with usable CPUs and a representative CPU each (avoiding the CPUs in
 * avoid[0..navoid) when the node has another usable CPU), in node order. Returns
 * how many (at most cap). */
size_t c2c_node_representatives(const topology *t, const int *avoid, size_t navoid, int *nodes, int *cpus,
                                size_t cap);

/* The memory node of cpu's node (its own, or the nearest with memory). */
int c2c_home_of_cpu(const topology *t, int cpu);

/* Ordered pairs (writer != reader) of cpus[0..n) row by row: writer cpus[i],
 * reader cpus[j]; out must hold n * (n - 1). Returns how many. */
size_t c2c_matrix_pairs(const int *cpus, size_t n, c2c_pair *out);

/* Default window: half the writer's L2 (so the lines stay in its private cache),
 * rounded down to whole 4 KiB pages, at least 16 KiB and at most 1 MiB. */
uint64_t c2c_default_window(const topology *t, int writer);

/* Bytes read to push lines out of every cache without a flush instruction: twice
 * the largest cache instance or the last level's best size (plan/dram_size.h),
 * at least 4 MiB. */
uint64_t c2c_eviction_bytes(const topology *t);

#endif
