/* SPDX-License-Identifier: MIT */
#include "measure/latency.h"

#include <stdlib.h>

#include "kernels/chase.h"
#include "measure/clock.h"
#include "memory/beside.h"
#include "util/stats.h"
#include "measure/stop.h"
#include "measure/ref_counter.h"

/* Calibration stops growing the chase length here even if a sample is still too short. */
#define MAX_CALIBRATION_CHASE_STEPS (1ULL << 40)
/* A visit's warm-up goes on, a quarter of a sample at a time, while the chase still
 * gets faster by more than 5%, at most this many times. */
#define WARMUP_MAX_EXTRA 12
#define WARMUP_SETTLED 0.95
/* The page size a page walk's tables are counted in for the warm-up: the smallest
 * a guest or its host may back memory with. */
#define WALK_PAGE_BYTES 4096

/* A latency point measured over visits: its chain (kept between visits or not),
 * the calibrated step count and the samples so far. */
struct chase_point {
    latency_request rq;
    buffer b;
    buffer seen;    /* the last chain's buffer as inspected (pages, node), kept after it is freed */
    void *pos;      /* where the chase stands; NULL when the chain is not built */
    uint64_t steps; /* per sample; 0 until calibrated */
    double asked_sample_s; /* rq.sample_s as created: rq's is the current one (chase_point_pace) */
    double build_s, elapsed_s;
    double once_s;    /* the first visit's linking and calibration: what no later visit repeats */
    double chased_s;  /* in the warm-up chases and timed samples: lengths that follow the sample's */
    double *ns;
    int *rounds;
    double *ends; /* clock_now() when each sample ended */
    int nsamples, cap;
    int visits;
    int builds; /* times the chain was linked */
    chase_point *random; /* with_random: the full random chase beside this one */
    bool random_failed;  /* its chain could not be allocated */
    /* the job's arguments and answer */
    int want;
    int round;
    measure_status status;
};

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

typedef struct {
    void *buf;
    size_t bytes;
    const chase_layout *layout;
    void *start; /* part 0's answer: every part's is the same */
} link_job;

static bool link_part(void *arg, size_t part, size_t parts)
{
    link_job *j = arg;
    void *start = chase_build_part(j->buf, j->bytes, j->layout, (unsigned)part, (unsigned)parts);
    if (part == 0)
        j->start = start;
    return start != NULL;
}

/* The chain linked in parts on the chasing thread and beside it (chase_build_part),
 * as many as the helpers and CHASE_LINK_MIN_PART allow (beside_run takes no more
 * than 1 + helpers): a 1920 MiB chain took 1.4-1.9 s on one vCPU of the Xeon guest,
 * 0.9 on two (BENCHMARKS). */
static void *link_beside(void *buf, size_t bytes, const chase_layout *layout, const int *helpers, size_t nhelpers)
{
    link_job j = {buf, bytes, layout, NULL};
    return beside_run(bytes / CHASE_LINK_MIN_PART, helpers, nhelpers, link_part, &j) ? j.start : NULL;
}

/* Allocates the buffer (or takes the one lent) and links the chain on the chasing
 * thread and the idle CPUs beside it. */
static measure_status build_chain(chase_point *p)
{
    const latency_request *rq = &p->rq;
    bool ok = true;
    if (rq->memory) { /* lent: never unmapped here */
        ok = rq->memory->len >= rq->bytes;
        p->b = buffer_view(rq->memory, 0, rq->bytes);
    } else {
        ok = rq->strict_node ? buffer_alloc_bound(&p->b, rq->bytes, rq->pages, rq->huge_size, rq->node)
                             : buffer_alloc(&p->b, rq->bytes, rq->pages, rq->huge_size, rq->node);
    }
    if (!ok)
        return MEASURE_NO_MEMORY;
    /* The pages at once, not a fault each: from this thread and the idle CPUs of
     * its node the request names (so they land on this thread's node either way);
     * then linking writes every line. */
    double build_start = clock_now();
    if (!rq->memory && !buffer_populate_beside(&p->b, 0, rq->bytes, rq->touch_cpus, rq->ntouch_cpus)) {
        buffer_free(&p->b);
        return MEASURE_STOPPED;
    }
    p->pos = link_beside(p->b.ptr, rq->bytes, &rq->layout, rq->touch_cpus, rq->ntouch_cpus);
    p->build_s = clock_now() - build_start;
    p->builds++;
    buffer_inspect(&p->b);
    p->seen = p->b;
    if (!p->pos) {
        buffer_free(&p->b);
        return stop_flagged() ? MEASURE_STOPPED : MEASURE_NO_MEMORY;
    }
    return MEASURE_OK;
}

