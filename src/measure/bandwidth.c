/* SPDX-License-Identifier: MIT */
#include "measure/bandwidth.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "measure/stop.h"

#define SRC_SEED 0x5eedULL
#define DST_SEED 0xd57ULL
#define WRITE_PATTERN 0x0123456789abcdefULL
#define MAX_PASSES 1000000000ULL
#define COPY_DST_OFFSET 2048
/* Times a series of samples may start over with more passes (each restart
 * at least 10% longer), so a host that keeps speeding up cannot stall a point. */
#define MAX_RESTARTS 5
/* The pass count is calibrated for samples this much longer than min_sample_s, so
 * a host that is a little faster at a later visit still gives full-length samples:
 * calibrated to min_sample_s exactly, 277 of 600 bandwidth points of 20 default
 * runs restarted (BENCHMARKS: "Calibration"). */
#define CALIBRATE_HEADROOM 1.25

typedef struct {
    buffer src, dst;
    uint64_t expected_xor; /* XOR of src's words, for checking the read kernel */
    const void *xor_of;    /* the pool source expected_xor was taken of, at xor_generation */
    unsigned xor_generation;
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
    uint64_t pattern; /* what write kernels store in this visit (visit_pattern) */
} job_ctx;

/* The word write kernels store in one visit: another at every visit of any point,
 * so a kernel that stopped writing cannot pass on what an earlier visit left in a
 * kept or pooled destination, without a pass to clear it first. */
static uint64_t visit_pattern(void)
{
    static atomic_uint_fast64_t visits;
    uint64_t pattern = WRITE_PATTERN ^ ((atomic_fetch_add(&visits, 1) + 1) * 0x9e3779b97f4a7c15ULL);
    return pattern ? pattern : WRITE_PATTERN;
}

/* The buffers a kernel needs follow from the streams its descriptor declares. */
static bool uses_src(const kernel *k)
{
    return k->reads > 0;
}

static bool uses_dst(const kernel *k)
{
    return k->writes > 0;
}

/* The XOR of n words in four chains, so a pass over DRAM waits on memory, not on
 * one register (a one-chain loop took twice a read kernel's pass at 1 GiB, at
 * every visit). */
static uint64_t words_xor(const uint64_t *w, size_t n)
{
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a ^= w[i];
        b ^= w[i + 1];
        c ^= w[i + 2];
        d ^= w[i + 3];
    }
    for (; i < n; i++)
        a ^= w[i];
    return a ^ b ^ c ^ d;
}

/* Whether all n words equal `pattern`, read in four chains as words_xor. */
static bool words_all(const uint64_t *w, size_t n, uint64_t pattern)
{
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a |= w[i] ^ pattern;
        b |= w[i + 1] ^ pattern;
        c |= w[i + 2] ^ pattern;
        d |= w[i + 3] ^ pattern;
    }
    for (; i < n; i++)
        a |= w[i] ^ pattern;
    return (a | b | c | d) == 0;
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
        x ^= words_xor(w + lo, n - lo < step ? n - lo : step);
    }
    *out = x;
    return true;
}

/* Allocates and first-touches one thread's buffers of `bytes`; a stop ends it early
 * with the buffers possibly half written (nothing is measured). False: no memory. */
static bool alloc_thread(thread_state *s, int tid, uint64_t bytes, bool src, bool dst, page_request pages,
                         uint64_t huge_size, int node)
{
    if (src) {
        if (!buffer_alloc(&s->src, bytes, pages, huge_size, node))
            return false;
        buffer_fill(&s->src, SRC_SEED + (uint64_t)tid);
    }
    if (dst) {
        /* Beside a source, 2 KiB into its page: source and destination then never
         * share an offset within 4 KiB, so the CPU does not hold loads behind
         * stores it cannot tell apart (4K aliasing; BENCHMARKS.md, defect 3). */
        size_t offset = src ? COPY_DST_OFFSET : 0;
        if (!buffer_alloc_offset(&s->dst, bytes, pages, huge_size, node, offset))
            return false;
        buffer_fill(&s->dst, DST_SEED + (uint64_t)tid);
    }
    return true;
}

