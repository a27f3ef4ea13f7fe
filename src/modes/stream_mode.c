/* SPDX-License-Identifier: MIT */
/* `membench stream`: STREAM's four kernels with STREAM's counting and validation,
 * regular and non-temporal stores side by side. Plan: configurations (thread
 * counts and placements; --scan adds several), array size, kernel sets, the
 * theoretical peak; run: every configuration and store kind, four results each. */
#include "modes/stream_mode.h"

#include <stdlib.h>
#include <string.h>

#include "cli/stream_options.h"
#include "kernels/kernel.h"
#include "measure/stream_run.h"
#include "memory/page_policy.h"
#include "modes/dram_sizing.h"
#include "output/stream_sink.h"
#include "plan/dram_size.h"
#include "platform/arch.h"
#include "topology/memory_peak.h"
#include "util/format_bytes.h"

#define MAX_CONFIGS 40

typedef struct {
    char name[96];
    placement place; /* owned */
} stream_config;

typedef struct {
    uint64_t n;
    const stream_kernel_set *sets[2]; /* [0] regular, [1] non-temporal; NULL = not run */
    stream_config configs[MAX_CONFIGS];
    int nconfigs;
    double peak_gbs;
    page_plan pages; /* -H / --pages for the three arrays */
} stream_state;

static const char *const function_names[STREAM_NFUNCS] = {"copy", "scale", "add", "triad"};

static int add_config(session *s, int threads, const cpu_list *cpus, const char *name)
{
    stream_state *st = s->state;
    const stream_options *o = s->opts;
    if (st->nconfigs >= MAX_CONFIGS)
        return 0;
    stream_config *c = &st->configs[st->nconfigs];
    placement_request rq = {threads, cpus, o->common.omp_bind, o->common.omp_places, o->common.oversubscribe};
    char err[512];
    if (!placement_build(&s->topo, &rq, &c->place, err, sizeof err))
        return session_bad_input(s, "%s", err);
    snprintf(c->name, sizeof c->name, "%s", name);
    st->nconfigs++;
    return 0;
}

/* One thread per domain of the highest cache level (seed 001's best configuration). */
static int add_one_per_llc(session *s, int threads)
{
    int level = topology_max_cache_level(&s->topo);
    cpu_list one_per = {malloc(sizeof(int) * (s->topo.ncaches + 1)), 0};
    for (size_t i = 0; one_per.ids && i < s->topo.ncaches; i++) {
        const cache_instance *ci = &s->topo.caches[i];
        for (size_t k = 0; ci->level == level && k < ci->shared.count; k++)
            if (cpu_list_contains(&s->topo.usable, ci->shared.ids[k])) {
                one_per.ids[one_per.count++] = ci->shared.ids[k];
                break;
            }
    }
    int rc = 0;
    if (one_per.count > 1 && (int)one_per.count < threads) {
        char name[96];
        snprintf(name, sizeof name, "one thread per L%d domain (%zu)", level, one_per.count);
        rc = add_config(s, (int)one_per.count, &one_per, name);
    }
    cpu_list_free(&one_per);
    return rc;
}

static int plan_configs(session *s)
{
    const stream_options *o = s->opts;
    int threads = common_thread_count(&o->common, s->topo.usable.count);
    char name[96];
    if (!o->scan) {
        snprintf(name, sizeof name, "%d thread%s", threads, threads > 1 ? "s" : "");
        return add_config(s, threads, o->common.cpus_given ? &o->common.cpus : NULL, name);
    }
    for (int k = 1; k <= threads; k = k * 2 > threads && k < threads ? threads : k * 2) {
        snprintf(name, sizeof name, "%d thread%s, spread", k, k > 1 ? "s" : "");
        int rc = add_config(s, k, NULL, name);
        if (rc)
            return rc;
    }
    return add_one_per_llc(s, threads);
}

static int plan_kernels(session *s, uint64_t llc)
{
    stream_state *st = s->state;
    const stream_options *o = s->opts;
    stream_stores stores = stream_options_stores(o);
    for (int k = 0; k < 2; k++) {
        if (!(stores & (k ? STORES_NT : STORES_REGULAR)))
            continue;
        st->sets[k] = stream_kernels_select(k == 1, o->common.kernel_isa, 3 * st->n * sizeof(double) > llc);
        if (!st->sets[k] && k == 1 && !o->stores_given) {
            if (o->common.kernel_isa)
                session_warn(s, WARN_KERNELS, "--kernel %s has no non-temporal store kernels: regular stores only",
                             o->common.kernel_isa);
            else
                session_warn(s, WARN_KERNELS, "no non-temporal store kernel for this CPU (%s): regular stores only", arch_name());
            continue;
        }
        if (!st->sets[k])
            return session_bad_input(s, "--stores %s: no non-temporal kernel on this CPU (use --stores regular)",
                                     stores == STORES_BOTH ? "both" : "nt");
    }
    return 0;
}

