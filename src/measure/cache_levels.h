/* SPDX-License-Identifier: MIT */
/* Reported cache levels set against the latency steps a chase measured. Pure: no
 * I/O, no topology; the caller passes the reported sizes and the curve, and gets
 * one check per reported level back.
 *  - Each step but the last level's goes to the inner level nearest to it (in
 *    log2 distance), and each inner level takes the nearest of its steps (none: no
 *    step found): a step is one cache's edge, and neither the step into DRAM nor
 *    one after it is an inner one's (on a curve around the last level; on a shorter
 *    one the dominant step is no step into DRAM, and the inner levels share all).
 *  - The last level given is the last-level cache: it takes the dominant step (the
 *    step into DRAM, dominant_step), whatever smaller steps follow it (a shared L3
 *    that other tenants keep full shows as a small step at its nominal size; a
 *    hypervisor may report a size the guest does not get). */
#ifndef MEMBENCH_CACHE_LEVELS_H
#define MEMBENCH_CACHE_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/cache_estimate.h"

/* A level disagrees when its step is more than this factor above or below the
 * reported size; a level is checkable only when the measured sizes reach this
 * factor below and above the reported size. */
#define CACHE_LEVEL_FACTOR 2.0

typedef struct {
    int level;     /* 1, 2, 3, ... */
    uint64_t size; /* bytes; 0: not reported, gets no check */
} reported_cache_level;

/* One reported cache level set against the curve. */
typedef struct {
    int level;
    uint64_t reported;
    const latency_step *step; /* into the steps passed in; NULL if there is none */
    bool checkable;           /* the curve reaches CACHE_LEVEL_FACTOR below and above the reported size */
    bool disagrees;           /* checkable, and no step or the step is more than CACHE_LEVEL_FACTOR off */
} level_check;

/* A step is a candidate for the step into DRAM when its relative climb
 * (latency_after / latency_before) is at least 1/DOMINANT_RELATIVE_SHARE of the
 * largest relative climb. */
#define DOMINANT_RELATIVE_SHARE 2.0

/* The step into DRAM: of the candidates, the one with the largest climb in ns
 * (latency_after - latency_before); the first of equals; NULL when nsteps is 0. */
const latency_step *dominant_step(const latency_step *steps, size_t nsteps);

/* sizes[0..nsizes): the measured buffer sizes, ascending. steps[0..nsteps): what
 * find_latency_steps found on that curve. levels[0..nlevels): the reported levels,
 * innermost first; the last one is the last-level cache. Writes one check per level
 * of non-zero size to checks (room for nlevels) in the same order; returns how many. */
/* The sizes (ascending) reach CACHE_LEVEL_FACTOR below and above size: a level
 * checkable on the converged sizes, or, on all the curve's sizes, one that the
 * points' convergence alone left unchecked. */
bool curve_around(const uint64_t *sizes, size_t nsizes, uint64_t size);
size_t check_cache_levels(const uint64_t *sizes, size_t nsizes, const latency_step *steps, size_t nsteps,
                          const reported_cache_level *levels, size_t nlevels, level_check *checks);

#endif