struct bw_pool {
    int n;
    uint64_t bytes;
    size_t dst_offset; /* where the destinations start in their pages */
    bool src, dst;
    thread_state *ts;
    int *nodes;  /* per thread, as asked (bw_pool_request.nodes); NULL: not bound */
    uint64_t *lent; /* per thread: bytes of its source lent for good (bw_pool_lend_source) */
    unsigned generation; /* bumped when a lent source is written (bw_pool_source_rewritten) */
};

/* This thread's part of the pool as the point's buffers: the source as the pool
 * filled it (or a chain lent it rewrote: bw_pool_lend_source), the destination as
 * the last visit left it (bw_point_visit). A write-only kernel's destination starts
 * at its page, as its own buffer would. */
static void attach_pool(const bw_pool *pool, thread_state *s, int tid, const kernel *k, uint64_t bytes)
{
    const thread_state *ps = &pool->ts[tid];
    if (uses_src(k))
        s->src = buffer_view(&ps->src, 0, bytes);
    if (uses_dst(k))
        s->dst = buffer_view(&ps->dst, uses_src(k) ? 0 : pool->dst_offset, bytes);
}

/* A destination that may hold an earlier visit's output (kept, or the pool's) is
 * cleared before the visit, to what no kernel writes: a kernel that stopped writing
 * must not find that output there and pass verification (job_verify). Only for
 * kernels checked against their source: a write kernel stores a pattern of its
 * visit's own (visit_pattern), which no earlier visit left. */
static void job_clear_dst(team *t, int tid, void *arg)
{
    (void)t;
    job_ctx *c = arg;
    thread_state *s = &c->ts[tid];
    if (s->dst.ptr)
        memset(s->dst.ptr, 0, c->rq->bytes);
}

/* Each thread's buffers: its own, allocated and first-touched here, or its part of
 * the pool. */
static void job_alloc(team *t, int tid, void *arg)
{
    (void)t;
    job_ctx *c = arg;
    const bandwidth_request *rq = c->rq;
    thread_state *s = &c->ts[tid];
    s->alloc_ok = true;
    if (rq->pool)
        attach_pool(rq->pool, s, tid, rq->k, rq->bytes);
    else
        s->alloc_ok = alloc_thread(s, tid, rq->bytes, uses_src(rq->k), uses_dst(rq->k), rq->pages, rq->huge_size,
                                   rq->nodes ? rq->nodes[tid] : -1);
    /* what a read kernel's pass must return: taken of own buffers when they are
     * made, of a pool's source again only when a chain was linked in the pool's
     * sources since the last visit (bw_pool_source_rewritten); a pass over 1 GiB at
     * every visit otherwise (a stop: nothing is measured) */
    if (s->alloc_ok && rq->k->verify == VERIFY_SOURCE_XOR &&
        !(rq->pool && s->xor_of == s->src.ptr && s->xor_generation == rq->pool->generation)) {
        bool whole = xor_words(&s->src, &s->expected_xor);
        s->xor_of = rq->pool && whole ? s->src.ptr : NULL;
        s->xor_generation = rq->pool ? rq->pool->generation : 0;
    }
}

/* Page sizes and nodes of every thread's buffers, with one read of smaps. */
static void inspect_buffers(thread_state *ts, int n)
{
    buffer **all = malloc(sizeof *all * (size_t)n * 2);
    size_t count = 0;
    for (int i = 0; all && i < n; i++) {
        if (ts[i].src.ptr)
            all[count++] = &ts[i].src;
        if (ts[i].dst.ptr)
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
    const kernel_args args = {.out = s->dst.ptr, .in = {s->src.ptr}, .bytes = c->rq->bytes, .pattern = c->pattern};
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
        /* one pass gives expected_xor; a sample of p passes XORs it p times. An odd
         * p's last sample is checked as it was timed (a DRAM size's one pass: no
         * pass more at every visit); an even p's gives 0 whatever was read, so one
         * pass more is checked instead */
        if (c->passes % 2 == 1) {
            s->verified = s->last_xor == s->expected_xor;
            break;
        }
        const kernel_args args = {.in = {s->src.ptr}, .bytes = rq->bytes};
        s->verified = rq->k->fn(&args) == s->expected_xor;
        break;
    }
    case VERIFY_PATTERN:
        s->verified = words_all(s->dst.ptr, words, c->pattern);
        break;
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
            if (!bufs[b]->ptr)
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
    /* where the buffers start within their pages (thread 0's; every thread's alike) */
    if (n > 0 && c->ts[0].src.ptr)
        params_int(&out->params, "src_page_offset", (long long)((uintptr_t)c->ts[0].src.ptr % 4096));
    if (n > 0 && c->ts[0].dst.ptr)
        params_int(&out->params, "dst_page_offset", (long long)((uintptr_t)c->ts[0].dst.ptr % 4096));
}