/* Steps that last sample_s at per_step_s seconds a step; otherwise (no pace) steps. */
static uint64_t steps_lasting(double sample_s, double per_step_s, uint64_t steps)
{
    return per_step_s > 0 ? (uint64_t)(sample_s / per_step_s) + 1 : steps;
}

/* Calibrate the step count so one sample lasts sample_s; the calibration
 * chases double as warm-up and are discarded. */
static bool calibrate(chase_point *p)
{
    uint64_t steps = 1024;
    for (;;) {
        double t0 = clock_now();
        p->pos = chase_run(p->pos, steps);
        double dt = clock_now() - t0;
        if (stop_requested())
            return false;
        if (dt >= p->rq.sample_s / 4 || steps >= MAX_CALIBRATION_CHASE_STEPS) {
            p->steps = steps_lasting(p->rq.sample_s, dt / (double)steps, steps);
            return true;
        }
        steps *= 4;
    }
}

static bool add_sample(chase_point *p, double ns, int round)
{
    if (p->nsamples == p->cap) {
        int cap = p->cap ? 2 * p->cap : 32;
        double *a = realloc(p->ns, sizeof *a * (size_t)cap);
        if (a)
            p->ns = a;
        int *r = realloc(p->rounds, sizeof *r * (size_t)cap);
        if (r)
            p->rounds = r;
        double *e = realloc(p->ends, sizeof *e * (size_t)cap);
        if (e)
            p->ends = e;
        if (!a || !r || !e)
            return false;
        p->cap = cap;
    }
    p->ns[p->nsamples] = ns;
    p->ends[p->nsamples] = clock_now();
    p->rounds[p->nsamples++] = round;
    return true;
}

bool chase_last_round_shifted(const double *ns, const int *rounds, int n)
{
    if (n < 3)
        return false; /* no room for an earlier sample and a round of 2 */
    int k = n; /* the last round's samples are ns[k..n) */
    while (k > 0 && rounds[k - 1] == rounds[n - 1])
        k--;
    if (k == 0 || n - k < 2)
        return false;
    double old_hi = ns[0], new_lo = ns[k];
    for (int i = 0; i < n; i++) {
        if (i < k)
            old_hi = ns[i] > old_hi ? ns[i] : old_hi;
        else
            new_lo = ns[i] < new_lo ? ns[i] : new_lo;
    }
    return new_lo > old_hi;
}

bool chase_samples_want_more(const latency_request *rq, const double *ns, const int *rounds, int n)
{
    if (n < rq->min_samples)
        return true;
    if (n >= rq->max_samples)
        return false;
    return stats_compute(ns, (size_t)n).cv >= rq->cv_target && !chase_last_round_shifted(ns, rounds, n);
}

/* The CV rule on this chase's own samples (a visit's loop: never the random one's). */
static bool own_wants_more(const chase_point *p)
{
    return chase_samples_want_more(&p->rq, p->ns, p->rounds, p->nsamples);
}

bool chase_point_wants_more(const chase_point *p)
{
    return own_wants_more(p) || (p->random && !p->random_failed && own_wants_more(p->random));
}

uint64_t chase_warmup_steps(uint64_t steps, uint64_t nodes, uint64_t pages, bool first_visit)
{
    uint64_t warm = steps;
    if (!first_visit) {
        uint64_t quarter = steps / 4 + 1, whole = nodes < steps ? nodes : steps;
        warm = quarter > whole ? quarter : whole;
    }
    uint64_t walk = pages;
    if (nodes > 0 && walk > nodes)
        walk = nodes;
    if (walk > 4 * steps) /* a sample is far below 2^62 steps: no overflow */
        walk = 4 * steps;
    return walk > warm ? walk : warm;
}

int chase_settle(double first_ns, double (*chase)(void *ctx), void *ctx)
{
    double ns = first_ns;
    int ran = 0;
    while (ran < WARMUP_MAX_EXTRA && !stop_requested()) {
        double again = chase(ctx);
        ran++;
        if (again > ns * WARMUP_SETTLED)
            break;
        ns = again;
    }
    return ran;
}

uint64_t chase_resize_steps(double sample_s, double ns_per_step, uint64_t steps)
{
    double lasted = ns_per_step * 1e-9 * (double)steps;
    if (lasted >= 0.75 * sample_s && lasted <= 1.25 * sample_s)
        return steps;
    return steps_lasting(sample_s, ns_per_step * 1e-9, steps);
}

/* A quarter sample's chase for chase_settle. */
static double quarter_chase(void *ctx)
{
    chase_point *p = ctx;
    return timed_chase(&p->pos, p->steps / 4 + 1);
}

