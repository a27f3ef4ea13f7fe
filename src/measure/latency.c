#include "measure/latency.h"

#include <stdlib.h>

#include "kernels/chase.h"
#include "measure/clock.h"
#include "util/stats.h"
#include "measure/stop.h"
#include "measure/ref_counter.h"

/* Calibration stops growing the chase length here even if a sample is still too short. */
#define MAX_CALIBRATION_CHASE_STEPS (1ULL << 40)

typedef struct {
    const latency_request *rq;
    result_record *out;
    measure_status status;
} latency_ctx;

static volatile uintptr_t sink;

/* Times `steps` dependent loads; returns ns per load. */
static double timed_chase(void **pos, uint64_t steps)
{
    double t0 = clock_now();
    *pos = chase_run(*pos, steps);
    double t1 = clock_now();
    sink = (uintptr_t)*pos;
    return (t1 - t0) * 1e9 / (double)steps;
}

static void latency_job(team *t, int tid, void *arg)
{
    (void)t;
    (void)tid;
    latency_ctx *c = arg;
    const latency_request *rq = c->rq;
    result_record *out = c->out;
    double start = clock_now();
    buffer b;
    bool ok = rq->strict_node ? buffer_alloc_bound(&b, rq->bytes, rq->pages, rq->huge_size, rq->node)
                              : buffer_alloc(&b, rq->bytes, rq->pages, rq->huge_size, rq->node);
    if (!ok) {
        c->status = MEASURE_NO_MEMORY;
        return;
    }
    /* Linking the chain writes every line, so it is also the first touch: pages
     * land on this thread's node, and no separate fill pass is needed. */
    double build_start = clock_now();
    void *pos = chase_build(b.ptr, rq->bytes, &rq->layout);
    double build_s = clock_now() - build_start;
    buffer_inspect(&b);
    if (!pos) {
        buffer_free(&b);
        c->status = stop_flagged() ? MEASURE_STOPPED : MEASURE_NO_MEMORY;
        return;
    }
    /* Calibrate the step count so one sample lasts sample_s; the calibration
     * chases double as warm-up and are discarded. */
    uint64_t steps = 1024;
    for (;;) {
        double t0 = clock_now();
        pos = chase_run(pos, steps);
        double dt = clock_now() - t0;
        if (stop_requested()) {
            c->status = MEASURE_STOPPED;
            buffer_free(&b);
            return;
        }
        if (dt >= rq->sample_s / 4 || steps >= MAX_CALIBRATION_CHASE_STEPS) {
            double per = dt / (double)steps;
            steps = per > 0 ? (uint64_t)(rq->sample_s / per) + 1 : steps;
            break;
        }
        steps *= 4;
    }
    /* One full-length sample, discarded: the caches, TLB and clock settle. */
    timed_chase(&pos, steps);
    double *ns = calloc((size_t)rq->max_samples, sizeof *ns);
    int got = 0;
    sample_stats st = {0};
    while (ns && got < rq->max_samples && !stop_requested()) {
        ns[got++] = timed_chase(&pos, steps);
        if (got >= rq->min_samples) {
            st = stats_compute(ns, (size_t)got);
            if (st.cv < rq->cv_target)
                break;
        }
    }
    if (got == 0) {
        c->status = ns ? MEASURE_STOPPED : MEASURE_NO_MEMORY;
    } else {
        result_set_samples(out, ns, got);
        out->size_bytes = rq->bytes;
        out->threads = 1;
        out->has_cv_target = true;
        out->cv_target = rq->cv_target;
        out->converged = out->summary.cv < rq->cv_target && got >= rq->min_samples;
        out->iterations = (uint64_t)got;
        out->samples_wanted = rq->min_samples;
        out->kernel_isa = "chase";
        out->kernel_store = "loads";
        result_add_buffer(out, b.method, b.len, b.huge_coverage);
        out->node_local_fraction =
            rq->node >= 0 && b.node >= 0 ? (b.node == rq->node ? b.node_fraction : 0) : -1;
        result_observed seen = result_observed_unknown();
        result_observed_add_buffer(&seen, b.node, b.node_fraction);
        result_set_observed(out, &seen, 1);
        out->complete = got >= rq->min_samples;
        out->elapsed_s = clock_now() - start;
        double hz = ref_counter_hz();
        if (hz > 0)
            params_number(&out->params, "latency_ref_cycles", out->summary.median * hz / 1e9);
        else
            params_null(&out->params, "latency_ref_cycles");
        params_number(&out->params, "chain_build_s", build_s);
        params_int(&out->params, "chased_bytes", (long long)rq->bytes);
        c->status = MEASURE_OK;
    }
    free(ns);
    buffer_free(&b);
}

measure_status measure_latency(team *t, const latency_request *rq, result_record *out)
{
    latency_ctx c = {rq, out, MEASURE_OK};
    team_run(t, latency_job, &c);
    if (c.status == MEASURE_OK) {
        out->pins_verified = team_pin_verified(t, 0);
        if (out->observed)
            out->observed[0].cpu = team_observed_cpu(t, 0);
    }
    return c.status;
}
