/* SPDX-License-Identifier: MIT */
#include "measure/dram_check.h"

#include "kernels/chase.h"
#include "kernels/kernel.h"
#include "kernels/operation.h"
#include "measure/latency.h"

#define CHECK_SAMPLES 3
#define CHECK_SAMPLE_S 0.02

static measure_status read_at(team *t, const kernel *k, uint64_t total, double *best)
{
    int n = team_size(t);
    uint64_t per = total / (uint64_t)n;
    per += (KERNEL_BLOCK - per % KERNEL_BLOCK) % KERNEL_BLOCK; /* whole blocks, never below the footprint */
    bandwidth_request rq = {k, per, CHECK_SAMPLES, CHECK_SAMPLE_S, PAGES_NORMAL, 0, NULL, NULL};
    result_record r;
    result_init(&r, "dram_check", "read", METRIC_BANDWIDTH);
    measure_status ms = measure_bandwidth(t, &rq, &r);
    *best = ms == MEASURE_OK ? result_value(&r) : 0;
    result_free(&r);
    return ms;
}

static measure_status chase_at(team *t, uint64_t bytes, double *median)
{
    bytes -= bytes % CHASE_TLB_GROUP_BYTES;
    chase_layout layout = {CHASE_TLB_LOCAL, 64, CHASE_TLB_GROUP_BYTES, 1, CHASE_TLB_SPREAD};
    latency_request rq = {bytes, layout, CHECK_SAMPLE_S, CHECK_SAMPLES, CHECK_SAMPLES, 1.0, PAGES_NORMAL, 0, -1,
                          false, NULL, false, NULL, false, NULL, 0};
    result_record r;
    result_init(&r, "dram_check", "latency", METRIC_LATENCY);
    measure_status ms = measure_latency(t, &rq, &r);
    *median = ms == MEASURE_OK ? result_value(&r) : 0;
    result_free(&r);
    return ms;
}

measure_status dram_check_run(team *t, dram_figure kind, uint64_t footprint, result_dram_check *out)
{
    bool chase = kind == DRAM_FIGURE_LATENCY;
    const kernel *k = chase ? NULL : kernel_choose(KERNEL_SWEEP, OP_READ, STORE_ANY, NULL, true);
    if (!chase && !k)
        return MEASURE_NO_MEMORY;
    *out = (result_dram_check){false,
                               chase ? "chase: TLB-local (multichase's order), 64-byte nodes, one thread"
                                     : "read: the sweep's DRAM read kernel, every usable CPU",
                               chase ? "ns" : "MB/s", footprint, 0, 0, NULL};
    measure_status ms = chase ? chase_at(t, footprint, &out->at_footprint) : read_at(t, k, footprint, &out->at_footprint);
    if (ms == MEASURE_OK)
        ms = chase ? chase_at(t, 2 * footprint, &out->at_twice) : read_at(t, k, 2 * footprint, &out->at_twice);
    if (ms != MEASURE_OK)
        return ms;
    out->ran = true;
    out->verdict = dram_check_verdict(chase, out->at_footprint, out->at_twice);
    return MEASURE_OK;
}
