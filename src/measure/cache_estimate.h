/* SPDX-License-Identifier: MIT */
/* Reading cache sizes off a latency curve. A random chase stays on a plateau while
 * the buffer fits in a cache level and climbs once it does not; the last size on a
 * plateau is the capacity the chasing thread really gets. Hypervisors and lscpu
 * report sizes that are not what a guest gets (seed 003); this says so. */
#ifndef MEMBENCH_CACHE_ESTIMATE_H
#define MEMBENCH_CACHE_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#define STEP_RISE 1.25    /* a point this much above the plateau starts a step */
#define STEP_FLATTEN 1.10 /* the climb ends where the next point rises less than this */
#define MAX_LATENCY_STEPS 8 /* steps find_latency_steps reports at most */

typedef struct {
    uint64_t last_size_before; /* largest size still on the lower plateau: the capacity */
    uint64_t first_size_after; /* first size where the climb has ended */
    double latency_before_ns;  /* lower plateau */
    double latency_after_ns;   /* upper plateau */
    uint64_t first_size_above; /* first size above the plateau: the capacity is below it */
} latency_step;

/* One measured point of a curve: its median latency and the interval of that
 * median (low == high == ns when there is none). */
typedef struct {
    uint64_t size;
    double ns, low, high;
} latency_point;

/* points ascending by size; returns the number of steps found (at most
 * MAX_LATENCY_STEPS). A rise counts only when the first point above the plateau
 * is STEP_RISE above it and its interval lies wholly above the plateau point's:
 * points whose intervals overlap do not disagree enough to say where a step is. */
size_t find_latency_steps(const latency_point *points, size_t n, latency_step *steps);

#endif
