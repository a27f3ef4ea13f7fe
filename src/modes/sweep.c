/* SPDX-License-Identifier: MIT */
/* The sweep (membench with no subcommand): sc-membench's measurement, done with
 * explicit kernels, pinned threads and calibrated samples. Plan: kernels per
 * operation, placement, thread counts (-a) and per-thread sizes from the caches;
 * run: every size x operation, the best thread count per point. */
#include "modes/sweep.h"

#include <stdlib.h>
#include <string.h>

#include "cli/sweep_options.h"
#include "kernels/kernel.h"
#include "memory/page_policy.h"
#include "measure/bandwidth.h"
#include "measure/clock.h"
#include "measure/latency.h"
#include "output/csv_sink.h"
#include "output/table_sink.h"
#include "plan/placement.h"
#include "modes/dram_sizing.h"
#include "modes/round_loop.h"
#include "plan/round_schedule.h"
#include "plan/sweep_estimate.h"
#include "plan/sweep_plan.h"
#include "modes/plan_cost.h"
#include "util/format_bytes.h"

#define LATENCY_MAX_BYTES (2ULL << 30) /* as sc-membench: enough to pass any L3 */
#define LATENCY_MIN_SAMPLES 7
#define LATENCY_MAX_SAMPLES 21
#define LATENCY_CV_TARGET 0.05
#define MAX_THREAD_COUNTS 32

/* One size x operation across the rounds. */
typedef struct {
    uint64_t bytes;
    const size_point *size; /* its entry in the plan: why this size, from which source */
    mb_op op;
    int ci;          /* thread count chosen in round 1 (index into counts) */
    bw_point *bw;    /* bandwidth: buffers, passes, samples */
    chase_point *lat; /* latency: chain, steps, samples */
    round_point sched;
    host_load_span load; /* the host over this point's visits */
    int visits;
    bool keep;       /* buffers kept between rounds */
    bool pooled;     /* bandwidth buffers lent by the sweep's pool (st->pool) */
    buffer home;     /* latency: a pool source's part, its chain linked once there (home_chains) */
    bool finished;   /* skipped (no memory) or nothing measured: no more visits */
    bool failed;     /* wrong data: never reported */
    bool done;       /* wants no more visits; its record goes out in plan order */
    bool emitted;
} sweep_point;

typedef struct {
    placement place;
    size_plan plan;
    const kernel *kernels[OP_COUNT];     /* for buffers within the last-level cache share */
    const kernel *kernels_ram[OP_COUNT]; /* for buffers beyond it */
    page_plan pages;                     /* -H / --pages, decided once (memory/page_policy) */
    int counts[MAX_THREAD_COUNTS];       /* thread counts to try (-a), else just one */
    int ncounts;
    team *teams[MAX_THREAD_COUNTS];
    team *latency_team;
    bw_pool_request pool_rq; /* the pool the pooled points need (make_points) */
    int pool_nodes[MAX_THREADS];
    bw_pool *pool;       /* allocated at the first pooled visit */
    bool pool_failed;    /* no memory for it: pooled points allocate their own */
    buffer chain_memory; /* the pool's memory lent to latency chains (visit_latency) */
    sweep_point *points; /* every size x operation, in plan order */
    size_t npoints;
    size_t next_emit; /* the first point whose record is not out yet */
    int rounds;          /* rounds run */
    uint64_t budget;     /* what may be allocated (session_memory_budget) */
    size_t above_max;    /* planned sizes --max-size left out */
    uint64_t dram_chain_min; /* a DRAM point's chain: twice the chaser's last level (chain_bytes) */
    double start;        /* clock_now() when the rounds began */
} sweep_state;

static int buffers_needed(unsigned ops_mask)
{
    int most = 1;
    for (int op = 0; op < OP_COUNT; op++)
        if ((ops_mask & OP_MASK(op)) && op != OP_LATENCY && op_buffers((mb_op)op) > most)
            most = op_buffers((mb_op)op);
    return most;
}

static int choose_kernels(session *s, sweep_state *st, const sweep_options *o)
{
    for (int op = 0; op < OP_COUNT; op++) {
        if (!(o->ops_mask & OP_MASK(op)) || op == OP_LATENCY)
            continue;
        const char *isa = op == OP_MEMCPY ? NULL : o->common.kernel_isa;
        st->kernels[op] = kernel_choose(KERNEL_SWEEP, op, STORE_ANY, isa, false);
        st->kernels_ram[op] = kernel_choose(KERNEL_SWEEP, op, STORE_ANY, isa, true);
        if (!st->kernels[op] || !st->kernels_ram[op])
            return session_bad_input(s, "-o %s: no %s kernel for this CPU%s%s", op_name((mb_op)op),
                                     op == OP_WRITE_NT || op == OP_COPY_NT ? "non-temporal store" : "matching",
                                     isa ? " with --kernel " : "", isa ? isa : "");
    }
    return 0;
}

