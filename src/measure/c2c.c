/* SPDX-License-Identifier: MIT */
#include "measure/c2c.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cache_flush.h"
#include "kernels/chase.h"
#include "measure/clock.h"
#include "measure/handoff.h"
#include "platform/platform.h"
#include "util/stats.h"
#include "util/stop_flag.h"

#ifdef MEMBENCH_FAULTY_KERNELS
/* The test build only (build/membench-faulty): tests/faulty/faulty_kernels.c. */
void faulty_c2c_times(double *transfer_ns, double *own_ns);
#endif

typedef struct {
    const c2c_request *rq;
    handoff h;
    atomic_int finished;  /* the reader wants no more windows (set before its last post) */
    buffer b;
    bool have_buffer;
    void *starts[C2C_MAX_SAMPLES + 1];
    double ns[C2C_MAX_SAMPLES], own_ns[C2C_MAX_SAMPLES];
    size_t marked; /* lines seen carrying the writer's store, over the kept windows */
    int got;
    bool moved[2];        /* a thread was seen off its CPU during a sample */
    c2c_status status;
    char why[160];
} c2c_ctx;

static volatile uintptr_t sink;

const char *c2c_state_name(c2c_state s)
{
    return s == C2C_HIT ? "HIT" : "HITM";
}

const char *c2c_hit_method(void)
{
    return cache_flush_method() ? cache_flush_method() : "eviction by reading";
}

bool c2c_hit_flushes(void)
{
    return cache_flush_method() != NULL;
}

static void fail(c2c_ctx *c, c2c_status st, const char *who, handoff_result hr)
{
    if (hr == HANDOFF_STOPPED) {
        st = C2C_STOPPED;
    } else if (hr == HANDOFF_TIMEOUT) {
        snprintf(c->why, sizeof c->why, "the %s waited %.0f s for its partner on CPU %d, which never answered", who,
                 c->rq->timeout_s, who[0] == 'w' ? c->rq->reader_cpu : c->rq->writer_cpu);
    }
    if (c->status == C2C_OK || hr != HANDOFF_ABORTED)
        c->status = st;
    handoff_abort(&c->h);
}

static void *window(c2c_ctx *c, int k)
{
    return (char *)c->b.ptr + (size_t)k * c->rq->window;
}

/* Every window written back and out of every cache: the lines the writer reads
 * later come clean from memory. */
static void make_clean(c2c_ctx *c, int nwin)
{
    const c2c_request *rq = c->rq;
    if (cache_flush(c->b.ptr, (size_t)nwin * rq->window, rq->line))
        return;
    uintptr_t acc = 0;
    const char *e = rq->evict;
    for (size_t off = 0; e && off < rq->evict_bytes; off += rq->line)
        acc += *(const volatile uintptr_t *)(const void *)(e + off);
    sink = acc;
}

/* Brings window k into the writer's cache in the requested state. */
static void prepare(c2c_ctx *c, int k)
{
    const c2c_request *rq = c->rq;
    char *w = window(c, k);
    uintptr_t acc = 0;
    for (size_t off = 0; off < rq->window; off += rq->line) {
        volatile uintptr_t *line = (volatile uintptr_t *)(void *)(w + off);
        if (rq->state == C2C_HITM)
            line[1] = line[0] + (uintptr_t)k; /* a store beside the link: Modified */
        else
            acc += line[0];
    }
    sink = acc;
}

static bool on_cpu(int cpu)
{
    int now = platform_current_cpu();
    return now < 0 || now == cpu;
}

