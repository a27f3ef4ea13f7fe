/* The one result model. Measuring code fills records; writers only format them. */
#ifndef MEMBENCH_RECORD_H
#define MEMBENCH_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/operation.h"

typedef struct {
    mb_op op;
    uint64_t size_bytes; /* per thread */
    int threads;
    char cpus[256];      /* CPUs the threads ran on, e.g. "0,1" */

    /* bandwidth: 10^6 bytes/s, bytes counted as sc-membench does (copy = buffer size) */
    double bandwidth_mb_s; /* best sample */
    double bandwidth_median_mb_s;
    double bandwidth_cv;
    double thread_time_min_s, thread_time_max_s; /* per-thread times in the best sample */

    /* latency */
    double latency_ns; /* median */
    double latency_stddev_ns;
    int latency_samples;
    bool cv_target_met;
    uint64_t latency_bytes; /* buffer actually chased (capped for large sizes) */
    double latency_cycles;  /* median in reference-counter ticks (measure/ref_counter.h), -1 when unknown */
    double chain_build_s;   /* time to link the chain (not part of any sample) */

    uint64_t iterations; /* bandwidth: kernel passes per sample; latency: samples */
    double elapsed_s;    /* bandwidth: best sample (slowest thread); latency: total */
    int samples;         /* timed samples completed */
    int samples_wanted;

    const char *kernel_isa;   /* "avx512", ..., "chase" */
    const char *kernel_store; /* "regular", "non-temporal", "libc", "load" */
    const char *page_method;  /* "normal", "thp", "hugetlb" (of the first buffer) */
    double huge_coverage;     /* lowest over all buffers, -1 unknown */
    double node_local_fraction; /* lowest share of sampled pages on the thread's own node, -1 unknown */
    int pins_verified;        /* threads whose affinity was checked equal to their place */
    bool complete;            /* false when stopped before all samples */
} result_record;

#endif