/* Sizes from the caches the threads will share, or the one -s asks for. */
static int plan_sizes(session *s, sweep_state *st, const sweep_options *o, int threads)
{
    uint64_t budget;
    char bb[32], nb[32], mb[32];
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    st->budget = budget;
    /* One thread chases: its chain at a DRAM point is the rule for its CPU alone. */
    dram_basis chaser = dram_basis_for(&s->topo, &st->place.places[0].cpu, 1);
    st->dram_chain_min = dram_rule_bytes(&chaser);
    int buffers = buffers_needed(o->ops_mask);
    int size_threads = o->ops_mask == OP_MASK(OP_LATENCY) ? 1 : threads;
    int *cpus = malloc(sizeof(int) * (size_t)threads);
    if (!cpus)
        return session_bad_input(s, "out of memory");
    if (st->place.pinned)
        placement_primary_cpus(&st->place, cpus);
    else {
        /* Unpinned: plan cache shares as if the scheduler spread the threads. */
        size_t m = placement_spread_order(&s->topo, cpus, (size_t)threads);
        for (size_t i = m; i < (size_t)threads; i++)
            cpus[i] = cpus[i % (m ? m : 1)];
    }
    sweep_plan_sizes(&s->topo, cpus, threads, o->full, budget, buffers, &st->plan);
    dram_basis basis = dram_basis_for(&s->topo, cpus, (size_t)threads);
    free(cpus);
    uint64_t cap = o->max_size_kb * 1024ULL; /* at most 2^50: no overflow */
    if (cap) {
        char sb[32];
        uint64_t smallest = st->plan.n ? st->plan.points[0].bytes : 0;
        st->above_max = sweep_plan_cap(&st->plan, cap);
        if (st->plan.n == 0 && st->above_max)
            return session_bad_input(s, "--max-size %s: below the smallest size the sweep plans on this machine, %s "
                                        "(-s measures one size of your choosing)",
                                     format_bytes(cap, nb, sizeof nb), format_bytes(smallest, sb, sizeof sb));
    }
    if (o->single_size_kb) {
        uint64_t bytes = o->single_size_kb * 1024ULL;
        uint64_t need = bytes * (uint64_t)size_threads * (uint64_t)buffers;
        bool counted = bytes / 1024ULL == o->single_size_kb && need / bytes == (uint64_t)size_threads * (uint64_t)buffers;
        if (!counted || need > budget)
            return session_bad_input(s,
                                     "-s %llu: needs %s (%d thread(s) x %d buffer(s)) but only %s can be "
                                     "allocated safely (MemAvailable and cgroup limit, less a margin)",
                                     (unsigned long long)o->single_size_kb,
                                     counted ? format_bytes(need, nb, sizeof nb) : "more than 16 EiB",
                                     size_threads, buffers, format_bytes(budget, bb, sizeof bb));
        /* keep the cache shares just computed; replace the sizes by the one asked for */
        st->plan.n = 1;
        st->plan.dropped = 0;
        st->plan.max_bytes = budget / ((uint64_t)size_threads * (uint64_t)buffers);
        st->plan.points[0].bytes = bytes;
        snprintf(st->plan.points[0].reason, sizeof st->plan.points[0].reason, "-s %llu",
                 (unsigned long long)o->single_size_kb);
        st->plan.points[0].basis = "user";
        st->plan.points[0].dram = false;
    } else if (st->plan.n == 0) { /* a run that would measure nothing is no success */
        session_error(s,
                      "no size fits the memory budget: %s can be allocated safely (MemAvailable and cgroup limit, "
                      "less a margin), %s per thread for %d thread(s) x %d buffer(s), below the smallest size, %s",
                      format_bytes(budget, bb, sizeof bb), format_bytes(st->plan.max_bytes, nb, sizeof nb),
                      size_threads, buffers, format_bytes(SWEEP_MIN_BYTES, mb, sizeof mb));
        return 1;
    } else if (st->plan.dropped && !(cap && cap <= st->plan.max_bytes)) { /* else --max-size left them out */
        session_warn(s, WARN_SIZES_LEFT_OUT, "%zu size(s) left out: more than the memory budget allows (%s per thread)",
                     st->plan.dropped, format_bytes(st->plan.max_bytes, nb, sizeof nb));
    }
    if (o->full && cap && cap < SWEEP_FULL_START)
        session_warn(s, WARN_OPTION_IGNORED, "-f adds nothing: --max-size %s is below %s, where -f starts",
                     format_bytes(cap, nb, sizeof nb), format_bytes(SWEEP_FULL_START, mb, sizeof mb));
    else if (o->full && st->plan.full_points == 0)
        session_warn(s, WARN_OPTION_IGNORED,
                     "-f adds nothing: the memory budget allows %s per thread, -f starts at %s "
                     "(MemAvailable and cgroup limit, less a margin)",
                     format_bytes(st->plan.max_bytes, nb, sizeof nb), format_bytes(SWEEP_FULL_START, mb, sizeof mb));
    const size_point *last = st->plan.n ? &st->plan.points[st->plan.n - 1] : NULL;
    if (last && last->dram) {
        uint64_t total = last->bytes * (uint64_t)size_threads;
        if (size_threads == 1 && total < st->dram_chain_min) /* -o latency: the chain is the footprint */
            total = st->dram_chain_min;
        session_dram_sized(s, &basis, DRAM_FIGURE_BANDWIDTH, "the largest size, all threads together", total, false, st->plan.dram_capped,
                           false);
    }
    return 0;
}

/* Latency samples per visit: the minimum spread evenly over the -r rounds, so a
 * slow phase of the host costs a point a few samples, never most of them. */
static int latency_per_visit(const sweep_options *o)
{
    return round_samples_per_visit(LATENCY_MIN_SAMPLES, o->tries);
}

/* Samples a latency point needs: the -r visits' worth (at least the minimum), so
 * every latency point is visited in each of the -r rounds; points whose CV rule is
 * not met by then get further rounds (round_point.more), up to the cap. */
static int latency_needed(const sweep_options *o)
{
    int k = latency_per_visit(o) * o->tries;
    return k > LATENCY_MIN_SAMPLES ? k : LATENCY_MIN_SAMPLES;
}

/* Rounds at most: -r, or more while a latency point's CV rule wants samples (up
 * to its cap); with --target-ci, no bound (--max-time ends them). */
static int sweep_max_rounds(const sweep_options *o)
{
    if (o->target_ci_pct > 0)
        return 0;
    if (!(o->ops_mask & OP_MASK(OP_LATENCY)))
        return o->tries;
    int cap = o->tries > LATENCY_MAX_SAMPLES ? o->tries : LATENCY_MAX_SAMPLES, per = latency_per_visit(o);
    int visits = (cap + per - 1) / per;
    return visits > o->tries ? visits : o->tries;
}