/* A point measured over several visits (the sweep's rounds): its buffers, kept
 * between visits or not, its calibrated pass count and every sample so far. */
struct bw_point {
    bandwidth_request rq; /* nodes points at own copy */
    int *nodes;
    int n;                /* threads: fixed by the first visit's team */
    thread_state *ts;
    thread_time *tt;
    uint64_t passes;      /* 0 until calibrated */
    int restarts;
    double *times, *tmins, *tmaxs; /* per sample: span, fastest and slowest thread */
    int *rounds;
    double *ends; /* clock_now() when each sample ended */
    int nsamples, cap;
    bool open;            /* buffers allocated and touched */
    result_record pages;  /* pages, locality and pins of the last buffers (placement fields only) */
};

bw_point *bw_point_create(const bandwidth_request *rq, int threads)
{
    bw_point *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->rq = *rq;
    p->n = threads;
    p->ts = calloc((size_t)threads, sizeof *p->ts);
    p->tt = calloc((size_t)threads, sizeof *p->tt);
    p->nodes = rq->nodes ? malloc(sizeof *p->nodes * (size_t)threads) : NULL;
    if (!p->ts || !p->tt || (rq->nodes && !p->nodes)) {
        bw_point_destroy(p);
        return NULL;
    }
    if (rq->nodes)
        memcpy(p->nodes, rq->nodes, sizeof *p->nodes * (size_t)threads);
    p->rq.nodes = p->nodes;
    result_init(&p->pages, "", "", METRIC_BANDWIDTH);
    return p;
}

static void release_buffers(bw_point *p)
{
    /* freed here, not by each thread: munmap works from any thread, and waking
     * thousands of oversubscribed threads once more took a second (a pool's views
     * have no mapping of their own: only forgotten) */
    for (int i = 0; i < p->n; i++) {
        buffer_free(&p->ts[i].src);
        buffer_free(&p->ts[i].dst);
    }
    p->open = false;
}

void bw_point_destroy(bw_point *p)
{
    if (!p)
        return;
    if (p->ts)
        release_buffers(p);
    result_free(&p->pages);
    free(p->ts);
    free(p->tt);
    free(p->nodes);
    free(p->times);
    free(p->tmins);
    free(p->tmaxs);
    free(p->rounds);
    free(p->ends);
    free(p);
}

bool bw_point_lent(const bw_point *p)
{
    return p->rq.pool != NULL;
}

int bw_point_samples(const bw_point *p)
{
    return p->nsamples;
}

double bw_point_best_rate(const bw_point *p)
{
    double best = 0;
    double bytes = (double)kernel_bytes_counted(p->rq.k, p->rq.bytes) * (double)p->n * (double)p->passes;
    for (int i = 0; i < p->nsamples; i++)
        if (p->times[i] > 0 && bytes / p->times[i] / 1e6 > best)
            best = bytes / p->times[i] / 1e6;
    return best;
}