/* One visit on the chasing thread: the chain (built if needed; calibration chases
 * on the first visit), one chase discarded (the caches, TLB and clock settle:
 * chase_warmup_steps), then up to `want` samples;
 * want 0 means "until the CV rule is met". */
static void visit_job(team *t, int tid, void *arg)
{
    (void)t;
    (void)tid;
    chase_point *p = arg;
    double start = clock_now();
    p->status = MEASURE_OK;
    if (!p->pos) {
        p->status = build_chain(p);
        if (p->status != MEASURE_OK)
            return;
    }
    if (!p->steps) {
        if (!calibrate(p)) {
            p->status = MEASURE_STOPPED;
            return;
        }
        p->once_s += clock_now() - start;
    }
    if (stop_requested()) {
        p->status = MEASURE_STOPPED;
        return;
    }
    uint64_t nodes = p->rq.layout.node_bytes ? p->rq.bytes / p->rq.layout.node_bytes : 0;
    uint64_t warm = chase_warmup_steps(p->steps, nodes, p->rq.bytes / WALK_PAGE_BYTES, p->visits++ == 0);
    double chasing = clock_now();
    /* Then more, while each is faster than the last: a chain that fits in the L3
     * came back into it only over several samples on a Zen 3 guest (4 MiB: 87 ns
     * in a visit's first sample, 37 after), and that is not the latency asked for. */
    chase_settle(timed_chase(&p->pos, warm), quarter_chase, p);
    int got = 0;
    while (!stop_requested() && (p->want > 0 ? got < p->want : got == 0 || own_wants_more(p))) {
        double ns = timed_chase(&p->pos, p->steps);
        if (!add_sample(p, ns, p->round)) {
            p->status = MEASURE_NO_MEMORY;
            break;
        }
        p->steps = chase_resize_steps(p->rq.sample_s, ns, p->steps);
        got++;
    }
    p->chased_s += clock_now() - chasing;
    if (got == 0 && p->status == MEASURE_OK)
        p->status = MEASURE_STOPPED;
    p->elapsed_s += clock_now() - start;
}

bool latency_request_chases_random(const latency_request *rq)
{
    return rq->with_random && rq->layout.order == CHASE_TLB_LOCAL && rq->bytes > rq->layout.page_bytes;
}

chase_point *chase_point_create(const latency_request *rq)
{
    chase_point *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->rq = *rq;
    p->asked_sample_s = rq->sample_s;
    if (latency_request_chases_random(rq)) {
        latency_request r = *rq;
        r.layout = (chase_layout){CHASE_RANDOM, rq->layout.node_bytes, 0, rq->layout.seed, 0};
        r.memory = rq->random_memory;
        r.with_random = false;
        r.random_memory = NULL;
        p->random = chase_point_create(&r);
        if (!p->random) {
            free(p);
            return NULL;
        }
    }
    return p;
}

static measure_status visit_one(chase_point *p, team *t, int count, int round, bool keep_chain)
{
    p->want = count;
    p->round = round;
    team_run(t, visit_job, p);
    if (p->pos && (!keep_chain || p->status != MEASURE_OK)) {
        buffer_free(&p->b); /* munmap works from any thread */
        p->pos = NULL;
    }
    return p->status;
}

/* The headline's chase, then the random one (its chain freed first when not kept,
 * so the two need memory for both only when both are kept). A random chain that
 * cannot be allocated costs the point only that figure. */
measure_status chase_point_visit(chase_point *p, team *t, int count, int round, bool keep_chain)
{
    measure_status ms = visit_one(p, t, count, round, keep_chain);
    if (ms != MEASURE_OK || !p->random || p->random_failed)
        return ms;
    measure_status rs = visit_one(p->random, t, count, round, keep_chain && !p->rq.random_memory_reused);
    if (rs == MEASURE_NO_MEMORY)
        p->random_failed = true;
    return rs == MEASURE_STOPPED ? rs : MEASURE_OK;
}

void chase_point_pace(chase_point *p, double sample_s)
{
    if (!p || sample_s <= 0)
        return;
    if (p->steps > 0 && p->rq.sample_s > 0) { /* the calibrated pace, scaled: no new calibration */
        double steps = (double)p->steps * sample_s / p->rq.sample_s;
        p->steps = steps < 1 ? 1 : (uint64_t)steps;
    }
    p->rq.sample_s = sample_s;
    chase_point_pace(p->random, sample_s);
}

void chase_point_times(const chase_point *p, double *once_s, double *chased_s)
{
    for (; p; p = p->random) {
        *once_s += p->once_s;
        *chased_s += p->chased_s;
    }
}

