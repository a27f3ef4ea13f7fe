/* SPDX-License-Identifier: MIT */
/* `membench latency`: a latency curve on one pinned thread, and the cache sizes it
 * implies set against the reported ones. Plan: CPU, memory node and policy, pages,
 * chase layout, the sizes and which keep their chains between rounds; run: every
 * size once per round (modes/round_loop), its samples spread over the rounds;
 * analysis: the steps of the curve and the reported-vs-measured cache levels. */
#include "modes/latency_mode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/latency_options.h"
#include "measure/cache_estimate.h"
#include "measure/cache_levels.h"
#include "measure/clock.h"
#include "measure/latency.h"
#include "measure/ref_counter.h"
#include "memory/buffer.h"
#include "memory/page_policy.h"
#include "modes/dram_sizing.h"
#include "modes/round_loop.h"
#include "output/latency_sink.h"
#include "platform/platform.h"
#include "plan/round_schedule.h"
#include "plan/sweep_estimate.h"

#define MAX_POINTS 1024
#define MIN_SAMPLES 7
#define MAX_SAMPLES 21
#define CV_TARGET 0.05
#define MAX_CHECKED_LEVELS 4 /* cache levels set against the curve: L1..L4 */

/* One size across the rounds. */
typedef struct {
    uint64_t bytes;
    chase_point *lat; /* chain (when kept), step count, samples */
    round_point sched;
    host_load_span load; /* the host over this point's visits */
    int visits;
    bool keep;     /* chain kept between rounds (else linked again, same seed, at each visit) */
    bool finished; /* could not allocate: no more visits */
    bool done;     /* wants no more samples (or the run stopped): its record is due */
} curve_point;

typedef struct {
    page_request pages;
    uint64_t huge_size;
    uint64_t page_bytes; /* page-local grouping unit */
    const char *pages_name; /* "default", "4k", "2m", "1g", "thp" */
    chase_layout layout;
    int cpu, node;
    int touch_cpus[POPULATE_MAX_HELPERS]; /* idle CPUs of cpu's node that first-touch beside it */
    size_t ntouch_cpus;
    uint64_t sizes[MAX_POINTS];
    size_t nsizes;
    size_t skipped;      /* points that could not be allocated */
    uint64_t budget;     /* what may be allocated (session_memory_budget) */
    curve_point points[MAX_POINTS]; /* one per size */
    team *team;          /* the one chasing thread */
    double start;        /* clock_now() when the rounds began */
    size_t next_emit;    /* records go out in size order: the first point not emitted */
    const char *size_basis; /* records' "size_basis": the last level's source, or "user" */
    bool max_may_fit;    /* the largest size (the DRAM point) may still fit a cache */
    /* the rounds' pace (pace_visit) */
    double sample_s;       /* the samples' length now: the plan's, or shortened to keep the budget */
    uint64_t kept_bytes;   /* the chains kept between rounds, all unmapped at the end */
    int pace_round;        /* the last visit's round (0: none yet) */
    double cycle_began;    /* clock_now() as the last visit began */
    double cycle_once_s, cycle_chased_s; /* the points' chase_point_times then */
    size_t cycle_point;    /* the last visit's point */
    round_pace_cost pace[MAX_POINTS]; /* each point's last visit, as the pace sees it */
    double round_began, round_first_s, round_min_s, round_max_s; /* this round's lengths */
} latency_state;


/* --time-budget: none with --target-ci, whose --max-time bounds the rounds. */
static double latency_time_budget(const latency_options *o)
{
    return o->target_ci_pct > 0 ? 0 : o->time_budget_s;
}

/* --pages, through the one page policy (refuses what this machine cannot give). */
static int choose_pages(session *s, latency_state *st, const latency_options *o)
{
    page_policy_request pr = {(page_choice)o->common.pages, "--pages", o->max_bytes, 1, NULL};
    page_plan plan;
    char err[256];
    if (!page_policy_choose(&s->topo, &pr, &plan, err, sizeof err))
        return session_bad_input(s, "%s", err);
    st->pages = plan.request;
    st->huge_size = plan.huge_size;
    st->page_bytes = plan.chase_page_bytes;
    st->pages_name = plan.name;
    return 0;
}

static uint64_t round_size(const latency_state *st, const latency_options *o, double v)
{
    uint64_t unit = 4096;
    if (st->layout.node_bytes > unit)
        unit = st->layout.node_bytes;
    if (o->order == CHASE_PAGE_LOCAL && v >= (double)st->page_bytes)
        unit = st->page_bytes;
    if (o->order == CHASE_TLB_LOCAL && v >= (double)st->layout.page_bytes)
        unit = st->layout.page_bytes;
    uint64_t r = (uint64_t)llround(v / (double)unit) * unit;
    if (st->layout.node_bytes > 0 && r % st->layout.node_bytes)
        r -= r % st->layout.node_bytes;
    return r < unit ? unit : r;
}