static void plan_peak(session *s, param_list *p)
{
    stream_state *st = s->state;
    const stream_options *o = s->opts;
    memory_peak peak;
    if (o->peak_gbs > 0) {
        st->peak_gbs = o->peak_gbs;
        params_textf(p, "peak_source", "%.1f GB/s (--peak-gbs)", o->peak_gbs);
    } else if (s->env.live && memory_peak_detect(s->env.sysfs_root, &peak)) {
        st->peak_gbs = peak.gbs;
        params_textf(p, "peak_source", "%.1f GB/s (SMBIOS: %d devices x %d MT/s x %d bytes; counts each device as a "
                                       "channel)",
                     peak.gbs, peak.devices, peak.mts, peak.bus_bytes);
    } else {
        params_text(p, "peak_source", "unknown (SMBIOS memory devices not readable here; give --peak-gbs)");
    }
    if (st->peak_gbs > 0)
        params_number(p, "peak_gbs", st->peak_gbs);
    else
        params_null(p, "peak_gbs");
}

/* The basis for every CPU any configuration uses (the arrays are the same for all). */
static dram_basis stream_basis(const session *s)
{
    const stream_state *st = s->state;
    size_t all = 0, n = 0;
    for (int c = 0; c < st->nconfigs; c++)
        all += (size_t)st->configs[c].place.n;
    int *cpus = malloc(sizeof(int) * (all + 1));
    for (int c = 0; cpus && c < st->nconfigs; c++)
        for (int i = 0; i < st->configs[c].place.n; i++)
            cpus[n++] = st->configs[c].place.places[i].cpu;
    dram_basis b = dram_basis_for(&s->topo, cpus, n); /* out of memory: every usable CPU */
    free(cpus);
    return b;
}

static int stream_plan(session *s)
{
    stream_state *st = s->state;
    const stream_options *o = s->opts;
    int rc = plan_configs(s);
    if (rc)
        return rc;
    /* STREAM's rule: each array at least 4x the last-level caches the run's CPUs
     * reach, from the largest figure any source gives (plan/dram_size.h). */
    dram_basis db = stream_basis(s);
    uint64_t want = dram_rule_bytes(&db);
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    st->n = o->n_given ? o->n : (want + sizeof(double) - 1) / sizeof(double);
    bool capped = false;
    if (!o->n_given && 3 * st->n * sizeof(double) > budget) {
        st->n = budget / 3 / sizeof(double); /* the budget wins; said below */
        capped = true;
    }
    uint64_t need = 3 * st->n * sizeof(double);
    if (need / 3 / sizeof(double) != st->n || need > budget)
        return session_bad_input(s,
                                 "%llu elements per array need %llu MiB for three arrays but only %llu MiB can be "
                                 "allocated safely",
                                 (unsigned long long)st->n, (unsigned long long)(need >> 20),
                                 (unsigned long long)(budget >> 20));
    rc = plan_kernels(s, want / DRAM_RULE_FACTOR);
    if (rc)
        return rc;
    char err[256];
    page_policy_request pr = {(page_choice)o->common.pages, o->common.pages == PAGE_CHOICE_AUTO ? "-H" : "--pages",
                              st->n * sizeof(double), 3, NULL};
    if (!page_policy_choose(&s->topo, &pr, &st->pages, err, sizeof err))
        return session_bad_input(s, "%s", err);
    uint64_t array = st->n * sizeof(double);
    /* The rule holds each array, not the three together (STREAM's wording). */
    bool short_of_rule = dram_may_fit_cache(&db, array);
    if (short_of_rule) {
        char have[32], rule[160];
        session_warn(s, WARN_STREAM_RULE, "%s per array%s is less than STREAM's rule, each array at least %s: the "
                     "figures may include cache hits", format_bytes(array, have, sizeof have),
                     capped ? " (capped by the memory budget)" : o->n_given ? " (as given)" : "",
                     dram_rule_text(&db, rule, sizeof rule));
    }
    /* Records carry the basis; the warning above is the only one. */
    session_dram_sized(s, &db, DRAM_FIGURE_BANDWIDTH, NULL, array, o->n_given, capped, true);
    param_list *p = &s->info.plan.values;
    params_int(p, "array_elements", (long long)st->n);
    params_int(p, "ntimes", o->ntimes);
    params_text(p, "byte_counting", "STREAM: Copy/Scale 16 B, Add/Triad 24 B per element; MB = 10^6 B");
    params_bool(p, "scan", o->scan);
    params_text(p, "pages", st->pages.name);
    plan_peak(s, p);
    param_table *t = section_table(&s->info.plan, "configurations");
    for (int c = 0; c < st->nconfigs; c++) {
        param_list *row = table_add_row(t);
        char *cpus = placement_cpus_text(&st->configs[c].place);
        params_text(row, "name", st->configs[c].name);
        params_int(row, "threads", st->configs[c].place.n);
        params_text(row, "cpus", cpus);
        free(cpus);
    }
    session_describe_placement(s, &st->configs[st->nconfigs - 1].place);
    return 0;
}

