#include "measure/bandwidth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "measure/stop.h"

#define SRC_SEED 0x5eedULL
#define DST_SEED 0xd57ULL
#define WRITE_PATTERN 0x0123456789abcdefULL
#define MAX_PASSES 1000000000ULL
/* Times a series of samples may start over with more passes (each restart
 * at least 10% longer), so a host that keeps speeding up cannot stall a point. */
#define MAX_RESTARTS 5

typedef struct {
    buffer src, dst;
    uint64_t expected_xor; /* XOR of src's words, for checking the read kernel */
    uint64_t last_xor;
    bool completed; /* the last sample ran all its passes */
    bool alloc_ok;
    bool verified;
} thread_state;

typedef struct {
    const bandwidth_request *rq;
    thread_state *ts;
    thread_time *times; /* of the last sample, per thread */
    uint64_t passes;
} job_ctx;

/* The buffers a kernel needs follow from the streams its descriptor declares. */
static bool uses_src(const kernel *k)
{
    return k->reads > 0;
}

static bool uses_dst(const kernel *k)
{
    return k->writes > 0;
}

/* XOR of a buffer's words, with the stop flag tested between slices. */
static bool xor_words(const buffer *b, uint64_t *out)
{
    const uint64_t *w = b->ptr;
    size_t n = b->len / 8, step = STOP_CHECK_BYTES / 8;
    uint64_t x = 0;
    for (size_t lo = 0; lo < n; lo += step) {
        if (stop_flagged())
            return false;
        size_t hi = n - lo < step ? n : lo + step;
        for (size_t i = lo; i < hi; i++)
            x ^= w[i];
    }
    *out = x;
    return true;
}

/* Allocates and first-touches this thread's buffers; a stop ends it early with
 * alloc_ok set and the buffers possibly half written (nothing is measured). */
static void job_alloc(team *t, int tid, void *arg)
{
    (void)t;
    job_ctx *c = arg;
    const bandwidth_request *rq = c->rq;
    thread_state *s = &c->ts[tid];
    int node = rq->nodes ? rq->nodes[tid] : -1;
    s->alloc_ok = true;
    if (uses_src(rq->k)) {
        s->alloc_ok = buffer_alloc(&s->src, rq->bytes, rq->pages, rq->huge_size, node);
        if (s->alloc_ok && buffer_fill(&s->src, SRC_SEED + (uint64_t)tid))
            xor_words(&s->src, &s->expected_xor);
    }
    if (s->alloc_ok && uses_dst(rq->k)) {
        s->alloc_ok = buffer_alloc(&s->dst, rq->bytes, rq->pages, rq->huge_size, node);
        if (s->alloc_ok)
            buffer_fill(&s->dst, DST_SEED + (uint64_t)tid);
    }
}

/* Page sizes and nodes of every thread's buffers, with one read of smaps. */
static void inspect_buffers(thread_state *ts, int n)
{
    buffer **all = malloc(sizeof *all * (size_t)n * 2);
    size_t count = 0;
    for (int i = 0; all && i < n; i++) {
        if (ts[i].src.map)
            all[count++] = &ts[i].src;
        if (ts[i].dst.map)
            all[count++] = &ts[i].dst;
    }
    if (all)
        buffer_inspect_all(all, count);
    free(all);
}

static void job_sample(team *t, int tid, void *arg)
{
    job_ctx *c = arg;
    thread_state *s = &c->ts[tid];
    const kernel *k = c->rq->k;
    const kernel_args args = {.out = s->dst.ptr, .in = {s->src.ptr}, .bytes = c->rq->bytes, .pattern = WRITE_PATTERN};
    uint64_t x = 0, done = 0;
    team_barrier(t);
    double t0 = clock_now();
    for (; done < c->passes; done++) {
        x ^= kernel_pass(k, &args);
        if (stop_flagged()) /* a pass cut short is not counted: the sample is discarded */
            break;
    }
    double t1 = clock_now();
    c->times[tid] = (thread_time){t0, t1 - t0};
    s->completed = done == c->passes;
    s->last_xor = x;
}