/* Past the largest cache the curve is DRAM's plateau, and its chains are most of the
 * curve's bytes, each first touched and linked (4 x a 480 MiB L3: nine sizes from 512
 * MiB to 1920 MiB, 11 of the 14.7 GiB the default curve made, issue 45); there the
 * default takes half the points an octave, counted down from the largest size. */
static int tail_points_per_octave(const latency_options *o)
{
    if (o->points_per_octave_given)
        return o->points_per_octave;
    return o->points_per_octave / 2 > 0 ? o->points_per_octave / 2 : 1;
}

static void add_size(latency_state *st, uint64_t r)
{
    if (st->nsizes < MAX_POINTS && (st->nsizes == 0 || r > st->sizes[st->nsizes - 1]))
        st->sizes[st->nsizes++] = r;
}

/* llc: the largest cache a thread sees (0: none known), where the tail begins. */
static void plan_sizes(latency_state *st, const latency_options *o, uint64_t llc)
{
    int tail = tail_points_per_octave(o);
    double max = (double)o->max_bytes, tail_from = tail == o->points_per_octave || llc == 0 ? max : (double)llc;
    /* the tail: max / 2^(j / tail) for j = 1, 2, ... while past tail_from, ascending */
    double below[MAX_POINTS];
    int ntail = 0;
    for (int j = 1; ntail < MAX_POINTS; j++) {
        double v = max / pow(2.0, (double)j / tail);
        if (v <= tail_from * 1.0001 || v < (double)o->min_bytes)
            break;
        below[ntail++] = v;
    }
    double grid_to = ntail ? tail_from : max;
    st->nsizes = 0;
    for (int k = 0; st->nsizes < MAX_POINTS; k++) {
        double v = (double)o->min_bytes * pow(2.0, (double)k / o->points_per_octave);
        if (k > 0 && v > grid_to * 1.0001) /* --min itself always (a --min past the cache) */
            break;
        add_size(st, round_size(st, o, v));
    }
    while (ntail > 0)
        add_size(st, round_size(st, o, below[--ntail]));
    add_size(st, round_size(st, o, max));
}

/* CPU, memory node, the largest size the budget allows. */
static int choose_where(session *s, latency_state *st, latency_options *o)
{
    st->cpu = o->cpu >= 0 ? o->cpu : s->topo.usable.ids[0];
    const cpu_info *ci = topology_cpu(&s->topo, st->cpu);
    if (!ci || !ci->usable)
        return session_bad_input(s, "--cpu %d: not available to this process", st->cpu);
    st->node = topology_memory_node(&s->topo, ci->node);
    /* the other CPUs of its node first-touch each chain's pages beside it: a fresh VM
     * page costs the host's fault too, most of a curve past a large LLC (issue 45) */
    st->ntouch_cpus = 0;
    for (size_t i = 0; i < s->topo.usable.count && st->ntouch_cpus < POPULATE_MAX_HELPERS; i++) {
        const cpu_info *other = topology_cpu(&s->topo, s->topo.usable.ids[i]);
        if (other && other->id != st->cpu && other->node == ci->node)
            st->touch_cpus[st->ntouch_cpus++] = other->id;
    }
    if (o->mem_node >= 0) {
        const numa_node *n = topology_node(&s->topo, o->mem_node);
        if (!n || n->mem_total == 0)
            return session_bad_input(s, "--mem-node %d: %s", o->mem_node,
                                     n ? "that NUMA node has no memory" : "no such NUMA node here");
        st->node = o->mem_node;
    }
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    st->budget = budget;
    bool given = o->max_bytes != 0, capped = false;
    /* One thread chases on st->cpu: the rule for that CPU (plan/dram_size.h). */
    dram_basis b = dram_basis_for(&s->topo, &st->cpu, 1);
    st->size_basis = given ? "user" : dram_basis_key(&b);
    if (o->max_bytes == 0) {
        o->max_bytes = dram_rule_bytes(&b);
        o->max_bytes += (4096 - o->max_bytes % 4096) % 4096;
        if (o->max_bytes > budget) {
            o->max_bytes = budget - budget % 4096;
            capped = true;
        }
        if (o->max_bytes < o->min_bytes)
            o->max_bytes = o->min_bytes;
    } else if (o->max_bytes > budget) {
        return session_bad_input(s,
                                 "--max %llu MiB: more than can be allocated safely (%llu MiB: MemAvailable and cgroup "
                                 "limit, less a margin)",
                                 (unsigned long long)(o->max_bytes >> 20), (unsigned long long)(budget >> 20));
    }
    st->max_may_fit = session_dram_sized(s, &b, DRAM_FIGURE_LATENCY, "the largest chased buffer", o->max_bytes, given, capped, false);
    return 0;
}