/* The time budget for rounds past -r; none with --target-ci, whose further rounds
 * --max-time bounds. */
static double sweep_time_budget(const sweep_options *o)
{
    return o->target_ci_pct > 0 ? 0 : o->time_budget_s;
}

/* What was planned, for -v and JSON. */
static uint64_t chain_bytes_at(const sweep_state *st, uint64_t bytes, bool dram);

static void describe_plan(session *s, const sweep_state *st, const sweep_options *o)
{
    param_section *p = &s->info.plan;
    char key[32];
    for (int level = 1; level <= 3; level++) {
        snprintf(key, sizeof key, "L%d_share_bytes", level);
        params_int(&p->values, key, (long long)st->plan.share[level]);
        snprintf(key, sizeof key, "L%d_sharing_threads", level);
        params_int(&p->values, key, (long long)st->plan.sharers[level]);
    }
    params_int(&p->values, "max_bytes_per_thread", (long long)st->plan.max_bytes);
    params_int(&p->values, "sizes_dropped_for_memory", (long long)st->plan.dropped);
    if (o->max_size_kb) {
        params_int(&p->values, "max_size_bytes", (long long)(o->max_size_kb * 1024ULL));
        params_int(&p->values, "sizes_above_max_size", (long long)st->above_max);
    }
    char list[256] = "";
    for (int op = 0; op < OP_COUNT; op++)
        if (o->ops_mask & OP_MASK(op))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? "," : "", op_name((mb_op)op));
    params_text(&p->values, "operations", list);
    list[0] = '\0';
    for (int i = 0; i < st->ncounts; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? "," : "", st->counts[i]);
    params_text(&p->values, "thread_counts", list);
    params_text(&p->values, "pages",
                o->common.pages == PAGE_CHOICE_AUTO ? "huge pages requested (-H) for buffers >= 2x huge page size"
                : o->common.pages == PAGE_CHOICE_DEFAULT ? "normal"
                                                         : st->pages.name);
    params_textf(&p->values, "timing",
                 ">= %.1f ms per sample, warm-up discarded, best of %d, in %d rounds (each round visits every size "
                 "and operation once)%s",
                 o->sample_ms, o->tries, o->tries, o->target_ci_pct > 0 ? ", then more until --target-ci or --max-time" : "");
    params_int(&p->values, "planned_rounds", o->tries);
    if (sweep_time_budget(o) > 0)
        params_number(&p->values, "time_budget_s", sweep_time_budget(o));
    if (o->ops_mask & OP_MASK(OP_LATENCY))
        params_textf(&p->values, "latency",
                     "TLB-local random pointer chase (multichase's order: random within 256 KiB groups; "
                     "past one group also fully random, page walks included, sc-membench's figure; the DRAM point's "
                     "chain the DRAM rule for the chasing CPU), %d-byte nodes, seed %llu, 1 thread on "
                     "CPU %d; %g ms per sample, %d per "
                     "visit (at least %d in all), further rounds of %d while the CV is not below %.0f%% (at most %d%s%s)",
                     topology_cache_level(&s->topo, 1).line_size, (unsigned long long)o->seed,
                     st->place.places[0].cpu, o->latency_sample_ms, latency_per_visit(o), latency_needed(o),
                     latency_per_visit(o), LATENCY_CV_TARGET * 100,
                     o->tries > LATENCY_MAX_SAMPLES ? o->tries : LATENCY_MAX_SAMPLES,
                     o->target_ci_pct > 0 ? "; --target-ci: until met or --max-time" : "",
                     sweep_time_budget(o) > 0 ? ", each only if it ends within the time budget" : "");
    param_table *k = section_table(p, "kernels");
    for (int op = 0; op < OP_COUNT; op++) {
        if (!st->kernels[op])
            continue;
        param_list *row = table_add_row(k);
        params_text(row, "operation", op_name((mb_op)op));
        params_text(row, "isa", st->kernels[op]->isa);
        params_text(row, "stores", st->kernels[op]->store);
        params_text(row, "isa_beyond_llc_share", st->kernels_ram[op]->isa);
    }
    param_table *sizes = section_table(p, "sizes");
    for (size_t i = 0; i < st->plan.n; i++) {
        param_list *row = table_add_row(sizes);
        params_int(row, "size_kb", (long long)(st->plan.points[i].bytes / 1024));
        if (o->ops_mask & OP_MASK(OP_LATENCY))
            params_int(row, "latency_chain_bytes",
                       (long long)chain_bytes_at(st, st->plan.points[i].bytes, st->plan.points[i].dram));
        params_text(row, "reason", st->plan.points[i].reason);
        params_text(row, "size_basis", st->plan.points[i].basis);
        if (st->plan.points[i].dram)
            params_bool(row, "may_fit_cache", st->plan.points[i].may_fit_cache);
    }
}

static int sweep_describe_cost(session *s, sweep_state *st);

