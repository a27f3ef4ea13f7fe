/* SPDX-License-Identifier: MIT */
/* sc-membench's BENCHMARK SUMMARY and scores, computed from records (no I/O):
 * peak and log2(size)-weighted average bandwidth per operation, the latency at the
 * largest latency size, and the three scores. We add the largest (RAM-sized)
 * point's bandwidth, because the peaks — and so the score — come from L1. */
#ifndef MEMBENCH_SUMMARY_H
#define MEMBENCH_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

typedef struct {
    int count;
    double peak_mb_s;
    double weighted_avg_mb_s;
    double largest_mb_s; /* at largest_bw_size */
    double peak_median_mb_s; /* ours: the highest per-size median (does not grow with -r) */
} op_summary;

typedef struct {
    op_summary read, write, copy;
    int latency_count;
    double latency_ns;            /* at the largest latency size */
    uint64_t largest_size;        /* largest size tested, any operation */
    uint64_t largest_bw_size;     /* largest size with a bandwidth result */
    double bandwidth_score;       /* avg of non-zero peaks / 1000 (GB/s) */
    double bandwidth_score_median; /* ours: the same from the peak medians */
    double latency_score;         /* 1000 / latency_ns */
    double combined_score;        /* sqrt(bw * lat) * 100, or bw * 100 without latency */
} run_summary;

run_summary summary_compute(const result_record *records, size_t n);

#endif
