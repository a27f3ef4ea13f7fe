/* SPDX-License-Identifier: MIT */
/* Bandwidth of one kernel at one buffer size on a team of threads: allocate and
 * first-touch in each thread, calibrate passes per sample to the minimum sample
 * time, discard a warm-up sample, time `tries` samples started together at a
 * barrier, verify the buffers, and keep best/median/CV. */
#ifndef MEMBENCH_MEASURE_BANDWIDTH_H
#define MEMBENCH_MEASURE_BANDWIDTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernel.h"
#include "memory/buffer.h"
#include "core/result.h"
#include "team/team.h"

typedef struct bw_pool bw_pool;

typedef struct {
    const kernel *k;
    uint64_t bytes;      /* per thread, multiple of KERNEL_BLOCK */
    int tries;           /* timed samples */
    double min_sample_s; /* each sample lasts at least this long */
    page_request pages;
    uint64_t huge_size;
    const int *nodes;    /* per thread: node to allocate on, -1 = first touch only; may be NULL */
    const bw_pool *pool; /* buffers to use instead of the point's own (bw_pool_fits); may be NULL */
} bandwidth_request;

typedef enum {
    MEASURE_OK,
    MEASURE_STOPPED,      /* stopped before one timed sample completed: no result */
    MEASURE_NO_MEMORY,    /* allocation failed */
    MEASURE_WRONG_RESULT  /* a kernel's output did not verify: a bug, never a number */
} measure_status;

/* One thread's part of a sample: when it left the barrier, and how long it took. */
typedef struct {
    double start, elapsed;
} thread_time;

/* A sample's time: from the first thread's start to the last one's end. With a
 * CPU per thread that is the slowest thread's time; with more threads than CPUs
 * they take turns, and a thread's own time would count one CPU many times over.
 * The fastest and slowest thread's own times go to *fastest and *slowest. */
double sample_span(const thread_time *t, int n, double *fastest, double *slowest);

/* Fills the measured part of out (samples in MB/s, bytes per sample, passes,
 * kernel, pages, node locality, pins; parameters thread_time_min_s/max_s of the
 * best sample); the caller has set mode and operation with result_init. */
measure_status measure_bandwidth(team *t, const bandwidth_request *rq, result_record *out);

/* The same measurement spread over visits (the sweep's rounds, plan/round_schedule):
 * a point keeps its pass count and samples between visits, and its buffers when
 * asked to. The first visit calibrates; each later one runs one full-length warm-up
 * first. A sample shorter than min_sample_s raises the pass count, drops the
 * samples so far and takes as many again in that visit (at most 5 times), so all
 * samples of a point have one length. */
typedef struct bw_point bw_point;

/* rq is copied (nodes too); threads: the size of every team it will be visited with. */
bw_point *bw_point_create(const bandwidth_request *rq, int threads);
/* Takes `count` more samples, each tagged with `round`; verifies the buffers after
 * them, then frees them unless keep_buffers. MEASURE_STOPPED: no sample this visit
 * (earlier ones are kept). */
measure_status bw_point_visit(bw_point *p, team *t, int count, int round, bool keep_buffers);
int bw_point_samples(const bw_point *p);
/* The fastest sample so far in MB/s (0 without samples). */
double bw_point_best_rate(const bw_point *p);
/* The record of every sample so far (as measure_bandwidth fills it, plus each
 * sample's round and end time less origin); false without samples or memory. */
bool bw_point_fill(const bw_point *p, double origin, result_record *out);
void bw_point_destroy(bw_point *p);
/* Whether its buffers are lent by a pool (bandwidth_request.pool). */
bool bw_point_lent(const bw_point *p);

/* Buffers shared by the points that are not kept between rounds (the sweep's
 * larger sizes): each thread's source and destination, allocated on its node and
 * first-touched once by the thread, at the largest size; a point then uses the
 * first `bytes` of them (a kernel that writes nothing still fails verification: a
 * copy's destination is cleared at every visit, a write kernel stores another
 * pattern). Touching DRAM-sized buffers anew at
 * every visit took most of a default run on a large-L3 host (BENCHMARKS: "Speed of
 * the default run"). A point's record names the pages and nodes of the part it used. */
typedef struct {
    uint64_t bytes;   /* per thread */
    bool src, dst;    /* which buffers: a copy needs both */
    page_request pages;
    uint64_t huge_size;
    const int *nodes; /* per thread, as in bandwidth_request; may be NULL */
} bw_pool_request;

/* Allocates and touches the pool on every thread of t. MEASURE_NO_MEMORY or
 * MEASURE_STOPPED leave *out NULL. */
measure_status bw_pool_create(team *t, const bw_pool_request *rq, bw_pool **out);
/* Whether a point of rq on `threads` threads can run on the pool. */
bool bw_pool_fits(const bw_pool *pool, const bandwidth_request *rq, int threads);
/* Thread `tid`'s destination from its page's start, `bytes` long, in *out: memory a
 * latency chain visited between the points may be linked in again at every visit
 * (the points after it overwrite it; what the chain leaves is no kernel's output,
 * so it passes no check). False when the pool has no such buffer. */
bool bw_pool_scratch(const bw_pool *pool, int tid, uint64_t bytes, buffer *out);
/* `bytes` of a thread's source in *out, lent for the rest of the pool's life: the
 * first part not lent yet of the first thread with room that the pool was asked to
 * place on `node` (-1: a pool not bound to nodes). The kernels only read a source,
 * so a latency chain linked there stays linked between visits; what the chain
 * writes is what the read kernels are verified against from then on: say so with
 * bw_pool_source_rewritten after each linking, and their expected XOR is taken
 * again at their next visit. Lend the largest first. False when no thread has
 * room. */
bool bw_pool_lend_source(bw_pool *pool, uint64_t bytes, int node, buffer *out);
/* A chain was linked in memory bw_pool_lend_source lent. */
void bw_pool_source_rewritten(bw_pool *pool);
void bw_pool_destroy(bw_pool *pool);

#endif