static int sweep_plan(session *s)
{
    sweep_state *st = s->state;
    const sweep_options *o = s->opts;
    int rc = choose_kernels(s, st, o);
    if (rc)
        return rc;
    int threads = common_thread_count(&o->common, s->topo.usable.count);
    char err[512];
    placement_request prq = {threads, o->common.cpus_given ? &o->common.cpus : NULL, o->common.omp_bind,
                             o->common.omp_places, o->common.oversubscribe};
    if (!placement_build(&s->topo, &prq, &st->place, err, sizeof err))
        return session_bad_input(s, "%s", err);
    st->ncounts = 0;
    if (o->auto_scale)
        for (int k = 1; k < threads && st->ncounts < MAX_THREAD_COUNTS - 1; k *= 2)
            st->counts[st->ncounts++] = k;
    st->counts[st->ncounts++] = threads;
    rc = plan_sizes(s, st, o, threads);
    if (rc)
        return rc;
    /* the largest buffer, and how many of them at once: every thread's, two for copies */
    uint64_t largest = st->plan.n ? st->plan.points[st->plan.n - 1].bytes : 0;
    page_policy_request pr = {(page_choice)o->common.pages, o->common.pages == PAGE_CHOICE_AUTO ? "-H" : "--pages",
                              largest, (uint64_t)threads * (uint64_t)buffers_needed(o->ops_mask), NULL};
    if (!page_policy_choose(&s->topo, &pr, &st->pages, err, sizeof err))
        return session_bad_input(s, "%s", err);
    session_describe_placement(s, &st->place);
    describe_plan(s, st, o);
    if (!st->place.pinned)
        session_warn(s, WARN_PLACEMENT, "threads are not pinned (OMP_PROC_BIND=false): results will vary between runs");
    if (o->human && o->csv_columns_given)
        session_warn(s, WARN_OPTION_IGNORED, "--csv-columns does nothing with -R (a table, not CSV): ignored");
    return o->common.plan ? sweep_describe_cost(s, st) : 0;
}

static void sweep_open_sinks(session *s)
{
    const sweep_options *o = s->opts;
    if (!o->human) {
        session_add_sink(s, csv_sink_create(s->env.out, o->csv_columns == CSV_COLUMNS_MEMBENCH));
        return;
    }
    comparability c = {o->max_runtime, 0, NULL, (int)s->topo.usable.count, (unsigned long long)o->single_size_kb,
                       (unsigned long long)o->max_size_kb, NULL, 0, o->tries, o->target_ci_pct > 0};
    if (o->common.threads_from_p || (o->common.threads > 0 && !o->common.cpus_given)) {
        c.fixed_threads = o->common.threads;
        c.fixed_threads_source = o->common.threads_from_p ? "-p" : "OMP_NUM_THREADS";
    }
    session_add_sink(s, table_sink_create(s->env.out, s->env.err, &c));
}

static team *team_for(session *s, sweep_state *st, int ci)
{
    if (!st->teams[ci])
        st->teams[ci] = session_team(s, &st->place, st->counts[ci]);
    return st->teams[ci];
}

/* Warnings a result calls for: huge pages or node locality short of what was asked. */
static void check_record(session *s, const result_record *r)
{
    const sweep_options *o = s->opts;
    char what[64];
    snprintf(what, sizeof what, "%llu KB %s", (unsigned long long)(r->size_bytes / 1024), r->operation);
    uint64_t huge = topology_huge_page_size(&s->topo);
    uint64_t bytes = (uint64_t)params_get_number(&r->params, "chased_bytes", (double)r->size_bytes);
    if (page_choice_wants_huge((page_choice)o->common.pages, bytes, huge))
        session_check_huge_pages(s, r, what);
    if (r->node_local_fraction >= 0 && r->node_local_fraction < 0.9)
        session_warn(s, WARN_NODE_LOCALITY, "%s: only %.0f%% of sampled pages are on the threads' own NUMA node", what,
                     r->node_local_fraction * 100);
}

/* The chain a latency point links (latency_request_for): its size, capped as
 * sc-membench caps it, and at a DRAM point at least twice the chaser's last-level
 * cache: the size is per thread, planned so that all threads' buffers outgrow the
 * caches, but one thread chases; with 512 threads sharing 2 GiB of L3 a DRAM
 * point is 16 MiB a thread, and a chain that size would be the L3's latency. */
static uint64_t chain_bytes_at(const sweep_state *st, uint64_t bytes, bool dram)
{
    uint64_t cap = st->plan.max_bytes * (uint64_t)st->place.n;
    uint64_t chase = bytes < LATENCY_MAX_BYTES ? bytes : LATENCY_MAX_BYTES;
    if (dram && chase < st->dram_chain_min)
        chase = st->dram_chain_min;
    chase = chase > cap ? cap - cap % 4096 : chase;
    /* whole TLB groups above one (latency_request_for) */
    return chase > CHASE_TLB_GROUP_BYTES ? chase - chase % CHASE_TLB_GROUP_BYTES : chase;
}

static uint64_t chain_bytes(const sweep_state *st, const sweep_point *p)
{
    return chain_bytes_at(st, p->bytes, p->size->dram);
}

/* Whether a latency point chases twice: its TLB-local chain spans more than one
 * group, so sc-membench's figure (the CSV's latency_ns: random over the whole
 * buffer, page walks included) is a second chase beside the headline's. At every
 * such size, not only DRAM's: the CSV's column means the same at every size. */
static bool chases_random_at(uint64_t chain)
{
    return chain > CHASE_TLB_GROUP_BYTES;
}

/* The latency request at one size: one pinned thread, the chase capped as sc-membench does. */
static latency_request latency_request_for(const sweep_state *st, const sweep_options *o, const topology *topo,
                                           const sweep_point *p)
{
    uint64_t chase = chain_bytes(st, p);
    /* the headline: multichase's TLB-local order (kernels/chase.h); a chain of one
     * group or less is random over all of it */
    size_t line = (size_t)topology_cache_level(topo, 1).line_size;
    chase_layout layout = {CHASE_TLB_LOCAL, line, CHASE_TLB_GROUP_BYTES, o->seed, CHASE_TLB_SPREAD};
    if (chase < CHASE_TLB_GROUP_BYTES)
        layout.page_bytes = chase;
    if (chase % (line * CHASE_TLB_SPREAD))
        layout = (chase_layout){CHASE_RANDOM, line, 0, o->seed, 0};
    latency_request lr = {chase,
                          layout,
                          o->latency_sample_ms / 1000.0,
                          LATENCY_MIN_SAMPLES,
                          LATENCY_MAX_SAMPLES,
                          LATENCY_CV_TARGET,
                          st->pages.request,
                          st->pages.huge_size,
                          st->place.places[0].mem_node,
                          false,
                          NULL,
                          false,
                          NULL,
                          false,
                          NULL,
                          0};
    return lr;
}