static void writer(c2c_ctx *c)
{
    const c2c_request *rq = c->rq;
    int nwin = rq->max_samples + 1; /* window 0 is the warm-up */
    size_t bytes = (size_t)nwin * rq->window;
    /* bound (MPOL_BIND); where the node's free memory is unknown (no node
     * directory) the binding cannot be checked first, so it is only preferred */
    bool ok = platform_node_free_bytes(rq->home) > 0
                  ? buffer_alloc_bound(&c->b, bytes, rq->pages, rq->huge_size, rq->home)
                  : buffer_alloc(&c->b, bytes, rq->pages, rq->huge_size, rq->home);
    if (!ok) {
        snprintf(c->why, sizeof c->why, "cannot allocate %zu KiB bound to node %d", bytes >> 10, rq->home);
        fail(c, C2C_NO_MEMORY, "writer", HANDOFF_OK);
        return;
    }
    c->have_buffer = true;
    for (int k = 0; k < nwin; k++) {
        chase_layout layout = {CHASE_RANDOM, rq->line, 0, rq->seed + (uint64_t)k, 0};
        c->starts[k] = chase_build(window(c, k), rq->window, &layout);
        if (!c->starts[k]) {
            fail(c, C2C_STOPPED, "writer", HANDOFF_STOPPED);
            return;
        }
        handoff_beat(&c->h);
    }
    buffer_inspect(&c->b);
    if (rq->state == C2C_HIT)
        make_clean(c, nwin);
    handoff_beat(&c->h);
    for (int k = 0; k < nwin; k++) {
        handoff_result hr = handoff_wait(&c->h, &c->h.done, (unsigned)k, rq->timeout_s);
        if (hr != HANDOFF_OK) {
            fail(c, C2C_FAILED, "writer", hr);
            return;
        }
        if (atomic_load_explicit(&c->finished, memory_order_relaxed))
            return;
        prepare(c, k);
        if (!on_cpu(rq->writer_cpu))
            c->moved[0] = true;
        handoff_post(&c->h.ready, (unsigned)k + 1);
    }
}

static double chase_ns(void *start, size_t lines)
{
    double t0 = clock_now();
    void *p = chase_run(start, lines);
    double t1 = clock_now();
    sink = (uintptr_t)p;
    return (t1 - t0) * 1e9 / (double)lines;
}

/* After the timed chases: the lines of window k that carry the writer's store
 * (prepare's mark beside the link), so a record says the reader got the lines the
 * writer modified (HITM: all of them) or clean ones (HIT: none). */
static size_t writer_marks(c2c_ctx *c, int k)
{
    size_t n = 0;
    char *w = window(c, k);
    for (size_t off = 0; off < c->rq->window; off += c->rq->line) {
        const volatile uintptr_t *line = (const volatile uintptr_t *)(const void *)(w + off);
        n += line[1] == line[0] + (uintptr_t)k;
    }
    return n;
}

static void reader(c2c_ctx *c)
{
    const c2c_request *rq = c->rq;
    size_t lines = rq->window / rq->line;
    for (int k = 0; k <= rq->max_samples; k++) {
        handoff_result hr = handoff_wait(&c->h, &c->h.ready, (unsigned)k + 1, rq->timeout_s);
        if (hr != HANDOFF_OK) {
            fail(c, C2C_FAILED, "reader", hr);
            return;
        }
        if (!on_cpu(rq->reader_cpu))
            c->moved[1] = true;
        double ns = chase_ns(c->starts[k], lines);
        double own = chase_ns(c->starts[k], lines); /* now in the reader's own cache */
#ifdef MEMBENCH_FAULTY_KERNELS
        faulty_c2c_times(&ns, &own); /* MEMBENCH_C2C_NS: known times, no clock */
#endif
        size_t marked = writer_marks(c, k);
        bool done = k == rq->max_samples || stop_flagged();
        if (k > 0) { /* window 0 warms up clocks, TLB and the code path */
            c->ns[c->got] = ns;
            c->own_ns[c->got++] = own;
            c->marked += marked;
            if (c->got >= rq->min_samples && stats_compute(c->ns, (size_t)c->got).cv < rq->cv_target)
                done = true;
        }
        if (done)
            atomic_store_explicit(&c->finished, 1, memory_order_relaxed);
        handoff_post(&c->h.done, (unsigned)k + 1); /* release: publishes finished too */
        if (done)
            return;
    }
}

static void c2c_job(team *t, int tid, void *arg)
{
    (void)t;
    if (tid == 0)
        writer(arg);
    else
        reader(arg);
}

