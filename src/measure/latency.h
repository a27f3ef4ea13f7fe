/* SPDX-License-Identifier: MIT */
/* Latency at one buffer size: one pinned thread chases a random cycle (kernels/chase)
 * through a buffer it allocated and touched itself (or one lent to it:
 * latency_request.memory). Each sample is calibrated to a fixed duration, not to a
 * full traversal, so big buffers cost no more time than small ones. Samples
 * continue from min_samples until the coefficient of variation is below cv_target
 * or max_samples is reached; the median is reported. */
#ifndef MEMBENCH_MEASURE_LATENCY_H
#define MEMBENCH_MEASURE_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/chase.h"
#include "measure/bandwidth.h"

typedef struct {
    uint64_t bytes;
    chase_layout layout; /* order, node size (one cache line by default), seed */
    double sample_s;     /* duration of one sample */
    int min_samples, max_samples;
    double cv_target;
    page_request pages;
    uint64_t huge_size;
    int node;         /* node the buffer goes on (the CPU's own, or --mem-node), -1 unknown */
    bool strict_node; /* bound to node (refused when it cannot hold the buffer), not preferred */
    const buffer *memory; /* memory to link the chain in, already on node and touched, not the
                             point's to free (the sweep's pool: bw_pool_lend_source, or
                             bw_pool_scratch); NULL: its own */
    bool with_random; /* beside a CHASE_TLB_LOCAL chase over more than one group, the full
                         random chase (page walks included) too: a second chain of the same
                         size, visited right after the first at every visit, its samples the
                         record's random_* (result.h). The DRAM points ask for it. */
    const buffer *random_memory; /* memory lent to that chain, as `memory`; NULL: its own */
    bool random_memory_reused;   /* others write random_memory between visits (the sweep's
                                    scratch): that chain is linked again at every visit */
    const int *touch_cpus; /* CPUs of the chasing CPU's node, idle while it links, that first-touch
                              its own buffers (buffer_populate_beside) and link its chains beside
                              it (beside_run); NULL: it alone */
    size_t ntouch_cpus;
} latency_request;

/* Runs on a team of exactly one thread. Fills the measured part of out (samples
 * in ns, the CV rule, pages, node, parameters latency_ref_cycles, chain_build_s
 * (the last linking's), chain_builds, chased_bytes); the caller has set mode and
 * operation with result_init. */
measure_status measure_latency(team *t, const latency_request *rq, result_record *out);

/* The same measurement spread over visits (the sweep's rounds): a point keeps its
 * step count and samples between visits, and its chain when asked to. Each visit
 * runs a discarded chase first (chase_warmup_steps), then more quarters of a
 * sample while the chase still gets faster. */
typedef struct chase_point chase_point;

/* Steps of a visit's discarded chase, for a sample of `steps` over a chain of
 * `nodes` in `pages` 4 KiB pages: a full sample on the first visit; on later ones a
 * quarter, but at least one whole traversal (at most a sample): the other points
 * have evicted the chain, and a chain that fits in the caches is only back in them
 * once every node has been loaded again. A quarter was less than one traversal when
 * the step count had been calibrated on a cold chain: the next sample then paid for
 * the rest. On every visit also at least one load per page (never more than a
 * traversal, nor four samples): the page walk's tables (the guest's and, in a VM,
 * the host's, which may back any page with 4 KiB) come back into the caches only
 * then. Without it a visit's first 1 GiB sample read 3-6% above its third on the
 * Xeon guest (BENCHMARKS "Latency warm-up"). */
uint64_t chase_warmup_steps(uint64_t steps, uint64_t nodes, uint64_t pages, bool first_visit);

/* The step count for the next sample, after one of `steps` that took ns_per_step:
 * unchanged while that sample lasted within 25% of sample_s, else sample_s at its
 * pace. The count is calibrated once, on the first visit's chase, and a chain the
 * other points had evicted is slower then than once back in the caches: a 4 MiB
 * point's samples lasted 6.5 ms of 20 on the Xeon guest, a 1 GiB point's 13-16. */
uint64_t chase_resize_steps(double sample_s, double ns_per_step, uint64_t steps);

/* After the discarded chase (first_ns per step), more discarded chases (chase(ctx):
 * ns per step of a quarter sample) while each is more than 5% faster than the one
 * before, at most 12, none once a stop is asked for. Returns how many ran. */
int chase_settle(double first_ns, double (*chase)(void *ctx), void *ctx);

/* Whether the request asks for the full random chase and it differs from the
 * headline's (a second chain, as many samples). */
bool latency_request_chases_random(const latency_request *rq);
chase_point *chase_point_create(const latency_request *rq);
/* count more samples tagged with `round` (0: until the CV rule is met); the chain
 * is freed afterwards unless keep_chain. MEASURE_STOPPED: no sample this visit. */
measure_status chase_point_visit(chase_point *p, team *t, int count, int round, bool keep_chain);
/* Samples of sample_s from the next visit on (its random chase's too): the step
 * count scaled, not calibrated again. Its record keeps "sample_ms" as created and
 * adds "sample_ms_paced", the length now. */
void chase_point_pace(chase_point *p, double sample_s);
/* Adds to *once_s the time its first visits spent linking and calibrating (what no
 * later visit repeats), and to *chased_s the time in the warm-up chases and timed
 * samples so far (their lengths follow the sample's), its random chase's with them. */
void chase_point_times(const chase_point *p, double *once_s, double *chased_s);
int chase_point_samples(const chase_point *p);
/* How many times its chain has been linked so far. */
int chase_point_builds(const chase_point *p);
/* Whether the last round's samples (at least 2; rounds[] ascending, one per
 * sample) all lie above every earlier sample: the host slowed between rounds.
 * More rounds would then come from its slow phase alone, close together in time,
 * and outweigh the rounds spread over the run: on the Xeon guest a 1 GiB point at
 * 223 ns in rounds 1-2 and 259 in round 3 got 12 more samples up to 368 ns and
 * reported 319 (BENCHMARKS "Calibration", batch 10). A round wholly below is not
 * a shift: what disturbs a chase only adds time, so the earlier rounds were the
 * disturbed ones and more rounds are welcome (stopping there left a 2 MiB point at
 * 33 ns, 16 in its last round, in batch 11). */
bool chase_last_round_shifted(const double *ns, const int *rounds, int n);
/* The CV rule on samples ns[0..n) taken in rounds[]: more while fewer than
 * min_samples, or while CV is not below cv_target before max_samples, unless the
 * last round shifted (chase_last_round_shifted). */
bool chase_samples_want_more(const latency_request *rq, const double *ns, const int *rounds, int n);
/* The CV rule on the point's samples so far. */
bool chase_point_wants_more(const chase_point *p);
/* The record as measure_latency fills it; false without samples or memory. */
bool chase_point_fill(const chase_point *p, team *t, result_record *out);
/* Adds each sample's round and end time (less origin) to the record. */
bool chase_point_fill_rounds(const chase_point *p, double origin, result_record *out);
void chase_point_destroy(chase_point *p);
/* Whether its chain is linked in memory lent to it (latency_request.memory). */
bool chase_point_lent(const chase_point *p);

#endif
