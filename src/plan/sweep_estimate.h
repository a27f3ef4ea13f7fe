/* SPDX-License-Identifier: MIT */
/* What a sweep plan will cost before anything runs (--plan): the memory it holds
 * at its peak, per NUMA node, and the time its rounds take by a stated model. The
 * model counts what the sweep does (modes/sweep.c, measure/bandwidth.c,
 * measure/latency.c): per bandwidth visit a warm-up (round 1: a first pass and a
 * calibration sample), a timed sample and the check; per latency visit a warm-up
 * chase and its samples; allocation and first touch where buffers are made (the
 * pool once, kept buffers once, the rest at every visit); chains linked once or at
 * every visit. What it cannot know is assumed, and said with the estimate: DRAM
 * bandwidth, first-touch and chain-linking rates, DRAM latency. Timings are never
 * asserted in tests; the model's parts are. */
#ifndef MEMBENCH_SWEEP_ESTIMATE_H
#define MEMBENCH_SWEEP_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EST_DRAM_BYTES_S_THREAD 10e9   /* DRAM bandwidth a thread gets */
#define EST_DRAM_BYTES_S_PACKAGE 150e9 /* and a package at most (8-12 DDR5 channels, about half their peak) */
#define EST_TOUCH_BYTES_S_THREAD 1e9   /* allocation and first touch (page faults, zeroing), a thread */
#define EST_TOUCH_MORE_THREADS 0.85     /* what each thread past the first adds of that (2 threads: 1.5 GB/s
                                          against 0.81 on fresh VM memory, BENCHMARKS) */
#define EST_TOUCH_BYTES_S_PACKAGE 50e9 /* and a package at most */
#define EST_LINK_BYTES_S 2.5e9         /* linking a random chain, one thread (1 GiB in 0.4 s, BENCHMARKS) */
#define EST_DRAM_NS 120.0              /* a DRAM load, for warm-up chases */
#define EST_THREAD_START_S 1e-4        /* creating and pinning one worker thread */
#define EST_HOST_PROBE_SHARE 0.04      /* the host probes, at most every 0.1 s: the CPU one 2 ms, the memory
                                          one's 16 MiB 1.6 ms at 10 GB/s (6.7 ms in all on the Xeon guest) */
#define EST_CALIBRATE_HEADROOM 1.25    /* measure/bandwidth.c: samples aim this much past --sample-ms */

/* One point of the plan, as the sweep will run it. */
typedef struct {
    uint64_t bytes;    /* per thread (latency: the chain) */
    int streams;       /* bandwidth: buffers a pass reads and writes (read 1, write 1, copy 2); 0: latency */
    bool writes;       /* bandwidth: the kernel writes (its destination is checked, a copy's cleared) */
    bool dram;         /* past the threads' last-level share: a pass takes DRAM time */
    bool keep;         /* buffers or chain kept between rounds */
    bool pooled;       /* bandwidth: in the pool; latency: linked once in the pool's sources */
    bool random;       /* latency: the buffer chased fully random too (a DRAM point): a second
                          chain, as many samples; linked once when kept, else at every visit */
} estimate_point;

typedef struct {
    const estimate_point *points;
    size_t n;
    int threads;          /* bandwidth threads (latency: one) */
    int packages;
    int rounds;           /* -r */
    int latency_rounds;   /* at most, when the CV rule adds rounds (>= rounds) */
    int latency_per_visit;
    double sample_s, latency_sample_s;
    uint64_t pool_bytes;  /* the pool, all threads together; 0: none */
    int line_size;
    int touch_threads;    /* threads that first-touch a chain outside the pool and link every chain
                             (0: one) */
} estimate_request;

typedef struct {
    double total_s;   /* the -r rounds */
    double bound_s;   /* with every round the latency points may add */
    double samples_s; /* timed samples (bandwidth and latency) */
    double warmup_s;  /* warm-ups, calibration, checks */
    double touch_s;   /* allocation and first touch (the pool's included) */
    double chains_s;  /* linking latency chains */
    double other_s;   /* threads, host probes */
    double dram_bytes_s, touch_bytes_s; /* the rates assumed */
} sweep_estimate;

void sweep_estimate_time(const estimate_request *rq, sweep_estimate *out);

/* Memory held at the peak, per node: each thread's `per_thread` bytes on its
 * memory node (thread_nodes[i], a node id), and `latency_bytes` on latency_node.
 * node_ids[0..nnodes) are the machine's nodes; node_bytes has nnodes + 1 entries,
 * zeroed here, the last for memory on no node of the list (unbound threads: -1).
 * Returns the total. */
uint64_t sweep_node_memory(const int *thread_nodes, int threads, uint64_t per_thread, int latency_node,
                           uint64_t latency_bytes, const int *node_ids, size_t nnodes, uint64_t *node_bytes);

#endif