static latency_request request_for(const latency_state *st, const latency_options *o, uint64_t bytes)
{
    bool strict = o->mem_node >= 0 && o->mem_policy == MEM_POLICY_BIND;
    latency_request rq = {bytes,     st->layout, o->sample_ms / 1000.0, MIN_SAMPLES, MAX_SAMPLES,
                          CV_TARGET, st->pages,  st->huge_size,         st->node,    strict,
                          NULL,      false,      NULL,                  false,       NULL, 0};
    if ((o->order == CHASE_PAGE_LOCAL || o->order == CHASE_TLB_LOCAL) && bytes < rq.layout.page_bytes)
        rq.layout.page_bytes = bytes; /* smaller than a page or group: random within it */
    rq.with_random = bytes == st->sizes[st->nsizes - 1]; /* the DRAM point: its full random figure beside */
    rq.touch_cpus = st->touch_cpus;
    rq.ntouch_cpus = st->ntouch_cpus;
    return rq;
}

/* The curve's time by the plan's model (plan/sweep_estimate.h): per round every
 * size a warm-up chase and its samples (the DRAM point's full random chase as
 * many), chains linked once when kept, else at every visit. */
static sweep_estimate curve_estimate(const latency_state *st, const latency_options *o, int per, double sample_s,
                                     int line_size)
{
    estimate_point pts[MAX_POINTS]; /* 24 KiB */
    for (size_t i = 0; i < st->nsizes; i++) {
        latency_request rq = request_for(st, o, st->sizes[i]);
        pts[i] = (estimate_point){.bytes = st->sizes[i], .keep = st->points[i].keep,
                                  .random = latency_request_chases_random(&rq)};
    }
    estimate_request rq = {.points = pts, .n = st->nsizes, .threads = 1, .packages = 1, .rounds = o->rounds,
                           .touch_threads = 1 + (int)st->ntouch_cpus,
                           .latency_rounds = o->rounds, .latency_per_visit = per, .latency_sample_s = sample_s,
                           .line_size = line_size};
    sweep_estimate e;
    sweep_estimate_time(&rq, &e);
    return e;
}

static double curve_estimate_s(const latency_state *st, const latency_options *o, int per, double sample_s,
                               int line_size)
{
    return curve_estimate(st, o, per, sample_s, line_size).total_s;
}

/* The model's total and its parts (--plan prints them; first touch and linking are
 * most of a curve past a large cache). */
static void note_estimate(param_list *p, const sweep_estimate *e)
{
    params_number(p, "estimate_s", e->total_s);
    params_number(p, "estimate_samples_s", e->samples_s);
    params_number(p, "estimate_warmup_s", e->warmup_s);
    params_number(p, "estimate_touch_s", e->touch_s);
    params_number(p, "estimate_chains_s", e->chains_s);
    params_number(p, "estimate_other_s", e->other_s);
}

/* The default sample shortened so the --rounds end within the time budget (a
 * curve of 60 sizes to 2x a 300 MiB L3 took 26-30 s with 20 ms samples, issue
 * 34): the longest that the model says fits (it grows with the sample), no shorter
 * than LATENCY_MIN_SAMPLE_MS; a --sample-ms given is kept. */
static void fit_sample_to_budget(session *s, latency_state *st, latency_options *o, int per, int line_size)
{
    double budget = latency_time_budget(o), asked = o->sample_ms;
    sweep_estimate whole = curve_estimate(st, o, per, asked / 1000, line_size);
    double at = whole.total_s;
    param_list *p = &s->info.plan.values;
    if (o->sample_ms_given || budget <= 0 || at <= budget || o->rounds == 1) {
        note_estimate(p, &whole);
        return;
    }
    double lo = LATENCY_MIN_SAMPLE_MS, hi = asked; /* est(lo) may pass the budget too: then lo */
    for (int i = 0; i < 30; i++) {
        double mid = (lo + hi) / 2;
        if (curve_estimate_s(st, o, per, mid / 1000, line_size) <= budget)
            lo = mid;
        else
            hi = mid;
    }
    o->sample_ms = lo;
    sweep_estimate fitted = curve_estimate(st, o, per, lo / 1000, line_size);
    note_estimate(p, &fitted);
    params_number(p, "sample_ms_default", asked);
    params_textf(p, "sample_fit", "samples of %.1f ms, not %g: %zu sizes in %d rounds with %g ms samples would "
                                  "take about %.0f s, past the %g s time budget (--sample-ms or --time-budget to choose)",
                 lo, asked, st->nsizes, o->rounds, asked, at, budget);
}