static bool add_sample(bw_point *p, double span, double tmin, double tmax, int round)
{
    if (p->nsamples == p->cap) {
        int cap = p->cap ? 2 * p->cap : 8;
        double *a = realloc(p->times, sizeof *a * (size_t)cap);
        if (a)
            p->times = a;
        double *b = realloc(p->tmins, sizeof *b * (size_t)cap);
        if (b)
            p->tmins = b;
        double *c = realloc(p->tmaxs, sizeof *c * (size_t)cap);
        if (c)
            p->tmaxs = c;
        int *d = realloc(p->rounds, sizeof *d * (size_t)cap);
        if (d)
            p->rounds = d;
        double *e = realloc(p->ends, sizeof *e * (size_t)cap);
        if (e)
            p->ends = e;
        if (!a || !b || !c || !d || !e)
            return false;
        p->cap = cap;
    }
    p->times[p->nsamples] = span;
    p->tmins[p->nsamples] = tmin;
    p->tmaxs[p->nsamples] = tmax;
    p->rounds[p->nsamples] = round;
    p->ends[p->nsamples] = clock_now();
    p->nsamples++;
    return true;
}

/* Allocates and first-touches every thread's buffers and notes what pages they got. */
static measure_status open_buffers(bw_point *p, team *t, job_ctx *c)
{
    team_run(t, job_alloc, c);
    p->open = true;
    for (int i = 0; i < p->n; i++)
        if (!p->ts[i].alloc_ok)
            return MEASURE_NO_MEMORY;
    if (stop_flagged())
        return MEASURE_STOPPED; /* during first touch: buffers half written */
    inspect_buffers(p->ts, p->n);
    result_free(&p->pages);
    result_init(&p->pages, "", "", METRIC_BANDWIDTH);
    fill_placement(t, c, p->n, &p->pages);
    p->pages.pins_verified = 0;
    for (int i = 0; i < p->n; i++)
        p->pages.pins_verified += team_pin_verified(t, i);
    return MEASURE_OK;
}

/* Full-length warm-up samples from c->passes on, each refining the pass count,
 * until one lasts min_sample_s x CALIBRATE_HEADROOM; the count is then the
 * point's. All are discarded. False when stopped. */
static bool calibrate(bw_point *p, team *t, job_ctx *c)
{
    double aim = p->rq.min_sample_s * CALIBRATE_HEADROOM;
    for (;;) {
        double warm = run_sample(t, c, p->n, NULL, NULL);
        if (warm < 0)
            return false;
        if (warm >= aim || c->passes == MAX_PASSES)
            break;
        c->passes = longer_passes(c->passes, warm, aim);
    }
    p->passes = c->passes;
    return true;
}

/* The first visit calibrates: one pass (also the first warm-up) for a first
 * estimate, then calibrate(), unless that one pass lasted a sample already: then it
 * was the visit's full-length warm-up, as on later visits.
 * Later visits run one full-length warm-up (the caches hold other points' data by
 * then). False when stopped. */
static bool warm_up(bw_point *p, team *t, job_ctx *c)
{
    if (p->passes == 0) {
        c->passes = 1;
        double one = run_sample(t, c, p->n, NULL, NULL);
        if (one < 0)
            return false;
        c->passes = passes_for(one, p->rq.min_sample_s * CALIBRATE_HEADROOM);
        if (c->passes == 1) { /* one pass is a sample already (DRAM sizes): it was the warm-up */
            p->passes = 1;
            return true;
        }
        return calibrate(p, t, c);
    }
    return run_sample(t, c, p->n, NULL, NULL) >= 0;
}