static void stream_open_sinks(session *s)
{
    session_add_sink(s, stream_sink_create(s->env.out));
}

/* Between two STREAM iterations: the host probe (at most every 0.1 s), so a run
 * that emits its four records only at the end still gets a noise verdict. */
static void probe_between(void *ctx)
{
    session_between_visits(ctx);
}

/* One store kind on one configuration: four results. False when the run must stop. */
static bool measure_config(session *s, const stream_config *cf, team *t, int k, const char *cpus)
{
    stream_state *st = s->state;
    const stream_options *o = s->opts;
    result_record r[STREAM_NFUNCS];
    for (int f = 0; f < STREAM_NFUNCS; f++)
        result_init(&r[f], "stream", function_names[f], METRIC_BANDWIDTH);
    stream_request rq = {st->n, o->ntimes, st->sets[k], st->pages.request, st->pages.huge_size, probe_between, s};
    measure_status ms = stream_measure(t, &rq, r);
    if (ms == MEASURE_NO_MEMORY)
        session_error(s, "could not allocate the arrays");
    if (ms == MEASURE_WRONG_RESULT)
        session_error(s, "%s: %s stores, %s kernels: %s", cf->name, k ? "non-temporal" : "regular", st->sets[k]->isa,
                      params_get_text(&r[0].params, "validation"));
    /* huge pages asked for and not obtained: said, as in the other modes */
    bool wanted = page_choice_wants_huge((page_choice)o->common.pages, st->n * sizeof(double), st->pages.huge_size);
    if ((ms == MEASURE_OK || ms == MEASURE_WRONG_RESULT) && wanted)
        session_check_huge_pages(s, &r[0], cf->name);
    for (int f = 0; f < STREAM_NFUNCS; f++) {
        if (ms == MEASURE_OK || ms == MEASURE_WRONG_RESULT) {
            r[f].size_bytes = st->n * sizeof(double);
            session_record_placement(&cf->place, cf->place.n, &r[f]);
            params_text(&r[f].params, "configuration", cf->name);
            params_text(&r[f].params, "cpus", cpus);
            if (st->peak_gbs > 0)
                params_number(&r[f].params, "percent_of_peak", 100 * result_value(&r[f]) / (st->peak_gbs * 1000));
            session_emit(s, &r[f]);
        }
        result_free(&r[f]);
    }
    return ms == MEASURE_OK || ms == MEASURE_WRONG_RESULT;
}

static void stream_run(session *s)
{
    stream_state *st = s->state;
    for (int c = 0; c < st->nconfigs && !session_stopped(s); c++) {
        const stream_config *cf = &st->configs[c];
        team *t = session_team(s, &cf->place, cf->place.n);
        if (!t)
            return; /* said */
        char *cpus = placement_cpus_text(&cf->place);
        bool go_on = true;
        for (int k = 0; k < 2 && go_on && !session_stopped(s); k++)
            if (st->sets[k]) {
                session_step_begin(s);
                go_on = measure_config(s, cf, t, k, cpus ? cpus : "?");
            }
        free(cpus);
        team_destroy(t);
        if (!go_on)
            return;
    }
}

static void stream_analyse(session *s)
{
    const result_record *best = NULL;
    for (size_t i = 0; i < s->results.n; i++) {
        const result_record *r = &s->results.items[i];
        if (strcmp(r->operation, "triad") == 0 && (!best || result_value(r) > result_value(best)))
            best = r;
    }
    if (!best)
        return;
    param_list *a = &s->info.analysis.values;
    params_text(a, "best_configuration", params_get_text(&best->params, "configuration"));
    params_text(a, "best_stores", best->kernel_store);
    params_number(a, "best_triad_mb_s", result_value(best));
}

static void stream_release(session *s)
{
    stream_state *st = s->state;
    for (int c = 0; c < st->nconfigs; c++)
        placement_free(&st->configs[c].place);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def stream_mode = {
    .name = "stream",
    .summary = "STREAM: Copy/Scale/Add/Triad, regular and non-temporal stores",
    .options = &stream_option_table,
    .options_size = sizeof(stream_options),
    .defaults = stream_options_defaults,
    .check = stream_options_check,
    .state_size = sizeof(stream_state),
    .plan = stream_plan,
    .open_sinks = stream_open_sinks,
    .run = stream_run,
    .analyse = stream_analyse,
    .release = stream_release,
    .flags = MODE_DRAM_SIZES,
};