static void job_verify(team *t, int tid, void *arg)
{
    (void)t;
    job_ctx *c = arg;
    thread_state *s = &c->ts[tid];
    const bandwidth_request *rq = c->rq;
    size_t words = rq->bytes / 8;
    switch (rq->k->verify) {
    case VERIFY_SOURCE_XOR: {
        /* one pass gives expected_xor; a sample of p passes XORs it p times */
        const kernel_args args = {.in = {s->src.ptr}, .bytes = rq->bytes};
        s->verified = rq->k->fn(&args) == s->expected_xor;
        break;
    }
    case VERIFY_PATTERN: {
        const uint64_t *w = s->dst.ptr;
        s->verified = true;
        for (size_t i = 0; i < words && s->verified; i++)
            s->verified = w[i] == WRITE_PATTERN;
        break;
    }
    case VERIFY_EQUALS_SOURCE:
        s->verified = memcmp(s->dst.ptr, s->src.ptr, rq->bytes) == 0;
        break;
    default: /* not a sweep kernel: nothing here can check it */
        s->verified = false;
        break;
    }
}

double sample_span(const thread_time *t, int n, double *fastest, double *slowest)
{
    double lo = INFINITY, hi = 0, first = INFINITY, last = -INFINITY;
    for (int i = 0; i < n; i++) {
        lo = t[i].elapsed < lo ? t[i].elapsed : lo;
        hi = t[i].elapsed > hi ? t[i].elapsed : hi;
        first = t[i].start < first ? t[i].start : first;
        last = t[i].start + t[i].elapsed > last ? t[i].start + t[i].elapsed : last;
    }
    if (fastest)
        *fastest = lo;
    if (slowest)
        *slowest = hi;
    return n > 0 ? last - first : 0;
}

/* Runs one sample on all threads; returns its span (sample_span), or -1 if a stop
 * was requested before it (signal or -t deadline, polled here, off the timed path)
 * or cut any thread's passes short. */
static double run_sample(team *t, job_ctx *c, int n, double *tmin, double *tmax)
{
    if (stop_requested())
        return -1;
    team_run(t, job_sample, c);
    for (int i = 0; i < n; i++)
        if (!c->ts[i].completed)
            return -1;
    return sample_span(c->times, n, tmin, tmax);
}

static uint64_t passes_for(double per_pass, double min_s)
{
    /* A sample lasts at least 1000 clock ticks, so resolution stays below 0.1%. */
    double floor_s = 1000 * clock_resolution();
    if (min_s < floor_s)
        min_s = floor_s;
    if (per_pass <= 0)
        return MAX_PASSES;
    double p = ceil(min_s / per_pass);
    if (p < 1)
        p = 1;
    return p > (double)MAX_PASSES ? MAX_PASSES : (uint64_t)p;
}

/* More passes after a sample of `passes` took took_s < min_s: 10% over the
 * estimate, so the next one does not land just short again. */
static uint64_t longer_passes(uint64_t passes, double took_s, double min_s)
{
    uint64_t p = passes_for(took_s / (double)passes, min_s * 1.1);
    return p > passes ? p : (passes < MAX_PASSES ? passes + 1 : passes);
}

/* Pages, node locality, and what each thread was observed doing: its CPU after
 * the samples and its buffers' nodes. */
static void fill_placement(team *t, const job_ctx *c, int n, result_record *out)
{
    result_observed *seen = calloc((size_t)n, sizeof *seen);
    out->node_local_fraction = 2;
    for (int i = 0; i < n; i++) {
        const buffer *bufs[2] = {&c->ts[i].src, &c->ts[i].dst};
        if (seen) {
            seen[i] = result_observed_unknown();
            seen[i].cpu = team_observed_cpu(t, i);
        }
        for (int b = 0; b < 2; b++) {
            if (!bufs[b]->map)
                continue;
            if (seen)
                result_observed_add_buffer(&seen[i], bufs[b]->node, bufs[b]->node_fraction);
            result_add_buffer(out, bufs[b]->method, bufs[b]->len, bufs[b]->huge_coverage);
            double local = c->rq->nodes && c->rq->nodes[i] >= 0 && bufs[b]->node >= 0
                               ? (bufs[b]->node == c->rq->nodes[i] ? bufs[b]->node_fraction : 0)
                               : -1;
            if (local < out->node_local_fraction)
                out->node_local_fraction = local;
        }
    }
    if (out->node_local_fraction > 1)
        out->node_local_fraction = -1;
    if (seen)
        result_set_observed(out, seen, n);
    free(seen);
}