/* One visit of a latency point; false when the run must stop. */
static bool visit_latency(session *s, sweep_state *st, sweep_point *p, int round)
{
    const sweep_options *o = s->opts;
    if (!st->latency_team) {
        int cpu = st->place.places[0].cpu;
        team_place tp = {{&cpu, 1}};
        st->latency_team = session_start_team(s, &tp, 1);
        if (!st->latency_team)
            return false; /* said */
    }
    if (!p->lat) {
        latency_request lr = latency_request_for(st, o, &s->topo, p);
        /* A chain not kept in memory of its own goes in the pool's memory when the
         * pool has room: no allocation, and pages the host already backs (on fresh
         * memory the 1 GiB chain read 700-1400 ns in some visits against 210,
         * BENCHMARKS). In a source (home_chains) it is linked once; in thread 0's
         * destination, which the next point overwrites, at every visit. */
        /* Every point past one group chases the buffer fully random too, page walks
         * included (chases_random_at): that chain in the scratch memory when the
         * headline's has a home, else in memory of its own (make_points counted it).
         * One group or less: the headline's chase is that, and the record says "same". */
        lr.with_random = true;
        if (!p->keep && st->pool && !st->chain_memory.ptr)
            bw_pool_scratch(st->pool, 0, st->pool_rq.bytes, &st->chain_memory); /* all of it, for every chain */
        if (p->home.ptr) {
            lr.memory = &p->home;
            if (st->chain_memory.len >= lr.bytes) {
                lr.random_memory = &st->chain_memory; /* the next bandwidth point overwrites it */
                lr.random_memory_reused = true;
            }
        } else if (!p->keep && st->chain_memory.len >= lr.bytes) {
            lr.memory = &st->chain_memory;
        }
        p->lat = chase_point_create(&lr);
        if (!p->lat) {
            p->failed = true;
            return session_error(s, "out of memory"), false;
        }
    }
    /* Every visit takes latency_per_visit samples (fewer when the cap is nearer):
     * the CV rule's extra samples come in later rounds, spread like the others. */
    int count = round_visit_samples(latency_per_visit(o), chase_point_samples(p->lat), p->sched.cap);
    int builds = chase_point_builds(p->lat);
    measure_status ms = chase_point_visit(p->lat, st->latency_team, count, round, p->keep || p->home.ptr);
    if (p->home.ptr && chase_point_builds(p->lat) != builds)
        bw_pool_source_rewritten(st->pool); /* the read points' expected XOR is stale */
    if (ms == MEASURE_NO_MEMORY) {
        session_warn(s, WARN_NOT_MEASURED, "%llu KB latency: could not allocate; skipped", (unsigned long long)(p->bytes / 1024));
        p->finished = true; /* an allocation failure skips this point only */
    }
    return ms != MEASURE_STOPPED;
}

/* One visit of a bandwidth point. In round 1 every thread count (-a) is tried
 * and the fastest kept; later rounds use that count. False when the run must stop. */
/* Says what went wrong in a bandwidth visit with `threads` threads, if anything. */
static void say_visit(session *s, const sweep_point *p, const kernel *k, int threads, measure_status ms)
{
    if (ms == MEASURE_NO_MEMORY)
        session_warn(s, WARN_NOT_MEASURED, "%llu KB %s with %d threads: could not allocate; skipped", (unsigned long long)(p->bytes / 1024),
                     op_name(p->op), threads);
    else if (ms == MEASURE_WRONG_RESULT)
        session_error(s, "%s kernel (%s) produced wrong data at %llu KB; not reported", op_name(p->op), k->isa,
                      (unsigned long long)(p->bytes / 1024));
}

/* The chains not kept, not linked yet, get their homes in the pool's sources on the
 * chaser's node, largest first: the kernels only read a source, so a chain there
 * is linked once for the run instead of at every visit (0.4 s a visit at 1 GiB on
 * the Xeon guest, BENCHMARKS "Speed of the default run"). */
static void home_chains(sweep_state *st)
{
    for (uint64_t below = UINT64_MAX;;) { /* one latency point a size: sizes below the last one tried */
        sweep_point *largest = NULL;
        for (size_t i = 0; i < st->npoints; i++) {
            sweep_point *p = &st->points[i];
            if (p->op == OP_LATENCY && !p->keep && !p->lat && p->bytes < below &&
                (!largest || p->bytes > largest->bytes))
                largest = p;
        }
        if (!largest)
            return;
        below = largest->bytes;
        bw_pool_lend_source(st->pool, chain_bytes(st, largest), st->pool_nodes[0], &largest->home);
    }
}

/* The pool for a pooled point, made at the first one's visit by the largest team;
 * NULL when there is none (no memory for it: the point allocates its own). False
 * when the run must stop. */
static bool pool_for(session *s, sweep_state *st, const sweep_point *p, const bw_pool **out)
{
    *out = NULL;
    if (!p->pooled || st->pool_failed)
        return true;
    if (!st->pool) {
        team *t = team_for(s, st, st->ncounts - 1);
        if (!t)
            return false; /* said */
        measure_status ms = bw_pool_create(t, &st->pool_rq, &st->pool);
        if (ms == MEASURE_STOPPED)
            return false;
        st->pool_failed = ms != MEASURE_OK;
        if (st->pool)
            home_chains(st);
    }
    *out = st->pool;
    return true;
}