static void fill(c2c_ctx *c, team *t, result_record *out)
{
    const c2c_request *rq = c->rq;
    result_set_samples(out, c->ns, c->got);
    sample_stats own = stats_compute(c->own_ns, (size_t)c->got);
    out->size_bytes = rq->window;
    out->threads = 2;
    out->has_cv_target = true;
    out->cv_target = rq->cv_target;
    out->converged = out->summary.cv < rq->cv_target && c->got >= rq->min_samples;
    out->complete = c->got >= rq->min_samples;
    out->iterations = (uint64_t)c->got;
    out->samples_wanted = rq->min_samples;
    out->kernel_isa = "chase";
    out->kernel_store = "loads";
    result_add_buffer(out, c->b.method, c->b.len, c->b.huge_coverage);
    double verified = c->b.node < 0 ? -1 : c->b.node == rq->home ? c->b.node_fraction : 0;
    out->node_local_fraction = verified;
    out->pins_verified = (team_pin_verified(t, 0) && !c->moved[0]) + (team_pin_verified(t, 1) && !c->moved[1]);
    params_text(&out->params, "state", c2c_state_name(rq->state));
    params_int(&out->params, "home_node", rq->home);
    if (verified >= 0)
        params_number(&out->params, "home_verified", verified);
    else
        params_null(&out->params, "home_verified");
    params_int(&out->params, "window_bytes", (long long)rq->window);
    params_int(&out->params, "lines", (long long)(rq->window / rq->line));
    params_number(&out->params, "reader_own_ns", own.median);
    params_number(&out->params, "writer_marked_share",
                  c->got ? (double)c->marked / ((double)c->got * (double)(rq->window / rq->line)) : 0);
    params_text(&out->params, "hit_method", rq->state == C2C_HIT ? c2c_hit_method() : "none");
}

c2c_status measure_c2c(team *t, const c2c_request *rq, result_record *out, char *why, size_t whylen)
{
    c2c_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, whylen, "out of memory");
        return C2C_NO_MEMORY;
    }
    c->rq = rq;
    handoff_init(&c->h);
    atomic_init(&c->finished, 0);
    double start = clock_now();
    team_run(t, c2c_job, c);
    c2c_status st = c->status;
    if (st == C2C_OK && c->got == 0)
        st = C2C_STOPPED;
    if (st == C2C_STOPPED && c->got > 0)
        st = C2C_OK; /* stopped after some samples: report them, marked incomplete */
    if (st == C2C_OK) {
        fill(c, t, out);
        out->elapsed_s = clock_now() - start;
        if (out->pins_verified < 2) {
            snprintf(c->why, sizeof c->why, "the %s did not stay on CPU %d",
                     team_pin_verified(t, 0) && !c->moved[0] ? "reader" : "writer",
                     team_pin_verified(t, 0) && !c->moved[0] ? rq->reader_cpu : rq->writer_cpu);
            st = C2C_FAILED;
        }
    }
    snprintf(why, whylen, "%s", c->why);
    if (c->have_buffer)
        buffer_free(&c->b);
    free(c);
    return st;
}

static void range_of(const double *v, int n, double *lo, double *hi)
{
    *lo = *hi = v[0];
    for (int i = 1; i < n; i++) {
        *lo = v[i] < *lo ? v[i] : *lo;
        *hi = v[i] > *hi ? v[i] : *hi;
    }
}

bool c2c_visits_split(const double *a, int na, const double *b, int nb)
{
    if (na < 1 || nb < 1)
        return false;
    double alo, ahi, blo, bhi;
    range_of(a, na, &alo, &ahi);
    range_of(b, nb, &blo, &bhi);
    double ma = stats_compute(a, (size_t)na).median, mb = stats_compute(b, (size_t)nb).median;
    double lo = ma < mb ? ma : mb, hi = ma < mb ? mb : ma;
    bool apart = ahi < blo || bhi < alo;
    return apart && lo > 0 && hi / lo >= C2C_SPLIT_RATIO;
}

bool c2c_add_visit(result_record *first, const result_record *second, bool *split)
{
    int n1 = first->nsamples, n2 = second->nsamples;
    double *all = malloc(sizeof *all * (size_t)(n1 + n2 > 0 ? n1 + n2 : 1));
    if (!all)
        return false;
    memcpy(all, first->samples, sizeof *all * (size_t)n1);
    memcpy(all + n1, second->samples, sizeof *all * (size_t)n2);
    double m1 = first->summary.median, m2 = second->summary.median;
    *split = c2c_visits_split(first->samples, n1, second->samples, n2);
    bool ok = result_set_samples(first, all, n1 + n2);
    free(all);
    if (!ok)
        return false;
    first->iterations += second->iterations;
    first->elapsed_s += second->elapsed_s;
    first->pins_verified = first->pins_verified < second->pins_verified ? first->pins_verified
                                                                        : second->pins_verified;
    first->complete = first->complete && second->complete;
    params_number(&first->params, "first_visit_ns", m1);
    params_number(&first->params, "second_visit_ns", m2);
    params_bool(&first->params, "visits_split", *split);
    return true;
}