static int latency_plan(session *s)
{
    latency_state *st = s->state;
    latency_options *o = s->opts;
    int rc = choose_where(s, st, o);
    if (rc == 0)
        rc = choose_pages(s, st, o);
    if (rc)
        return rc;
    cache_level l1 = topology_cache_level(&s->topo, 1);
    st->layout.order = o->order;
    st->layout.node_bytes = o->order == CHASE_STRIDED ? o->stride : (size_t)l1.line_size;
    st->layout.page_bytes = st->page_bytes;
    st->layout.seed = o->seed;
    if (o->order == CHASE_TLB_LOCAL) {
        st->layout.page_bytes = CHASE_TLB_GROUP_BYTES;
        st->layout.spread = CHASE_TLB_SPREAD;
    }
    /* the last level, one instance: what this one thread sees */
    uint64_t llc = topology_cache_level(&s->topo, topology_last_level(&s->topo)).size;
    plan_sizes(st, o, llc);
    params_int(&s->info.plan.values, "points_per_octave", o->points_per_octave);
    params_int(&s->info.plan.values, "points_per_octave_past_llc", tail_points_per_octave(o));
    params_int(&s->info.plan.values, "llc_bytes", (long long)llc);

    static const char *const orders[] = {"random", "page-local random", "strided", "TLB-local random"};
    const char *policy = o->mem_node < 0 ? "the CPU's own (first touch)"
                         : o->mem_policy == MEM_POLICY_BIND ? "bind"
                                                            : "preferred";
    int cpu_node = topology_cpu(&s->topo, st->cpu)->node;
    snprintf(s->info.placement.policy, sizeof s->info.placement.policy, "one chasing thread on %s",
             o->cpu >= 0 ? "the CPU of --cpu" : "the first usable CPU");
    s->info.placement.pinned = true;
    run_thread *th = run_info_set_threads(&s->info, 1);
    if (th) {
        th->cpus = cpu_list_format_alloc(&st->cpu, 1);
        th->node = cpu_node;
        th->mem_node = st->node;
    }
    param_list *p = &s->info.plan.values;
    char order[160];
    params_textf(p, "method", "%s, %zu-byte nodes, seed %llu, 1 thread on CPU %d (node %d), memory on node %d "
                              "(%s), pages %s",
                 chase_order_describe(&st->layout, order, sizeof order), st->layout.node_bytes, (unsigned long long)o->seed, st->cpu, cpu_node, st->node,
                 policy, st->pages_name);
    params_text(p, "order", orders[o->order]);
    params_int(p, "node_bytes", (long long)st->layout.node_bytes);
    params_int(p, "cpu", st->cpu);
    params_int(p, "memory_node", st->node);
    /* the CPUs that first-touch and link each chain beside it (its node's, up to 7) */
    char *touch = cpu_list_format_alloc(st->touch_cpus, st->ntouch_cpus);
    params_text(p, "touch_helper_cpus", touch ? touch : "");
    free(touch);
    params_text(p, "memory_policy", policy);
    params_int(p, "max_bytes", (long long)o->max_bytes);
    params_text(p, "counter", ref_counter_name());
    double hz = ref_counter_hz();
    if (hz > 0)
        params_number(p, "counter_hz", hz);
    else
        params_null(p, "counter_hz");
    /* Linking a chain costs more than chasing it, and the more the larger it is (a
     * 1 GiB point linked its chain again in every round: 27-53 s where multichase
     * took 9-11, issue 34): chains are kept between rounds, largest first (the DRAM
     * point's random chain with it), while the kept ones and the largest chain linked
     * again at its visits fit in the memory budget, the mode's only memory; the others
     * are linked again, with the same seed and so the same layout, at each visit.
     * (Half the budget, the rule before, left a 480 MiB L3's curve relinking every size
     * from 256 to 760 MiB in every round: 6.6 s of a 35-46 s run, issue 45.) */
    uint64_t kept = 0, relinked = 0, limit = st->budget;
    int per = round_samples_per_visit(MIN_SAMPLES, o->rounds);
    for (size_t i = st->nsizes; i-- > 0;) {
        curve_point *pt = &st->points[i];
        pt->bytes = st->sizes[i];
        uint64_t chains = pt->bytes * (i + 1 == st->nsizes ? 2 : 1);
        /* the largest chain that may still be linked again: this one's successor, or
         * one already left out (sizes fall from here) */
        uint64_t next = i > 0 ? st->sizes[i - 1] : 0, reserve = relinked > next ? relinked : next;
        pt->keep = o->rounds > 1 && kept + chains + reserve <= limit;
        kept += pt->keep ? chains : 0;
        if (!pt->keep && chains > relinked)
            relinked = chains;
    }
    fit_sample_to_budget(s, st, o, per, l1.line_size); /* none with --target-ci: no budget */
    st->sample_s = o->sample_ms / 1000;
    st->kept_bytes = kept;
    param_table *sizes = section_table(&s->info.plan, "sizes");
    for (size_t i = 0; i < st->nsizes; i++) {
        curve_point *pt = &st->points[i];
        pt->sched.needed = o->rounds * per;
        pt->sched.cap = o->target_ci_pct > 0 ? 0 : MAX_SAMPLES;
        pt->sched.half_width = -1;
        param_list *row = table_add_row(sizes);
        params_int(row, "size_bytes", (long long)st->sizes[i]);
        params_bool(row, "chain_kept", pt->keep);
    }
    params_int(p, "planned_rounds", o->rounds);
    if (latency_time_budget(o) > 0)
        params_number(p, "time_budget_s", latency_time_budget(o));
    if (o->rounds == 1)
        params_textf(p, "timing", "%g ms per sample, 1 round: each size's samples back to back, %d to %d until CV < "
                                  "%.0f%%%s",
                     o->sample_ms, MIN_SAMPLES, MAX_SAMPLES, CV_TARGET * 100,
                     o->target_ci_pct > 0 ? ", then more rounds until --target-ci or --max-time" : "");
    else
        params_textf(p, "timing", "%g ms per sample, %d per visit, in %d rounds (each round visits every size once, "
                                  "in plan order), then more rounds of %d for sizes whose CV is not below %.0f%% "
                                  "(at most %d samples)%s; chains kept between rounds: %llu MiB in all, within the %llu MiB "
                                  "memory budget beside the largest chain linked again at its visits",
                     o->sample_ms, per, o->rounds, per, CV_TARGET * 100, MAX_SAMPLES,
                     o->target_ci_pct > 0 ? " and for --target-ci until --max-time" : "",
                     (unsigned long long)(kept >> 20), (unsigned long long)(limit >> 20));
    return 0;
}