static bool visit_bandwidth(session *s, sweep_state *st, sweep_point *p, int round)
{
    const sweep_options *o = s->opts;
    const kernel *k = p->bytes > st->plan.share[3] ? st->kernels_ram[p->op] : st->kernels[p->op];
    if (p->bw) {
        measure_status ms = bw_point_visit(p->bw, st->teams[p->ci], 1, round, p->keep);
        say_visit(s, p, k, st->counts[p->ci], ms);
        p->finished = p->finished || ms == MEASURE_NO_MEMORY;
        p->failed = p->failed || ms == MEASURE_WRONG_RESULT;
        return ms != MEASURE_STOPPED;
    }
    const bw_pool *pool;
    if (!pool_for(s, st, p, &pool))
        return false;
    for (int ci = 0; ci < st->ncounts; ci++) {
        team *t = team_for(s, st, ci);
        if (!t)
            return false; /* said */
        bandwidth_request rq = {k,     p->bytes, o->tries, o->sample_ms / 1000.0, st->pages.request, st->pages.huge_size,
                                st->pool_nodes, NULL};
        rq.pool = bw_pool_fits(pool, &rq, st->counts[ci]) ? pool : NULL;
        bw_point *cand = bw_point_create(&rq, st->counts[ci]);
        if (!cand)
            return session_error(s, "out of memory"), false;
        measure_status ms = bw_point_visit(cand, t, 1, round, p->keep);
        say_visit(s, p, k, st->counts[ci], ms);
        if (ms == MEASURE_OK && (!p->bw || bw_point_best_rate(cand) > bw_point_best_rate(p->bw))) {
            bw_point_destroy(p->bw);
            p->bw = cand;
            p->ci = ci;
        } else {
            bw_point_destroy(cand);
        }
        if (ms == MEASURE_STOPPED)
            return false;
    }
    if (!p->bw)
        p->finished = true; /* no thread count gave a sample */
    return true;
}

/* The point's record from its samples so far; false when it has none. */
static bool point_record(session *s, const sweep_state *st, const sweep_point *p, result_record *r)
{
    bool latency = p->op == OP_LATENCY;
    result_init(r, "sweep", op_name(p->op), latency ? METRIC_LATENCY : METRIC_BANDWIDTH);
    bool ok = latency ? p->lat && chase_point_fill(p->lat, st->latency_team, r) && chase_point_fill_rounds(p->lat, st->start, r)
                      : p->bw && bw_point_fill(p->bw, st->start, r);
    if (!ok || r->nsamples == 0) {
        result_free(r);
        return false;
    }
    r->size_bytes = p->bytes;
    r->size_basis = p->size->basis;
    r->dram_intent = p->size->dram;
    r->may_fit_cache = p->size->may_fit_cache;
    if (latency) { /* wanted: the -r visits' worth, not only the CV rule's minimum */
        r->samples_wanted = p->sched.needed;
        r->complete = r->complete && r->nsamples >= p->sched.needed;
    }
    session_record_placement(&st->place, latency ? 1 : st->counts[p->ci], r);
    params_int(&r->params, "rounds", p->visits);
    params_bool(&r->params, "pooled", latency ? p->lat && chase_point_lent(p->lat) : p->bw && bw_point_lent(p->bw));
    session_record_host_load(r, &p->load);
    const sweep_options *o = s->opts;
    if (o->target_ci_pct > 0) {
        params_number(&r->params, "target_ci_pct", o->target_ci_pct);
        params_bool(&r->params, "target_ci_met", round_point_within(&p->sched, o->target_ci_pct / 100));
    }
    return true;
}

/* Brings the scheduler's view of the point up to date from its samples. */
static void update_schedule(session *s, const sweep_state *st, sweep_point *p)
{
    round_point *rp = &p->sched;
    rp->finished = p->finished || p->failed || p->emitted;
    rp->more = p->op == OP_LATENCY && p->lat && chase_point_wants_more(p->lat);
    round_point_take_samples(rp, 0, NULL);
    result_record r;
    if (!p->failed && point_record(s, st, p, &r)) { /* a failed point has no figure */
        round_point_take_samples(rp, r.nsamples, &r.summary);
        result_free(&r);
    }
}

static void emit_point(session *s, const sweep_state *st, sweep_point *p)
{
    result_record r;
    p->emitted = true;
    p->sched.finished = true;
    if (p->failed || !point_record(s, st, p, &r))
        return;
    check_record(s, &r);
    session_emit(s, &r);
    result_free(&r);
}

/* The bandwidth points not kept between rounds (make_points) borrow the pool's
 * buffers (bw_pool, at the largest such size) instead of allocating and touching
 * their own at every visit, which took most of a default run on a host with a
 * 260 MiB L3 (BENCHMARKS: "Speed of the default run"): when the pool, the largest
 * chain linked meanwhile and what is kept fit in the budget together, and the pages
 * are ones the pool gets alike at every size (not -H or hugetlb pages: a huge page
 * pool might not hold the pool and a chain at once).
 * Latency chains beyond the keep limit are linked anew at every visit, in the
 * pool's memory when it is there (visit_latency). Kept in memory of their own
 * (1.5 GiB in all there), they landed on pages the host had not backed since the
 * guest freed them (free page reporting), and the 1 GiB chain read 260-1700 ns where
 * a chain on recycled pages reads 210 (BENCHMARKS). */