measure_status bw_point_visit(bw_point *p, team *t, int count, int round, bool keep_buffers)
{
    if (team_size(t) != p->n)
        return MEASURE_NO_MEMORY; /* a point belongs to one team size */
    job_ctx c = {&p->rq, p->ts, p->tt, p->passes, visit_pattern()};
    measure_status status = MEASURE_OK;
    bool reused = p->open || p->rq.pool != NULL; /* own fresh buffers hold DST_SEED's pattern */
    if (!p->open)
        status = open_buffers(p, t, &c);
    if (status == MEASURE_OK && reused && p->rq.k->verify == VERIFY_EQUALS_SOURCE)
        team_run(t, job_clear_dst, &c);
    if (status == MEASURE_OK && !warm_up(p, t, &c))
        status = MEASURE_STOPPED;
    int got = 0;
    while (status == MEASURE_OK && got < count) {
        double tmin = 0, tmax = 0;
        double slow = run_sample(t, &c, p->n, &tmin, &tmax);
        if (slow < 0)
            break;
        /* Every kept sample lasts min_sample_s: one that comes in shorter (the
         * host sped up more than the calibration's headroom) restarts the series
         * with more passes, so all samples still have the same length. The
         * samples of earlier visits are dropped and this visit takes its own
         * count again: the dropped ones come back in later rounds, spread in time
         * like the others (taken all at once here, they would be one batch of the
         * median interval; membench-mpi's ranks meet whatever their step counts). */
        if (slow < p->rq.min_sample_s && c.passes < MAX_PASSES && p->restarts < MAX_RESTARTS) {
            /* calibrated again, from the short sample's estimate: a sample of few
             * passes overstates a pass by the fixed cost of starting the team, and
             * the estimate alone then fell short again (a second restart) */
            c.passes = longer_passes(c.passes, slow, p->rq.min_sample_s * CALIBRATE_HEADROOM);
            p->restarts++;
            p->nsamples = 0;
            got = 0;
            if (!calibrate(p, t, &c)) {
                status = MEASURE_STOPPED;
                break;
            }
            continue;
        }
        if (!add_sample(p, slow, tmin, tmax, round)) {
            status = MEASURE_NO_MEMORY;
            break;
        }
        got++;
    }
    if (status == MEASURE_OK && got == 0)
        status = MEASURE_STOPPED;
    if (status == MEASURE_OK) {
        team_run(t, job_verify, &c);
        for (int i = 0; i < p->n; i++)
            if (!p->ts[i].verified)
                status = MEASURE_WRONG_RESULT;
        for (int i = 0; p->pages.observed && i < p->n; i++) /* where each thread was after this visit's samples */
            p->pages.observed[i].cpu = team_observed_cpu(t, i);
    }
    if (status != MEASURE_OK || !keep_buffers || p->rq.pool) /* a pool's part is only lent for the visit */
        release_buffers(p);
    return status;
}

bool bw_point_fill(const bw_point *p, double origin, result_record *out)
{
    int got = p->nsamples;
    if (got == 0)
        return false;
    double bytes = (double)kernel_bytes_counted(p->rq.k, p->rq.bytes) * (double)p->n * (double)p->passes;
    double *rates = calloc((size_t)got, sizeof *rates);
    if (!rates)
        return false;
    int best = 0;
    for (int i = 0; i < got; i++) {
        rates[i] = bytes / p->times[i] / 1e6;
        if (p->times[i] < p->times[best])
            best = i;
    }
    bool ok = result_set_samples(out, rates, got) && result_set_sample_rounds(out, p->rounds, p->ends, origin, got);
    free(rates);
    out->size_bytes = p->rq.bytes;
    out->threads = p->n;
    out->bytes_per_sample = bytes;
    out->iterations = p->passes;
    out->elapsed_s = p->times[best];
    out->samples_wanted = p->rq.tries;
    out->kernel_isa = p->rq.k->isa;
    out->kernel_store = p->rq.k->store;
    out->complete = got >= p->rq.tries;
    params_number(&out->params, "thread_time_min_s", p->tmins[best]);
    params_number(&out->params, "min_sample_s", p->rq.min_sample_s);
    params_number(&out->params, "series_restarts", p->restarts);
    params_number(&out->params, "thread_time_max_s", p->tmaxs[best]);
    params_merge(&out->params, &p->pages.params); /* the buffers' page offsets (fill_placement) */
    memcpy(out->pages, p->pages.pages, sizeof out->pages);
    out->npages = p->pages.npages;
    out->page_method = p->pages.page_method;
    out->huge_coverage = p->pages.huge_coverage;
    out->node_local_fraction = p->pages.node_local_fraction;
    out->pins_verified = p->pages.pins_verified;
    if (p->pages.observed)
        ok = ok && result_set_observed(out, p->pages.observed, p->n);
    return ok;
}

measure_status measure_bandwidth(team *t, const bandwidth_request *rq, result_record *out)
{
    bw_point *p = bw_point_create(rq, team_size(t));
    if (!p)
        return MEASURE_NO_MEMORY;
    measure_status status = bw_point_visit(p, t, rq->tries, 1, false);
    if (status == MEASURE_STOPPED && p->nsamples > 0)
        status = MEASURE_OK; /* cut short: what was measured is kept */
    if ((status == MEASURE_OK || status == MEASURE_WRONG_RESULT) && !bw_point_fill(p, 0, out) && status == MEASURE_OK)
        status = MEASURE_NO_MEMORY;
    bw_point_destroy(p);
    return status;
}

