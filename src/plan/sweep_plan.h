/* SPDX-License-Identifier: MIT */
/* The sizes the sweep measures, per thread, at sc-membench's cache transition
 * points: L1/2, 2xL1, L2/2, L2, 2xL2, L3/4 (when L3 > 4xL2), L3/2, L3, then one
 * DRAM point (all threads together at least the DRAM rule, plan/dram_size.h), and
 * with -f doublings from 512 MiB up to the memory limit.
 *
 * Unlike sc-membench, each level's size is the thread's share of the cache: the
 * instance size divided by the number of running threads on CPUs that share it, so
 * an "L3" point is really in L3 when every thread runs. Points meant to fit in a
 * cache round down to a power of two, points meant to exceed it round up; duplicates
 * are dropped and the list is sorted. Every size is a function of the machine's
 * description, the threads and the budget: never of a measurement, so two runs of
 * one machine have the same rows. */
#ifndef MEMBENCH_SWEEP_PLAN_H
#define MEMBENCH_SWEEP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/topology.h"

#define SWEEP_MAX_POINTS 48
#define SWEEP_MIN_BYTES 4096ULL
#define SWEEP_FULL_START (512ULL << 20)

typedef struct {
    uint64_t bytes; /* per thread */
    char reason[160];
    const char *basis;  /* the source key of the cache size it was planned from ("sysfs", ...) */
    bool dram;          /* meant to be DRAM's (past the last level, or -f) */
    bool may_fit_cache; /* with dram: it may still fit a cache (plan/dram_size.h) */
} size_point;

typedef struct {
    size_point points[SWEEP_MAX_POINTS];
    size_t n;
    uint64_t share[4];       /* per-thread share of L1..L3 used, bytes */
    size_t sharers[4];       /* threads sharing one instance of L1..L3 */
    uint64_t max_bytes;      /* largest per-thread size the memory budget allows */
    size_t dropped;          /* points left out because of the budget */
    size_t full_points;      /* points added by -f (0 when the budget is below where -f starts) */
    uint64_t dram_point;     /* the DRAM point's per-thread size */
    bool dram_capped;        /* the budget held it below the rule */
} size_plan;

/* cpus: the CPU of each of nthreads threads (duplicates allowed). budget: bytes the
 * run may allocate; the largest size must fit `buffers` buffers per thread. */
void sweep_plan_sizes(const topology *t, const int *cpus, int nthreads, bool full, uint64_t budget,
                      int buffers, size_plan *out);

/* --max-size: leaves out the points above max_bytes per thread (the DRAM point
 * among them when it is larger), keeping the order; returns how many it left out.
 * A function of the plan and the cap only, so the sizes stay the machine's. */
size_t sweep_plan_cap(size_plan *plan, uint64_t max_bytes);

uint64_t round_down_pow2(uint64_t v);
uint64_t round_up_pow2(uint64_t v);

#endif