static void plan_pool(sweep_state *st, uint64_t kept, uint64_t kept_chains, int threads)
{
    page_request pr = st->pages.request;
    uint64_t chain = 0;
    bw_pool_request *rq = &st->pool_rq;
    *rq = (bw_pool_request){0, false, false, pr, st->pages.huge_size, st->place.pinned ? st->pool_nodes : NULL};
    for (size_t i = 0; i < st->npoints; i++) {
        sweep_point *p = &st->points[i];
        if (p->keep)
            continue;
        if (p->op == OP_LATENCY) {
            uint64_t c = chain_bytes(st, p) * (chases_random_at(chain_bytes(st, p)) ? 2 : 1); /* and the random one */
            chain = c > chain ? c : chain;
            continue;
        }
        const kernel *k = p->bytes > st->plan.share[3] ? st->kernels_ram[p->op] : st->kernels[p->op];
        p->pooled = pr == PAGES_NORMAL || pr == PAGES_SMALL || pr == PAGES_THP;
        rq->bytes = p->pooled && p->bytes > rq->bytes ? p->bytes : rq->bytes;
        rq->src = rq->src || (p->pooled && k->reads > 0);
        rq->dst = rq->dst || (p->pooled && k->writes > 0);
    }
    uint64_t pool = rq->bytes * (uint64_t)threads * (uint64_t)(rq->src + rq->dst);
    if (pool + chain + kept + kept_chains > st->budget)
        pool = 0;
    for (size_t i = 0; i < st->npoints; i++)
        st->points[i].pooled = st->points[i].pooled && pool > 0;
    for (int i = 0; i < threads; i++)
        st->pool_nodes[i] = st->place.pinned ? st->place.places[i].mem_node : -1;
}

/* One point per size and operation, in plan order. Bandwidth buffers are kept
 * between rounds for points within the threads' last-level cache share, up to
 * round_keep_limit() in all: allocating and first-touching them again would cost more
 * than measuring them. Latency chains are kept at any size, up to another
 * round_keep_limit(). Other bandwidth points borrow the pool (plan_pool) or
 * allocate again at every visit; other chains are linked again at every visit. */
static bool make_points(session *s, sweep_state *st)
{
    const sweep_options *o = s->opts;
    st->npoints = 0;
    st->points = calloc(st->plan.n * OP_COUNT + 1, sizeof *st->points);
    if (!st->points)
        return false;
    uint64_t kept = 0, kept_chains = 0, limit = round_keep_limit(st->budget);
    int threads = st->counts[st->ncounts - 1];
    for (size_t i = 0; i < st->plan.n; i++)
        for (int op = 0; op < OP_COUNT; op++) {
            if (!(o->ops_mask & OP_MASK(op)))
                continue;
            sweep_point *p = &st->points[st->npoints++];
            p->bytes = st->plan.points[i].bytes;
            p->size = &st->plan.points[i];
            p->op = (mb_op)op;
            p->ci = -1;
            if (op == OP_LATENCY) {
                /* linking a random chain costs far more than touching a buffer:
                 * chains are kept at every size the limit allows */
                uint64_t chain = chain_bytes_at(st, p->bytes, st->plan.points[i].dram);
                uint64_t chains = chain * (chases_random_at(chain) ? 2 : 1); /* and the random one */
                /* The DRAM point's chains are linked once and kept while a quarter of
                 * the budget holds them: linking two chains of the DRAM rule's size
                 * took 5-7 s a visit on a Zen 5 guest, most of a default run. */
                uint64_t chain_limit = st->plan.points[i].dram && st->budget / 4 > limit ? st->budget / 4 : limit;
                p->keep = kept_chains + chains <= chain_limit;
                kept_chains += p->keep ? chains : 0;
            } else {
                uint64_t footprint = p->bytes * (uint64_t)threads * (uint64_t)op_buffers((mb_op)op);
                p->keep = p->bytes <= st->plan.share[3] && kept + footprint <= limit;
                kept += p->keep ? footprint : 0;
            }
            p->sched.needed = op == OP_LATENCY ? latency_needed(o) : o->tries;
            p->sched.cap = op == OP_LATENCY && o->target_ci_pct == 0 ? (o->tries > LATENCY_MAX_SAMPLES ? o->tries : LATENCY_MAX_SAMPLES) : 0;
            p->sched.half_width = -1;
        }
    plan_pool(st, kept, kept_chains, threads);
    return true;
}

/* The sweep's points as round_loop sees them. */
static const round_point *sweep_schedule(void *ctx, size_t i)
{
    return &((sweep_state *)ctx)->points[i].sched;
}

static bool sweep_visit(session *s, void *ctx, size_t i, int round)
{
    sweep_state *st = ctx;
    sweep_point *p = &st->points[i];
    bool go_on = p->op == OP_LATENCY ? visit_latency(s, st, p, round) : visit_bandwidth(s, st, p, round);
    p->visits++;
    update_schedule(s, st, p);
    return go_on;
}

/* A point is done: every done point from the first not yet out goes out, so the
 * records (and the CSV rows) keep plan order, size then operation, as sc-membench's
 * do, even when a restarted point finishes rounds after the points behind it. */
static void sweep_finish(session *s, void *ctx, size_t i)
{
    sweep_state *st = ctx;
    st->points[i].done = st->points[i].sched.finished = true;
    while (st->next_emit < st->npoints && st->points[st->next_emit].done)
        emit_point(s, st, &st->points[st->next_emit++]);
}

static host_load_span *sweep_point_load(void *ctx, size_t i)
{
    return &((sweep_state *)ctx)->points[i].load;
}

static void sweep_point_name(void *ctx, size_t i, char *buf, size_t len)
{
    const sweep_point *p = &((sweep_state *)ctx)->points[i];
    snprintf(buf, len, "%llu KB %s", (unsigned long long)(p->bytes / 1024), op_name(p->op));
}

/* The sweep in rounds (modes/round_loop): each round visits every point that
 * still wants samples once, in plan order; a point's record goes out when its
 * last sample is in. A stop emits what every point has so far. */
static void sweep_run(session *s)
{
    sweep_state *st = s->state;
    const sweep_options *o = s->opts;
    if (!make_points(s, st)) {
        session_error(s, "out of memory");
        return;
    }
    round_loop l = {st, st->npoints, o->target_ci_pct / 100, o->max_time_s, o->tries, sweep_max_rounds(o),
                    sweep_schedule, sweep_visit, sweep_finish, sweep_point_name, sweep_point_load};
    st->start = clock_now();
    round_loop_result res = round_loop_run_budget(s, &l, st->start, sweep_time_budget(o));
    st->rounds = res.rounds;
    if (!res.stopped) {
        char asked[32];
        snprintf(asked, sizeof asked, "-r %d", o->tries);
        round_loop_report(s, &l, &res, asked, o->target_ci_pct);
    }
}

