/* SPDX-License-Identifier: MIT */
#include "plan/sweep_estimate.h"

#include <string.h>

#include "kernels/chase.h"

static double min2(double a, double b)
{
    return a < b ? a : b;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* A latency visit's discarded chase (measure/latency.c): a quarter sample, but at
 * least one traversal of the chain (at most a sample), and a load per 4 KiB page
 * (at most four samples); then at least one quarter sample more while the chase
 * settles. */
static double latency_warm_up(const estimate_request *rq, const estimate_point *p)
{
    double line = rq->line_size > 0 ? rq->line_size : 64;
    double traverse = (double)p->bytes / line * EST_DRAM_NS * 1e-9;
    double pages = (double)p->bytes / 4096 * EST_DRAM_NS * 1e-9;
    double ls = rq->latency_sample_s;
    return max2(max2(ls / 4, min2(ls, traverse)), min2(4 * ls, pages)) + ls / 4;
}

/* A latency point's first visit (measure/latency.c): the calibration chases (each
 * 4x the last until one lasts a quarter sample: a third to 4/3 of a sample, 2/3
 * taken), a full sample discarded (and a load per page, at most four samples),
 * then a quarter while the chase settles. One sample for all of it was half of
 * what the default curve took on the Xeon guest (40 ms a point at 20 ms, issue 45). */
static double latency_first_warm_up(const estimate_request *rq, const estimate_point *p)
{
    double ls = rq->latency_sample_s, pages = (double)p->bytes / 4096 * EST_DRAM_NS * 1e-9;
    return ls * 2 / 3 + max2(ls, min2(4 * ls, pages)) + ls / 4;
}

/* Linking one chain: the chasing thread and the touch threads beside it, each a
 * part of at least CHASE_LINK_MIN_PART (measure/latency.c). */
static double link_s(const estimate_request *rq, uint64_t bytes)
{
    double threads = rq->touch_threads > 1 ? rq->touch_threads : 1, most = (double)(bytes / CHASE_LINK_MIN_PART);
    return (double)bytes / EST_LINK_BYTES_S / max2(1, min2(threads, most));
}

/* One latency visit in round r (1 = the first). */
static void latency_visit(const estimate_request *rq, const estimate_point *p, int r, sweep_estimate *e)
{
    int chases = p->random ? 2 : 1;
    if (r == 1 || (!p->keep && !p->pooled))
        e->chains_s += link_s(rq, p->bytes);
    if (p->random && (r == 1 || !p->keep)) /* in the pool's scratch or its own memory: linked at every visit */
        e->chains_s += link_s(rq, p->bytes);
    /* a chain outside the pool is fresh memory, first touched as it is linked (the
     * latency mode's every chain: its curve's estimate left that out, 15 s planned for
     * 29-46 s, issue 45); a chain linked again is made again */
    if (!p->pooled && (r == 1 || !p->keep)) { /* touch_threads touch it */
        int t = rq->touch_threads > 1 ? rq->touch_threads : 1;
        double rate = EST_TOUCH_BYTES_S_THREAD * (1 + EST_TOUCH_MORE_THREADS * (t - 1));
        double package = (rq->packages > 0 ? rq->packages : 1) * EST_TOUCH_BYTES_S_PACKAGE;
        e->touch_s += (double)p->bytes * chases / min2(rate, package);
    }
    e->warmup_s += chases * (r == 1 ? latency_first_warm_up(rq, p) : latency_warm_up(rq, p));
    e->samples_s += chases * rq->latency_per_visit * rq->latency_sample_s;
}

/* One bandwidth visit in round r: buffers made (not pooled: at the first visit,
 * and at every one when not kept), a warm-up (round 1: a first pass, then a
 * calibration sample unless that pass lasted one), the sample, the check (a
 * write's destination compared, a copy's cleared before). */
static void bandwidth_visit(const estimate_request *rq, const estimate_point *p, int r, sweep_estimate *e)
{
    double moved = (double)p->bytes * rq->threads * p->streams;
    double pass = p->dram ? moved / e->dram_bytes_s : 0;
    double sample = max2(rq->sample_s * EST_CALIBRATE_HEADROOM, pass);
    if (!p->pooled && (r == 1 || !p->keep))
        e->touch_s += moved / e->touch_bytes_s;
    if (r == 1)
        e->warmup_s += pass + (pass >= sample ? 0 : sample);
    else
        e->warmup_s += sample;
    e->samples_s += sample;
    if (p->writes)
        e->warmup_s += pass / p->streams * (p->streams > 1 ? 2 : 1); /* the compare, and a copy's clear */
}

void sweep_estimate_time(const estimate_request *rq, sweep_estimate *out)
{
    memset(out, 0, sizeof *out);
    double threads = rq->threads > 0 ? rq->threads : 1, packages = rq->packages > 0 ? rq->packages : 1;
    out->dram_bytes_s = min2(threads * EST_DRAM_BYTES_S_THREAD, packages * EST_DRAM_BYTES_S_PACKAGE);
    out->touch_bytes_s = min2(threads * EST_TOUCH_BYTES_S_THREAD, packages * EST_TOUCH_BYTES_S_PACKAGE);
    out->touch_s = (double)rq->pool_bytes / out->touch_bytes_s;
    out->other_s = (threads + 1) * EST_THREAD_START_S;
    for (int r = 1; r <= rq->rounds; r++)
        for (size_t i = 0; i < rq->n; i++) {
            const estimate_point *p = &rq->points[i];
            if (p->streams == 0)
                latency_visit(rq, p, r, out);
            else
                bandwidth_visit(rq, p, r, out);
        }
    double work = out->samples_s + out->warmup_s + out->touch_s + out->chains_s;
    out->other_s += work * EST_HOST_PROBE_SHARE;
    out->total_s = work + out->other_s;
    /* the rounds the latency points' CV rule may add: only they are visited */
    sweep_estimate more = *out;
    for (int r = rq->rounds + 1; r <= rq->latency_rounds; r++)
        for (size_t i = 0; i < rq->n; i++)
            if (rq->points[i].streams == 0)
                latency_visit(rq, &rq->points[i], r, &more);
    double extra = more.samples_s + more.warmup_s + more.chains_s - (out->samples_s + out->warmup_s + out->chains_s);
    out->bound_s = out->total_s + extra * (1 + EST_HOST_PROBE_SHARE);
}

uint64_t sweep_node_memory(const int *thread_nodes, int threads, uint64_t per_thread, int latency_node,
                           uint64_t latency_bytes, const int *node_ids, size_t nnodes, uint64_t *node_bytes)
{
    memset(node_bytes, 0, sizeof *node_bytes * (nnodes + 1));
    uint64_t total = 0;
    for (int i = 0; i <= threads; i++) {
        int node = i < threads ? thread_nodes[i] : latency_node;
        uint64_t bytes = i < threads ? per_thread : latency_bytes;
        size_t k = 0;
        while (k < nnodes && node_ids[k] != node)
            k++;
        node_bytes[k] += bytes;
        total += bytes;
    }
    return total;
}
