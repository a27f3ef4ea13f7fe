/* SPDX-License-Identifier: MIT */
/* Cache-to-cache transfer latency of one writer/reader CPU pair (Intel MLC's
 * --c2c_latency; one way, unlike multichase pingpong's round trips), on a team
 * of two pinned threads: tid 0 the writer, tid 1 the reader.
 *
 * The writer allocates one buffer bound to the home node, cut into windows: one
 * per sample plus a warm-up, so every sample reads lines the reader has never held.
 * It links each window into a random cycle, one node per cache line (no
 * prefetcher can follow), and checks where the pages are (move_pages). Then, for
 * each sample, it brings window k into its cache in the requested state, posts
 * "ready" (release), and the reader chases the whole window once (dependent loads)
 * and reports ns per line. Lines are then in this state:
 *
 *   HITM  the writer has just stored to every line of the window (the link is
 *         read, a sample stamp written beside it): Modified in the writer's L1/L2
 *         (the window is sized to fit its L2), in no other core's cache.
 *   HIT   after linking, every window was written back and dropped from all
 *         caches (CLFLUSH on x86-64; elsewhere by reading evict_bytes of other
 *         data, twice the largest cache, which evicts them under any LRU-like
 *         policy), then the writer only reads window k: its lines are clean
 *         (Exclusive) in the writer's caches and up to date in memory. A shared
 *         inclusive L3 may hold them too and answer for the writer.
 *
 * The reader reads each line once, so a line comes from wherever the machine
 * finds it: the writer's L1/L2, a shared L3, another CCX or socket, or memory.
 * After each timed chase the reader chases the same window again: the lines are
 * then in its own cache (reader_own_ns), a baseline for the transfer. Samples run
 * from min_samples until the CV is below cv_target (or max_samples); the median is
 * reported. Every wait has a deadline (measure/handoff.h). */
#ifndef MEMBENCH_MEASURE_C2C_H
#define MEMBENCH_MEASURE_C2C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "memory/buffer.h"
#include "team/team.h"

#define C2C_MAX_SAMPLES 64

typedef enum { C2C_HITM, C2C_HIT } c2c_state;

typedef struct {
    int writer_cpu, reader_cpu; /* where the team's threads were pinned */
    int home;                   /* node the buffer is bound to */
    c2c_state state;
    uint64_t window;            /* bytes per window, a multiple of line */
    size_t line;                /* bytes per chased line */
    int min_samples, max_samples; /* max <= C2C_MAX_SAMPLES */
    double cv_target;
    page_request pages;
    uint64_t huge_size;
    uint64_t seed;
    const void *evict;          /* HIT without a flush instruction: data to read instead */
    size_t evict_bytes;
    double timeout_s;           /* longest wait for the partner */
} c2c_request;

typedef enum { C2C_OK, C2C_STOPPED, C2C_NO_MEMORY, C2C_FAILED } c2c_status;

/* "HITM" or "HIT". */
const char *c2c_state_name(c2c_state s);
/* How HIT lines are made clean on this machine ("clflush", or "eviction by
 * reading"), for the plan. */
const char *c2c_hit_method(void);
/* True when HIT lines are flushed by an instruction (no eviction buffer needed). */
bool c2c_hit_flushes(void);

/* Runs on a team of exactly two threads. Fills the measured part of out (samples
 * in ns per line, the CV rule, pages, home share, pins, params state, home_node,
 * home_verified, window_bytes, lines, reader_own_ns, hit_method); the caller sets
 * mode, operation and placement. C2C_FAILED: why says what (a partner that never
 * answered, a pin that did not hold). */
c2c_status measure_c2c(team *t, const c2c_request *rq, result_record *out, char *why, size_t whylen);

/* A pair is measured twice, the second time after every other pair's first visit:
 * vCPUs that move between host cores in between (a 5x change on cloud guests) show
 * as two visits that disagree instead of passing as a steady figure. Appends the
 * second visit's samples to the first's record (summary, and two levels, over both;
 * pins must hold in both; the CV rule stays the first visit's) and keeps each visit's median in params
 * first_visit_ns and second_visit_ns, and visits_split: the visits' sample ranges
 * do not overlap and their medians differ by C2C_SPLIT_RATIO or more (also in
 * *split). False: out of memory. */
#define C2C_SPLIT_RATIO 1.25
bool c2c_add_visit(result_record *first, const result_record *second, bool *split);
/* The rule of visits_split, on each visit's samples. */
bool c2c_visits_split(const double *a, int na, const double *b, int nb);

#endif