int chase_point_samples(const chase_point *p)
{
    return p->nsamples;
}

int chase_point_builds(const chase_point *p)
{
    return p->builds;
}

bool chase_point_fill(const chase_point *p, team *t, result_record *out)
{
    const latency_request *rq = &p->rq;
    int got = p->nsamples;
    if (got == 0)
        return false;
    bool ok = result_set_samples(out, p->ns, got);
    out->size_bytes = rq->bytes;
    out->threads = 1;
    out->has_cv_target = true;
    out->cv_target = rq->cv_target;
    out->converged = out->summary.cv < rq->cv_target && got >= rq->min_samples;
    out->iterations = (uint64_t)got;
    out->samples_wanted = rq->min_samples;
    out->kernel_isa = "chase";
    out->kernel_store = "loads";
    const buffer *b = &p->seen;
    result_add_buffer(out, b->method, b->len, b->huge_coverage);
    out->node_local_fraction = rq->node >= 0 && b->node >= 0 ? (b->node == rq->node ? b->node_fraction : 0) : -1;
    out->complete = got >= rq->min_samples;
    out->elapsed_s = p->elapsed_s;
    double hz = ref_counter_hz();
    if (hz > 0)
        params_number(&out->params, "latency_ref_cycles", out->summary.median * hz / 1e9);
    else
        params_null(&out->params, "latency_ref_cycles");
    params_text(&out->params, "chase_order", chase_order_key(rq->layout.order));
    params_int(&out->params, "chase_node_bytes", (long long)rq->layout.node_bytes);
    params_textf(&out->params, "chase_seed", "%llu", (unsigned long long)rq->layout.seed);
    if (rq->layout.order == CHASE_TLB_LOCAL) {
        params_int(&out->params, "chase_group_bytes", (long long)rq->layout.page_bytes);
        params_int(&out->params, "chase_spread", rq->layout.spread);
    }
    params_number(&out->params, "sample_ms", p->asked_sample_s * 1e3); /* asked: a latency mode may shorten its default */
    if (rq->sample_s != p->asked_sample_s) /* and its rounds' pace shortened it since (the last length) */
        params_number(&out->params, "sample_ms_paced", rq->sample_s * 1e3);
    params_number(&out->params, "chain_build_s", p->build_s);
    params_int(&out->params, "chain_builds", p->builds);
    bool random_ok = true;
    if (p->random && p->random->nsamples > 0) {
        random_ok = result_set_random(out, p->random->ns, p->random->rounds, p->random->nsamples);
        params_int(&out->params, "random_chain_builds", p->random->builds);
        params_text(&out->params, "random_chase_order", chase_order_key(p->random->rq.layout.order));
    } else if (p->random && p->random_failed) {
        out->random_chase = RANDOM_CHASE_FAILED;
    } else if (!p->random && rq->with_random && rq->layout.order == CHASE_TLB_LOCAL) {
        out->random_chase = RANDOM_CHASE_SAME; /* one group: no second chase (a stopped one: none said) */
    }
    params_bool(&out->params, "last_round_shifted", chase_last_round_shifted(p->ns, p->rounds, got));
    params_int(&out->params, "chased_bytes", (long long)rq->bytes);
    out->pins_verified = team_pin_verified(t, 0);
    result_observed seen = result_observed_unknown(); /* the chaser's CPU after its last visit */
    seen.cpu = team_observed_cpu(t, 0);
    result_observed_add_buffer(&seen, b->node, b->node_fraction);
    return result_set_observed(out, &seen, 1) && ok && random_ok;
}

bool chase_point_fill_rounds(const chase_point *p, double origin, result_record *out)
{
    return result_set_sample_rounds(out, p->rounds, p->ends, origin, p->nsamples);
}

bool chase_point_lent(const chase_point *p)
{
    return p->rq.memory != NULL;
}

void chase_point_destroy(chase_point *p)
{
    if (!p)
        return;
    if (p->pos)
        buffer_free(&p->b);
    chase_point_destroy(p->random);
    free(p->ns);
    free(p->rounds);
    free(p->ends);
    free(p);
}

measure_status measure_latency(team *t, const latency_request *rq, result_record *out)
{
    chase_point *p = chase_point_create(rq);
    if (!p)
        return MEASURE_NO_MEMORY;
    measure_status status = chase_point_visit(p, t, 0, 1, false);
    if (status == MEASURE_STOPPED && p->nsamples > 0)
        status = MEASURE_OK; /* cut short: what was measured is kept */
    if (status == MEASURE_OK && !chase_point_fill(p, t, out))
        status = MEASURE_NO_MEMORY;
    chase_point_destroy(p);
    return status;
}