/* The pool's buffers, one job per thread of the team that creates it. */
typedef struct {
    bw_pool *pool;
    const bw_pool_request *rq;
    bool *ok;
} pool_job;

static void job_pool_alloc(team *t, int tid, void *arg)
{
    (void)t;
    pool_job *j = arg;
    const bw_pool_request *prq = j->rq;
    j->ok[tid] = alloc_thread(&j->pool->ts[tid], tid, prq->bytes, prq->src, prq->dst, prq->pages, prq->huge_size,
                              prq->nodes ? prq->nodes[tid] : -1);
}

measure_status bw_pool_create(team *t, const bw_pool_request *rq, bw_pool **out)
{
    *out = NULL;
    int n = team_size(t);
    bw_pool *pool = calloc(1, sizeof *pool);
    bool *ok = calloc((size_t)n, sizeof *ok);
    if (pool)
        *pool = (bw_pool){.n = n,
                          .bytes = rq->bytes,
                          .dst_offset = rq->src && rq->dst ? COPY_DST_OFFSET : 0,
                          .src = rq->src,
                          .dst = rq->dst,
                          .ts = calloc((size_t)n, sizeof *pool->ts),
                          .nodes = rq->nodes ? calloc((size_t)n, sizeof *pool->nodes) : NULL,
                          .lent = calloc((size_t)n, sizeof *pool->lent)};
    if (!pool || !ok || !pool->ts || !pool->lent || (rq->nodes && !pool->nodes)) {
        free(ok);
        bw_pool_destroy(pool);
        return MEASURE_NO_MEMORY;
    }
    if (rq->nodes)
        memcpy(pool->nodes, rq->nodes, sizeof *pool->nodes * (size_t)n);
    pool_job j = {pool, rq, ok};
    team_run(t, job_pool_alloc, &j);
    measure_status status = MEASURE_OK;
    for (int i = 0; i < n; i++)
        if (!ok[i])
            status = MEASURE_NO_MEMORY;
    if (status == MEASURE_OK && stop_flagged())
        status = MEASURE_STOPPED; /* during first touch: buffers half written */
    free(ok);
    if (status != MEASURE_OK)
        bw_pool_destroy(pool);
    else
        *out = pool;
    return status;
}

bool bw_pool_fits(const bw_pool *pool, const bandwidth_request *rq, int threads)
{
    return pool && rq->bytes <= pool->bytes && threads <= pool->n && (!uses_src(rq->k) || pool->src) &&
           (!uses_dst(rq->k) || pool->dst);
}

bool bw_pool_scratch(const bw_pool *pool, int tid, uint64_t bytes, buffer *out)
{
    if (!pool || !pool->dst || tid >= pool->n || bytes > pool->bytes)
        return false;
    *out = buffer_view(&pool->ts[tid].dst, pool->dst_offset, bytes);
    return true;
}

void bw_pool_source_rewritten(bw_pool *pool)
{
    pool->generation++;
}

bool bw_pool_lend_source(bw_pool *pool, uint64_t bytes, int node, buffer *out)
{
    for (int i = 0; pool && pool->src && i < pool->n; i++) {
        int at = pool->nodes ? pool->nodes[i] : -1;
        if (at != node || pool->bytes - pool->lent[i] < bytes)
            continue;
        *out = buffer_view(&pool->ts[i].src, 0, bytes);
        out->ptr = (char *)out->ptr + pool->lent[i];
        pool->lent[i] += bytes;
        return true;
    }
    return false;
}

void bw_pool_destroy(bw_pool *pool)
{
    if (!pool)
        return;
    for (int i = 0; pool->ts && i < pool->n; i++) {
        buffer_free(&pool->ts[i].src);
        buffer_free(&pool->ts[i].dst);
    }
    free(pool->ts);
    free(pool->nodes);
    free(pool->lent);
    free(pool);
}