static void latency_open_sinks(session *s)
{
    const latency_options *o = s->opts;
    session_add_sink(s, latency_sink_create(s->env.out, s->env.err, o->csv));
}

/* The point's record from its samples so far; false when it has none. */
static bool point_record(session *s, const latency_state *st, const curve_point *p, result_record *r)
{
    const latency_options *o = s->opts;
    result_init(r, "latency", "latency", METRIC_LATENCY);
    if (!p->lat || !chase_point_fill(p->lat, st->team, r) || !chase_point_fill_rounds(p->lat, st->start, r) ||
        r->nsamples == 0) {
        result_free(r);
        return false;
    }
    int cpu_node = topology_cpu(&s->topo, st->cpu)->node;
    result_set_placement(r, &(result_thread){st->cpu, cpu_node, st->node}, 1);
    r->size_basis = st->size_basis;
    r->dram_intent = p->bytes == st->sizes[st->nsizes - 1]; /* the curve's DRAM point (--max, rounded) */
    r->may_fit_cache = r->dram_intent && st->max_may_fit;
    r->samples_wanted = p->sched.needed;
    r->complete = r->complete && r->nsamples >= p->sched.needed;
    params_int(&r->params, "rounds", p->visits);
    session_record_host_load(r, &p->load);
    if (o->target_ci_pct > 0) {
        params_number(&r->params, "target_ci_pct", o->target_ci_pct);
        params_bool(&r->params, "target_ci_met", round_point_within(&p->sched, o->target_ci_pct / 100));
    }
    return true;
}

/* Samples this visit takes: with one round, all of them back to back until the
 * CV rule is met (0); else the minimum spread over the rounds, and as many in
 * each later round (never past the CV rule's cap, sched.cap, unless --target-ci
 * asks: then there is none). */
static int samples_this_visit(const latency_options *o, const curve_point *p, int round)
{
    if (o->rounds == 1 && round == 1)
        return 0;
    return round_visit_samples(round_samples_per_visit(MIN_SAMPLES, o->rounds), chase_point_samples(p->lat),
                               p->sched.cap);
}

static const round_point *curve_schedule(void *ctx, size_t i)
{
    return &((latency_state *)ctx)->points[i].sched;
}

static host_load_span *curve_point_load(void *ctx, size_t i)
{
    return &((latency_state *)ctx)->points[i].load;
}

/* What the pace leaves for the run past the rounds: the analysis, the last document
 * and exit (wall time 0.15-0.2 s past elapsed_s on the Xeon guest) and the rounds'
 * own overshoot (their last visits ended 0.15-0.25 s past the aim there), and
 * unmapping the kept chains (8 GB/s there: 440 MiB in 53 ms). */
#define PACE_END_S 0.4
#define PACE_UNMAP_BYTES_S 8e9
#define PACE_STEP 0.02 /* a length within 2% of the one in use is left as it is */

/* What the budget leaves for the run's end past the last visit. */
static double run_end_s(const latency_state *st)
{
    return PACE_END_S + (double)st->kept_bytes / PACE_UNMAP_BYTES_S;
}

static bool pacing(const latency_options *o, int round)
{
    return round > 1 && round <= o->rounds && latency_time_budget(o) > 0 && !o->sample_ms_given;
}