/* --plan: the points as the run would make them (make_points), and what they cost:
 * memory at the peak per node and time (plan/sweep_estimate.h), into the plan. */
static int sweep_describe_cost(session *s, sweep_state *st)
{
    const sweep_options *o = s->opts;
    estimate_point *ep = make_points(s, st) ? calloc(st->npoints + 1, sizeof *ep) : NULL;
    int threads = st->counts[st->ncounts - 1], *nodes = calloc((size_t)threads + 1, sizeof(int));
    uint64_t *lent = calloc((size_t)threads + 1, sizeof(uint64_t)), *node_bytes = calloc(s->topo.nnodes + 1, 8);
    int *ids = calloc(s->topo.nnodes + 1, sizeof(int));
    if (!ep || !nodes || !lent || !node_bytes || !ids) {
        free(ep), free(nodes), free(lent), free(node_bytes), free(ids);
        session_error(s, "out of memory");
        return 1;
    }
    bool pool = false;
    for (size_t i = 0; i < st->npoints; i++)
        pool = pool || st->points[i].pooled;
    uint64_t kept = 0, fresh = 0, chains = 0, fresh_chain = 0; /* per thread; the chaser's */
    for (uint64_t below = UINT64_MAX;;) { /* chains, largest first, homed in the pool's sources (home_chains) */
        size_t at = st->npoints;
        for (size_t i = 0; i < st->npoints; i++)
            if (st->points[i].op == OP_LATENCY && st->points[i].bytes < below &&
                (at == st->npoints || st->points[i].bytes > st->points[at].bytes))
                at = i;
        if (at == st->npoints)
            break;
        const sweep_point *p = &st->points[at];
        uint64_t chain = chain_bytes(st, p);
        below = p->bytes;
        bool random = chases_random_at(chain); /* visit_latency's with_random */
        ep[at] = (estimate_point){chain, 0, false, false, p->keep, false, random};
        for (int i = 0; pool && st->pool_rq.src && !p->keep && !ep[at].pooled && i < threads; i++)
            if (st->pool_nodes[i] == st->pool_nodes[0] && st->pool_rq.bytes - lent[i] >= chain)
                lent[i] += chain, ep[at].pooled = true;
        chains += p->keep ? chain * (random ? 2 : 1) : 0;
        if (!p->keep && (random || !ep[at].pooled) && !(pool && chain <= st->pool_rq.bytes))
            fresh_chain = chain > fresh_chain ? chain : fresh_chain; /* in memory of its own at every visit */
    }
    for (size_t i = 0; i < st->npoints; i++) {
        const sweep_point *p = &st->points[i];
        if (p->op == OP_LATENCY)
            continue;
        const kernel *k = p->bytes > st->plan.share[3] ? st->kernels_ram[p->op] : st->kernels[p->op];
        uint64_t foot = p->bytes * (uint64_t)op_buffers(p->op);
        ep[i] = (estimate_point){p->bytes, op_buffers(p->op), k->writes > 0, p->bytes > st->plan.share[3], p->keep,
                                 p->pooled, false};
        kept += p->keep ? foot : 0;
        fresh = !p->keep && !p->pooled && foot > fresh ? foot : fresh;
    }
    uint64_t pool_each = pool ? st->pool_rq.bytes * (uint64_t)(st->pool_rq.src + st->pool_rq.dst) : 0;
    estimate_request rq = {ep, st->npoints, threads, s->topo.npackages, o->tries, sweep_max_rounds(o),
                           latency_per_visit(o), o->sample_ms / 1000, o->latency_sample_ms / 1000,
                           pool_each * (uint64_t)threads, topology_cache_level(&s->topo, 1).line_size, 1};
    sweep_estimate e;
    sweep_estimate_time(&rq, &e);
    for (int i = 0; i < threads; i++)
        nodes[i] = st->place.pinned ? st->place.places[i].mem_node : -1;
    for (size_t i = 0; i < s->topo.nnodes; i++)
        ids[i] = s->topo.nodes[i].id;
    uint64_t total = sweep_node_memory(nodes, threads, pool_each + kept + fresh, st->place.places[0].mem_node,
                                       chains + fresh_chain, ids, s->topo.nnodes, node_bytes);
    plan_cost_describe(&s->info.plan, &s->topo, &s->info.placement, &e, &rq, node_bytes, total, st->budget);
    free(ep), free(nodes), free(lent), free(node_bytes), free(ids);
    return 0;
}

static void sweep_release(session *s)
{
    sweep_state *st = s->state;
    for (size_t i = 0; st->points && i < st->npoints; i++) {
        bw_point_destroy(st->points[i].bw);
        chase_point_destroy(st->points[i].lat);
    }
    free(st->points);
    bw_pool_destroy(st->pool); /* after the points: they only borrowed it */
    for (int i = 0; i < MAX_THREAD_COUNTS; i++)
        team_destroy(st->teams[i]);
    team_destroy(st->latency_team);
    placement_free(&st->place);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def sweep_mode = {
    .name = "sweep",
    .summary = "bandwidth and latency at every cache level (sc-membench compatible; the default)",
    .options = &sweep_option_table,
    .options_size = sizeof(sweep_options),
    .defaults = sweep_options_defaults,
    .check = sweep_options_check,
    .state_size = sizeof(sweep_state),
    .plan = sweep_plan,
    .open_sinks = sweep_open_sinks,
    .run = sweep_run,
    .release = sweep_release,
    .flags = MODE_DRAM_SIZES,
};
