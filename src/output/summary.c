/* SPDX-License-Identifier: MIT */
#include "output/summary.h"

#include <math.h>
#include <string.h>

static op_summary *slot(run_summary *s, const char *operation)
{
    if (strcmp(operation, "read") == 0)
        return &s->read;
    if (strcmp(operation, "write") == 0)
        return &s->write;
    if (strcmp(operation, "copy") == 0)
        return &s->copy;
    return NULL; /* extra operations are not part of sc-membench's scores */
}

run_summary summary_compute(const result_record *records, size_t n)
{
    run_summary s;
    memset(&s, 0, sizeof s);
    double wsum[3] = {0}, wbw[3] = {0};
    uint64_t latency_size = 0;
    for (size_t i = 0; i < n; i++) {
        const result_record *r = &records[i];
        if (r->size_bytes > s.largest_size)
            s.largest_size = r->size_bytes;
        double value = result_value(r);
        if (r->metric == METRIC_LATENCY) {
            s.latency_count++;
            if (value > 0 && r->size_bytes >= latency_size) {
                latency_size = r->size_bytes;
                s.latency_ns = value;
            }
            continue;
        }
        op_summary *o = slot(&s, r->operation);
        if (!o)
            continue;
        if (r->size_bytes > s.largest_bw_size)
            s.largest_bw_size = r->size_bytes;
        int k = (int)(o - &s.read);
        double w = log2((double)r->size_bytes / 1024.0 + 1.0);
        o->count++;
        if (value > o->peak_mb_s)
            o->peak_mb_s = value;
        if (r->summary.median > o->peak_median_mb_s)
            o->peak_median_mb_s = r->summary.median;
        wsum[k] += w;
        wbw[k] += w * value;
    }
    op_summary *ops[3] = {&s.read, &s.write, &s.copy};
    double total = 0, total_median = 0;
    int counted = 0;
    for (int k = 0; k < 3; k++) {
        if (wsum[k] > 0)
            ops[k]->weighted_avg_mb_s = wbw[k] / wsum[k];
        if (ops[k]->peak_mb_s > 0) {
            total += ops[k]->peak_mb_s;
            total_median += ops[k]->peak_median_mb_s;
            counted++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        op_summary *o = records[i].metric == METRIC_BANDWIDTH ? slot(&s, records[i].operation) : NULL;
        if (o && records[i].size_bytes == s.largest_bw_size)
            o->largest_mb_s = result_value(&records[i]);
    }
    if (counted) {
        s.bandwidth_score = total / counted / 1000.0;
        s.bandwidth_score_median = total_median / counted / 1000.0;
    }
    if (s.latency_ns > 0)
        s.latency_score = 1000.0 / s.latency_ns;
    if (s.bandwidth_score > 0 && s.latency_score > 0)
        s.combined_score = sqrt(s.bandwidth_score * s.latency_score) * 100.0;
    else if (s.bandwidth_score > 0)
        s.combined_score = s.bandwidth_score * 100.0;
    return s;
}