/* The paced round just ended, in plan.pacing. */
static void pace_round_row(session *s, const latency_state *st, double now)
{
    param_list *row = table_add_row(section_table(&s->info.plan, "pacing"));
    params_int(row, "round", st->pace_round);
    params_number(row, "began_s", st->round_began - s->start);
    params_number(row, "ended_s", now - s->start);
    params_number(row, "sample_ms_first", st->round_first_s * 1000);
    params_number(row, "sample_ms_min", st->round_min_s * 1000);
    params_number(row, "sample_ms_max", st->round_max_s * 1000);
    params_number(row, "sample_ms_last", st->sample_s * 1000);
}

/* The time budget kept at run time. The model (fit_sample_to_budget) cannot know
 * the host: the default curve ran 2.3-3.3 s past it on two 2-vCPU guests (steal,
 * the host probes, warm-ups that settle slowly, the document rewritten as the last
 * round's records go out; issue 45). So before every visit of a planned round from
 * the second, the samples are set again from each point's last visit: its time,
 * from its start to the next visit's, less its first linking and calibration, is a
 * part in chases (warm-up and samples), which scales with the sample's length, and
 * a rest taken as fixed. The length is the longest, no longer than the plan's nor
 * shorter than LATENCY_MIN_SAMPLE_MS, with which the visits left end within the
 * budget less the run's end (round_pace_length, PACE_END_S). A --sample-ms given, --target-ci
 * (no budget) and one round keep the plan's. JSON plan.pacing has each paced
 * round's lengths. */
static void pace_visit(session *s, latency_state *st, const latency_options *o, size_t i, int round)
{
    double now = clock_now(), once = 0, chased = 0;
    for (size_t k = 0; k < st->nsizes; k++)
        chase_point_times(st->points[k].lat, &once, &chased);
    if (st->pace_round > 0) { /* the last visit and what followed it until now */
        round_pace_cost *last = &st->pace[st->cycle_point];
        bool gone = last->gone;
        *last = round_pace_cost_of(now - st->cycle_began, chased - st->cycle_chased_s, once - st->cycle_once_s,
                                   st->sample_s);
        last->gone = gone;
    }
    if (round != st->pace_round) {
        if (pacing(o, st->pace_round))
            pace_round_row(s, st, now);
        st->round_began = now;
        st->round_first_s = 0;
    }
    if (pacing(o, round)) {
        double fixed, units; /* the visits left: the rest of this round's, then the planned rounds' after it */
        round_pace_left(st->pace, st->nsizes, i, o->rounds - round, &fixed, &units);
        double left = latency_time_budget(o) - run_end_s(st) - (now - s->start);
        double len = round_pace_length(left, fixed, units, LATENCY_MIN_SAMPLE_MS / 1000, o->sample_ms / 1000);
        if (fabs(len - st->sample_s) > PACE_STEP * st->sample_s) {
            for (size_t k = 0; k < st->nsizes; k++)
                if (!st->pace[k].gone) /* a done point's record says the length of its last samples */
                    chase_point_pace(st->points[k].lat, len);
            st->sample_s = len;
        }
        if (st->round_first_s == 0)
            st->round_first_s = st->round_min_s = st->round_max_s = st->sample_s;
        st->round_min_s = st->sample_s < st->round_min_s ? st->sample_s : st->round_min_s;
        st->round_max_s = st->sample_s > st->round_max_s ? st->sample_s : st->round_max_s;
    }
    st->pace_round = round;
    st->cycle_point = i;
    st->cycle_began = now;
    st->cycle_chased_s = chased;
    st->cycle_once_s = once;
}

static bool curve_visit(session *s, void *ctx, size_t i, int round)
{
    latency_state *st = ctx;
    const latency_options *o = s->opts;
    curve_point *p = &st->points[i];
    pace_visit(s, st, o, i, round);
    if (!p->lat) {
        latency_request rq = request_for(st, o, p->bytes);
        p->lat = chase_point_create(&rq);
        if (!p->lat) {
            p->finished = p->sched.finished = st->pace[i].gone = true;
            return session_error(s, "out of memory"), false;
        }
        if (st->sample_s != rq.sample_s)
            chase_point_pace(p->lat, st->sample_s);
    }
    measure_status ms = chase_point_visit(p->lat, st->team, samples_this_visit(o, p, round), round, p->keep);
    p->visits++;
    if (ms == MEASURE_NO_MEMORY) {
        bool strict = o->mem_node >= 0 && o->mem_policy == MEM_POLICY_BIND;
        int had = chase_point_samples(p->lat);
        if (had == 0) {
            st->skipped++;
            session_warn(s, WARN_NOT_MEASURED, "%llu KiB: could not allocate%s; skipped", (unsigned long long)(p->bytes >> 10),
                         strict ? " on the bound node" : "");
        } else {
            session_warn(s, WARN_NOT_MEASURED, "%llu KiB: could not allocate again in round %d%s; reported with the %d samples it had",
                         (unsigned long long)(p->bytes >> 10), round, strict ? " on the bound node" : "", had);
        }
        p->finished = st->pace[i].gone = true;
    }
    /* the scheduler's view of the point, from its samples */
    round_point *rp = &p->sched;
    rp->finished = p->finished || p->done;
    rp->more = chase_point_wants_more(p->lat);
    round_point_take_samples(rp, 0, NULL);
    result_record r;
    if (point_record(s, st, p, &r)) {
        round_point_take_samples(rp, r.nsamples, &r.summary);
        result_free(&r);
    }
    return ms != MEASURE_STOPPED;
}