measure_status measure_bandwidth(team *t, const bandwidth_request *rq, result_record *out)
{
    int n = team_size(t);
    thread_state *ts = calloc((size_t)n, sizeof *ts);
    thread_time *tt = calloc((size_t)n, sizeof *tt);
    if (!ts || !tt) {
        free(ts);
        free(tt);
        return MEASURE_NO_MEMORY;
    }
    job_ctx c = {rq, ts, tt, 1};
    measure_status status = MEASURE_OK;
    double *times = calloc((size_t)rq->tries, sizeof *times);
    double *tmins = calloc((size_t)rq->tries, sizeof *tmins);
    double *tmaxs = calloc((size_t)rq->tries, sizeof *tmaxs);
    team_run(t, job_alloc, &c);
    for (int i = 0; i < n; i++)
        if (!ts[i].alloc_ok)
            status = MEASURE_NO_MEMORY;
    if (status == MEASURE_OK && stop_flagged())
        status = MEASURE_STOPPED; /* during first touch: buffers half written */
    if (!times || !tmins || !tmaxs)
        status = MEASURE_NO_MEMORY;
    if (status != MEASURE_OK)
        goto done;
    inspect_buffers(ts, n);

    /* Calibrate: one pass (also the first warm-up), then full-length warm-up
     * samples whose times refine the pass count until one lasts min_sample_s.
     * All are discarded. */
    double one = run_sample(t, &c, n, NULL, NULL);
    if (one < 0) {
        status = MEASURE_STOPPED;
        goto done;
    }
    c.passes = passes_for(one, rq->min_sample_s);
    int got = 0, restarts = 0;
    for (;;) {
        double warm = run_sample(t, &c, n, NULL, NULL);
        if (warm < 0)
            break;
        if (warm >= rq->min_sample_s || c.passes == MAX_PASSES)
            break;
        c.passes = longer_passes(c.passes, warm, rq->min_sample_s);
    }
    /* Every kept sample lasts min_sample_s: one that comes in shorter (the
     * host sped up after the warm-up) restarts the series with more passes,
     * so all samples still have the same length. */
    while (got < rq->tries) {
        double slow = run_sample(t, &c, n, &tmins[got], &tmaxs[got]);
        if (slow < 0)
            break;
        if (slow < rq->min_sample_s && c.passes < MAX_PASSES && restarts < MAX_RESTARTS) {
            c.passes = longer_passes(c.passes, slow, rq->min_sample_s);
            restarts++;
            got = 0;
            continue;
        }
        times[got++] = slow;
    }
    if (got == 0) {
        status = MEASURE_STOPPED;
        goto done;
    }
    team_run(t, job_verify, &c);
    for (int i = 0; i < n; i++)
        if (!ts[i].verified)
            status = MEASURE_WRONG_RESULT;

    double bytes = (double)kernel_bytes_counted(rq->k, rq->bytes) * (double)n * (double)c.passes;
    double *rates = calloc((size_t)got, sizeof *rates);
    if (!rates) {
        status = MEASURE_NO_MEMORY;
        goto done;
    }
    int best = 0;
    for (int i = 0; i < got; i++) {
        rates[i] = bytes / times[i] / 1e6;
        if (times[i] < times[best])
            best = i;
    }
    if (!result_set_samples(out, rates, got))
        status = MEASURE_NO_MEMORY;
    free(rates);
    out->size_bytes = rq->bytes;
    out->threads = n;
    out->bytes_per_sample = bytes;
    out->iterations = c.passes;
    out->elapsed_s = times[best];
    out->samples_wanted = rq->tries;
    out->kernel_isa = rq->k->isa;
    out->kernel_store = rq->k->store;
    out->complete = got == rq->tries;
    params_number(&out->params, "thread_time_min_s", tmins[best]);
    params_number(&out->params, "min_sample_s", rq->min_sample_s);
    params_number(&out->params, "series_restarts", restarts);
    params_number(&out->params, "thread_time_max_s", tmaxs[best]);
    fill_placement(t, &c, n, out);
    out->pins_verified = 0;
    for (int i = 0; i < n; i++)
        out->pins_verified += team_pin_verified(t, i);

done:
    /* freed here, not by each thread: munmap works from any thread, and waking
     * thousands of oversubscribed threads once more took a second */
    for (int i = 0; i < n; i++) {
        buffer_free(&ts[i].src);
        buffer_free(&ts[i].dst);
    }
    free(times);
    free(tmins);
    free(tmaxs);
    free(ts);
    free(tt);
    return status;
}
