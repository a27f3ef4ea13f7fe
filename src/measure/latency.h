/* Latency at one buffer size: one pinned thread chases a random cycle (kernels/chase)
 * through a buffer it allocated and touched itself. Each sample is calibrated to a
 * fixed duration, not to a full traversal, so big buffers cost no more time than
 * small ones. Samples continue from min_samples until the coefficient of variation
 * is below cv_target or max_samples is reached; the median is reported. */
#ifndef MEMBENCH_MEASURE_LATENCY_H
#define MEMBENCH_MEASURE_LATENCY_H

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
    int node;         /* node of the thread's CPU, -1 unknown */
} latency_request;

/* Runs on a team of exactly one thread. */
measure_status measure_latency(team *t, const latency_request *rq, result_record *out);

#endif