/* A point is done: the records of every done point from the first not yet out go
 * out, so the curve streams out in size order however the rounds ended. */
static void curve_finish(session *s, void *ctx, size_t i)
{
    latency_state *st = ctx;
    st->points[i].done = st->points[i].sched.finished = st->pace[i].gone = true;
    while (st->next_emit < st->nsizes && st->points[st->next_emit].done) {
        result_record r;
        if (point_record(s, st, &st->points[st->next_emit], &r)) {
            session_emit(s, &r);
            result_free(&r);
        }
        st->next_emit++;
    }
}

static void curve_point_name(void *ctx, size_t i, char *buf, size_t len)
{
    snprintf(buf, len, "%llu KiB", (unsigned long long)(((latency_state *)ctx)->points[i].bytes >> 10));
}

/* Every size once per round, in plan order (modes/round_loop); a size's record
 * goes out when it wants no more samples, or with what it has when the run stops;
 * the rounds past --rounds that only the CV rule wants run within the time budget
 * (a curve of 60 sizes on a noisy guest took 30 s with them, issue 34). */
static void latency_run(session *s)
{
    latency_state *st = s->state;
    const latency_options *o = s->opts;
    team_place tp = {{&st->cpu, 1}};
    st->team = session_start_team(s, &tp, 1);
    if (!st->team)
        return; /* said */
    /* a size's CV rule may take it to MAX_SAMPLES, per a visit; --target-ci: no bound */
    int per = round_samples_per_visit(MIN_SAMPLES, o->rounds), visits = (MAX_SAMPLES + per - 1) / per;
    round_loop l = {st, st->nsizes, o->target_ci_pct / 100, o->max_time_s, o->rounds,
                    o->target_ci_pct > 0 ? 0 : visits > o->rounds ? visits : o->rounds,
                    curve_schedule, curve_visit, curve_finish, curve_point_name, curve_point_load};
    st->start = clock_now();
    /* The budget counts from the run's start, as JSON elapsed_s does: the time
     * before the rounds (the host probe, the team) is in it too (the default curve
     * ended 0.3 s past 15 s with the budget counted from the first round, issue 34).
     * The rounds only the CV rule wants leave the run's end its time, as the pace
     * does: at a 1920 MiB DRAM point they ran into it and the curve ended 15.3-15.7 s
     * after it began. */
    double budget = latency_time_budget(o), before = st->start - s->start + run_end_s(st);
    if (budget > 0)
        budget = budget > before ? budget - before : 1e-9;
    round_loop_result res = round_loop_run_budget(s, &l, st->start, budget);
    if (pacing(o, st->pace_round))
        pace_round_row(s, st, clock_now());
    if (!res.stopped) {
        char asked[32];
        snprintf(asked, sizeof asked, "--rounds %d", o->rounds);
        round_loop_report(s, &l, &res, asked, o->target_ci_pct);
    }
    if (s->results.n == 0 && st->skipped > 0)
        session_error(s, "no buffer size could be allocated: nothing was measured");
}

static void latency_release(session *s)
{
    latency_state *st = s->state;
    for (size_t i = 0; i < st->nsizes; i++)
        chase_point_destroy(st->points[i].lat);
    team_destroy(st->team);
}

/* Reported levels 1..top (at most MAX_CHECKED_LEVELS) against the measured steps;
 * measure/cache_levels decides. */
static size_t check_levels(const topology *t, const uint64_t *sizes, size_t nsizes, const latency_step *steps,
                           size_t nsteps, level_check *checks)
{
    int top = topology_max_cache_level(t);
    if (top < 1)
        top = 3; /* nothing reported: compare with the defaults */
    reported_cache_level levels[MAX_CHECKED_LEVELS];
    size_t nlevels = 0;
    for (int level = 1; level <= top && level <= MAX_CHECKED_LEVELS; level++)
        levels[nlevels++] = (reported_cache_level){level, topology_cache_level(t, level).size};
    return check_cache_levels(sizes, nsizes, steps, nsteps, levels, nlevels, checks);
}

