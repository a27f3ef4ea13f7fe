/* SPDX-License-Identifier: MIT */
/* Traffic threads and, for loaded latency, one chasing thread, on one team.
 *
 * traffic_prepare allocates and first-touches every thread's buffers in that thread
 * (bound or preferred to its node), checks what the kernel gave (pages, nodes) and,
 * with a chaser, builds thread 0's chase chain and calibrates its sample length with
 * the traffic threads quiet. Each traffic_measure is then one phase on the same
 * buffers: every thread leaves a barrier together; traffic threads run steps of the
 * mix, each followed by the injection delay, and publish the bytes they have moved
 * in a counter of their own; thread 0 keeps the time:
 *   - without a chaser it is a traffic thread too, and every window (after one
 *     discarded warm-up window) it reads all counters: one bandwidth sample is the
 *     bytes all threads moved in the window over its wall time, so threads that
 *     outnumber CPUs are counted right;
 *   - with a chaser it chases: one discarded sample while the traffic settles, then
 *     the timed samples (ns per dependent load, median reported), with the counters
 *     read at the first sample's start and the last one's end, so the bandwidth is
 *     that of exactly the window in which latency was measured.
 * Thread 0 ends the phase (samples done, or a stop requested); nobody waits on
 * anything else, so a phase cannot hang. */
#ifndef MEMBENCH_TRAFFIC_H
#define MEMBENCH_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "kernels/chase.h"
#include "kernels/traffic_mix.h"
#include "measure/bandwidth.h"
#include "memory/buffer.h"
#include "team/team.h"

typedef struct {
    uint64_t bytes;            /* of each buffer of a traffic thread */
    bool read, read2, write;   /* which buffers (the union over the mixes to run) */
    page_request pages;
    uint64_t huge_size;
    const int *nodes;          /* per thread: the node of its buffers, -1 = first touch; may be NULL */
    bool strict;               /* bound to that node (MPOL_BIND), not preferred */
    bool chaser;               /* thread 0 chases instead of making traffic */
    uint64_t chase_bytes;
    chase_layout layout;
    double chase_sample_s;     /* one latency sample, calibrated with the traffic quiet */
} traffic_setup;

typedef struct {
    const traffic_program *prog; /* NULL: traffic threads stay quiet (idle latency) */
    uint64_t delay;              /* spin iterations after every step */
    double window_s;             /* without a chaser: one bandwidth sample */
    int samples;                 /* bandwidth windows, or latency samples */
    bool per_thread;             /* params thread_N_mb_s: each traffic thread's share */
} traffic_phase;

typedef struct traffic_run traffic_run;

/* Allocates, touches and inspects; *out is NULL unless MEASURE_OK. */
measure_status traffic_prepare(team *t, const traffic_setup *s, traffic_run **out);

/* One phase. Fills out's measured part: without a chaser, samples in MB/s of
 * application bytes (best reported) and params dram_mb_s (with write-allocate
 * reads, traffic_mix.h); with a chaser, samples in ns and params bandwidth_mb_s,
 * dram_bandwidth_mb_s over the same window. Both: traffic, delay, delay_ns,
 * traffic_threads, buffer pages and nodes, pins. */
measure_status traffic_measure(traffic_run *r, const traffic_phase *ph, result_record *out);

/* Application MB/s of the last phase, over its measured window (loaded latency's
 * bandwidth, the max-bandwidth search's score). */
double traffic_last_mb_s(const traffic_run *r);

void traffic_release(traffic_run *r);

#endif