static void latency_analyse(session *s)
{
    const latency_options *o = s->opts;
    size_t n = s->results.n, used = 0;
    uint64_t *sizes = calloc(n ? n : 1, sizeof *sizes), *all_sizes = calloc(n ? n : 1, sizeof *all_sizes);
    latency_point *pts = calloc(n ? n : 1, sizeof *pts);
    if (!sizes || !pts || !all_sizes) {
        free(sizes);
        free(all_sizes);
        free(pts);
        return;
    }
    uint64_t huge = topology_huge_page_size(&s->topo);
    bool huge_asked = false, unverified = false;
    const result_record *short_of_huge = NULL;
    for (size_t i = 0; i < n; i++) {
        const result_record *r = &s->results.items[i];
        all_sizes[i] = r->size_bytes;
        /* Cache sizes are read only off points that reached their CV target: a
         * point the host disturbed can fake a step or hide one. */
        if (r->converged) {
            const sample_stats *st = &r->summary;
            bool interval = st->median_level > 0;
            sizes[used] = r->size_bytes;
            pts[used++] = (latency_point){r->size_bytes, result_value(r), interval ? st->median_low : st->median,
                                          interval ? st->median_high : st->median};
        }
        if (!page_choice_wants_huge((page_choice)o->common.pages, r->size_bytes, huge))
            continue;
        huge_asked = true;
        if (r->huge_coverage < 0) {
            session_check_huge_pages(s, r, "latency"); /* says once: not verified */
            unverified = true;
        }
        else if (!short_of_huge && r->huge_coverage < HUGE_COVERAGE_WARN)
            short_of_huge = r;
    }
    latency_step steps[MAX_LATENCY_STEPS];
    size_t nsteps = find_latency_steps(pts, used, steps);
    level_check checks[MAX_CHECKED_LEVELS];
    size_t nchecks = check_levels(&s->topo, sizes, used, steps, nsteps, checks);

    param_section *a = &s->info.analysis;
    params_int(&a->values, "points_converged", (long long)used);
    params_int(&a->values, "points_not_converged", (long long)(n - used));
    param_table *st = section_table(a, "steps");
    for (size_t i = 0; i < nsteps; i++) {
        param_list *row = table_add_row(st);
        params_int(row, "last_size_before_bytes", (long long)steps[i].last_size_before);
        params_int(row, "first_size_above_bytes", (long long)steps[i].first_size_above);
        params_int(row, "first_size_after_bytes", (long long)steps[i].first_size_after);
        params_number(row, "latency_before_ns", steps[i].latency_before_ns);
        params_number(row, "latency_after_ns", steps[i].latency_after_ns);
    }
    param_table *ct = section_table(a, "cache_checks");
    for (size_t i = 0; i < nchecks; i++) {
        param_list *row = table_add_row(ct);
        params_int(row, "level", checks[i].level);
        params_int(row, "reported_bytes", (long long)checks[i].reported);
        if (checks[i].step) {
            params_int(row, "measured_bytes", (long long)checks[i].step->last_size_before);
            params_int(row, "measured_below_bytes", (long long)checks[i].step->first_size_above);
            params_number(row, "measured_latency_ns", checks[i].step->latency_after_ns);
        } else {
            params_null(row, "measured_bytes");
            params_null(row, "measured_below_bytes");
            params_null(row, "measured_latency_ns");
        }
        params_text(row, "judged_by", i + 1 == nchecks ? "step into DRAM" : "nearest step");
        params_bool(row, "checkable", checks[i].checkable);
        /* why not: the curve is too short, or its points around the level did not converge */
        if (!checks[i].checkable)
            params_text(row, "not_checked", curve_around(all_sizes, n, checks[i].reported) ? "points_not_converged"
                                                                                            : "curve_short");
        params_bool(row, "disagrees", checks[i].disagrees);
    }
    params_number(&a->values, "disagree_factor", CACHE_LEVEL_FACTOR);
    params_number(&a->values, "step_rise_pct", (STEP_RISE - 1) * 100); /* what "none found" means */
    params_bool(&a->values, "huge_pages", huge_asked && !short_of_huge && !unverified);
    /* TLB misses add steps of their own only to a chase that walks pages: not to the
     * TLB-local order (256 KiB groups) nor the strided one */
    params_bool(&a->values, "page_walk_steps", (o->order == CHASE_RANDOM || o->order == CHASE_PAGE_LOCAL) &&
                                                   !(huge_asked && !short_of_huge && !unverified));
    if (short_of_huge)
        session_warn(s, WARN_PAGES, "--pages %s: only %.0f%% of the %llu KiB buffer was in huge pages",
                     ((const latency_state *)s->state)->pages_name, short_of_huge->huge_coverage * 100,
                     (unsigned long long)(short_of_huge->size_bytes >> 10));
    free(sizes);
    free(all_sizes);
    free(pts);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def latency_mode = {
    .name = "latency",
    .summary = "latency curve of dependent loads and the cache sizes it implies",
    .options = &latency_option_table,
    .options_size = sizeof(latency_options),
    .defaults = latency_options_defaults,
    .check = latency_options_check,
    .state_size = sizeof(latency_state),
    .plan = latency_plan,
    .open_sinks = latency_open_sinks,
    .run = latency_run,
    .analyse = latency_analyse,
    .release = latency_release,
    .flags = MODE_DRAM_SIZES,
};
