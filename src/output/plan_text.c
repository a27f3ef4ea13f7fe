/* SPDX-License-Identifier: MIT */
#include "output/plan_text.h"

#include <inttypes.h>
#include <string.h>

#include "plan/dram_size.h"
#include "util/format_bytes.h"
#include "util/one_line.h"

/* "3.0 GiB", "512 MiB", "48 KiB": two significant places past the unit. */
static const char *amount(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4)
        v /= 1024, u++;
    snprintf(buf, len, v == (double)(uint64_t)v ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

static void text(FILE *f, const char *s)
{
    one_line_put(f, s ? s : "");
}

static long long num(const param_list *l, const char *key)
{
    return (long long)params_get_number(l, key, -1);
}

static bool flag(const param_list *l, const char *key)
{
    const param *p = params_find(l, key);
    return p && p->kind == PARAM_BOOL && p->flag;
}

static void machine_line(FILE *f, const topology *t)
{
    fprintf(f, "Machine: %zu CPUs (%zu usable), %d cores, %d package(s), %zu NUMA node(s); caches", t->ncpus,
            t->usable.count ? t->usable.count : t->ncpus, t->ncores, t->npackages, t->nnodes);
    for (int level = 1; level <= 3; level++) {
        cache_level c = topology_cache_level(t, level);
        char b[32];
        fprintf(f, "%s L%d %s (", level > 1 ? "," : "", level, amount(c.size, b, sizeof b));
        text(f, cache_source_name(c.source));
        fprintf(f, ")");
    }
    dram_basis d = dram_basis_for(t, NULL, 0);
    char rule[160];
    fprintf(f, "; DRAM rule (every usable CPU): ");
    text(f, dram_rule_text(&d, rule, sizeof rule));
    fprintf(f, "\n");
}

static void sizes(FILE *f, const param_table *t, int threads, const param_list *v)
{
    fprintf(f, "Sizes per thread (%zu", t->nrows);
    if (num(v, "max_size_bytes") > 0) { /* --max-size: what it left out */
        char b[32];
        fprintf(f, "; %lld larger left out by --max-size %s", num(v, "sizes_above_max_size"),
                amount((uint64_t)num(v, "max_size_bytes"), b, sizeof b));
    }
    fprintf(f, "), each point x operation:\n");
    for (size_t i = 0; i < t->nrows; i++) {
        const param_list *r = &t->rows[i];
        /* the sweep's rows give KiB and a reason; latency's bytes and whether the chain is kept */
        uint64_t kb = params_find(r, "size_kb") ? (uint64_t)num(r, "size_kb") : (uint64_t)num(r, "size_bytes") / 1024;
        char b[32], all[32];
        fprintf(f, "  %-9s ", amount(kb * 1024, b, sizeof b));
        text(f, params_get_text(r, "reason"));
        if (params_find(r, "chain_kept"))
            fprintf(f, "%s", flag(r, "chain_kept") ? "chain kept between rounds" : "chain linked again at each visit");
        if (params_find(r, "may_fit_cache"))
            fprintf(f, "; DRAM-sized: %s for all threads together%s", amount(kb * 1024 * (uint64_t)threads, all, sizeof all),
                    flag(r, "may_fit_cache") ? ", MAY STILL FIT A CACHE" : "");
        fprintf(f, "\n");
    }
}

static void nodes(FILE *f, const param_table *t)
{
    for (size_t i = 0; i < t->nrows; i++) {
        const param_list *r = &t->rows[i];
        char m[32], fr[32], bu[32];
        const param *node = params_find(r, "node");
        if (node && node->kind == PARAM_INT)
            fprintf(f, "  node %lld: ", node->integer);
        else
            fprintf(f, "  no node (unbound): ");
        fprintf(f, "%lld thread(s)", num(r, "threads"));
        if (num(r, "threads") > 0) {
            fprintf(f, " on CPUs ");
            text(f, params_get_text(r, "cpus"));
        }
        fprintf(f, "; memory %s", amount((uint64_t)num(r, "memory_bytes"), m, sizeof m));
        if (params_find(r, "free_bytes"))
            fprintf(f, " of %s free (%s after the node's margin)%s",
                    amount((uint64_t)num(r, "free_bytes"), fr, sizeof fr),
                    amount((uint64_t)num(r, "budget_bytes"), bu, sizeof bu),
                    num(r, "memory_bytes") > num(r, "budget_bytes") ? ": MORE THAN THE NODE HAS" : "");
        fprintf(f, "\n");
    }
}

static void estimate(FILE *f, const param_list *v)
{
    double s = params_get_number(v, "estimate_s", -1), bound = params_get_number(v, "estimate_bound_s", -1);
    double budget = params_get_number(v, "estimate_budget_s", 0);
    if (!params_find(v, "estimate_rounds")) { /* latency's curve: its model's parts, no rounds of the sweep's */
        fprintf(f, "Estimated time: %.1f s (samples %.1f s, warm-ups %.1f s, first touch %.1f s, chains %.1f s, host "
                   "probes %.1f s)",
                s, params_get_number(v, "estimate_samples_s", 0), params_get_number(v, "estimate_warmup_s", 0),
                params_get_number(v, "estimate_touch_s", 0), params_get_number(v, "estimate_chains_s", 0),
                params_get_number(v, "estimate_other_s", 0));
        if (params_get_number(v, "time_budget_s", 0) > 0)
            fprintf(f, "; %s --time-budget %g s", s <= params_get_number(v, "time_budget_s", 0) ? "within" : "OVER",
                    params_get_number(v, "time_budget_s", 0));
        fprintf(f, "\n");
        return;
    }
    fprintf(f, "Estimated time: %.1f s in %lld rounds (samples %.1f s, warm-ups and checks %.1f s, allocation and "
               "first touch %.1f s, chains %.1f s, threads and host probes %.1f s)",
            s, num(v, "estimate_rounds"), params_get_number(v, "estimate_samples_s", 0),
            params_get_number(v, "estimate_warmup_s", 0), params_get_number(v, "estimate_touch_s", 0),
            params_get_number(v, "estimate_chains_s", 0), params_get_number(v, "estimate_other_s", 0));
    double time_budget = params_get_number(v, "time_budget_s", 0);
    if (bound > s + 0.05 && time_budget > 0 && bound > time_budget && s < time_budget)
        fprintf(f, "; the latency points' further rounds end within --time-budget %g s (all %lld would take %.1f s)",
                time_budget, num(v, "estimate_latency_rounds"), bound);
    else if (bound > s + 0.05)
        fprintf(f, "; %.1f s if the latency points take all %lld rounds", bound, num(v, "estimate_latency_rounds"));
    fprintf(f, "; %s the %.0f s a default run should take\n", s <= budget ? "within" : "OVER", budget);
    fprintf(f, "Model: ");
    text(f, params_get_text(v, "estimate_model"));
    fprintf(f, "\n");
}

/* Values said above, or by the tables. */
static bool said(const char *key)
{
    static const char *const keys[] = {"threads", "thread_cpus", "memory_peak_bytes", "memory_budget_bytes",
                                       "operations", "timing", "latency", "machine", NULL};
    for (int i = 0; keys[i]; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return strncmp(key, "estimate_", 9) == 0;
}

void plan_text_write(FILE *f, const char *who, const run_info *info, const topology *t, const char *machine)
{
    const param_list *v = &info->plan.values;
    text(f, who);
    fprintf(f, " --plan: what a run would do %s", machine ? "on the machine recorded in " : "on this machine");
    text(f, machine);
    fprintf(f, " (nothing measured, no buffer allocated)\n");
    machine_line(f, t);
    const char *ops = params_get_text(v, "operations");
    if (ops) {
        fprintf(f, "Operations: ");
        text(f, ops);
        fprintf(f, "\n");
    }
    long long threads = num(v, "threads") >= 0 ? num(v, "threads") : info->placement.n;
    if (params_find(v, "thread_cpus") || threads > 0) {
        fprintf(f, "Threads: %lld on CPUs ", threads);
        if (params_find(v, "thread_cpus"))
            text(f, params_get_text(v, "thread_cpus"));
        else /* a mode without the sweep's cost model: its placement's places */
            for (int i = 0; i < info->placement.n; i++) {
                fprintf(f, "%s", i ? "," : "");
                text(f, info->placement.threads[i].cpus);
            }
        fprintf(f, " (");
    } else { /* placed row by row as the run goes (bandwidth-matrix): the policy says how */
        fprintf(f, "Threads: (");
    }
    text(f, info->placement.policy);
    fprintf(f, "%s)\n", info->placement.pinned ? "" : ", not pinned");
    const param_table *sz = section_find_table(&info->plan, "sizes");
    if (sz)
        sizes(f, sz, (int)threads, v);
    const param_table *nd = section_find_table(&info->plan, "nodes");
    if (nd) {
        fprintf(f, "Memory at the peak, per node (where the threads' buffers and the latency chains go):\n");
        nodes(f, nd);
    }
    if (params_find(v, "memory_peak_bytes")) {
        char m[32], b[32];
        long long peak = num(v, "memory_peak_bytes"), budget = num(v, "memory_budget_bytes");
        fprintf(f, "Memory in all: %s at the peak, budget %s (%s, less a margin)%s\n", amount((uint64_t)peak, m, sizeof m),
                amount((uint64_t)budget, b, sizeof b),
                machine ? "the recorded nodes' MemFree; no cgroup" : "MemAvailable and the cgroup limit",
                peak > budget ? ": OVER THE BUDGET" : "");
    }
    const char *timing = params_get_text(v, "timing"), *latency = params_get_text(v, "latency");
    if (timing) {
        fprintf(f, "Samples: ");
        text(f, timing);
        fprintf(f, "\n");
    }
    if (latency) {
        fprintf(f, "Latency: ");
        text(f, latency);
        fprintf(f, "\n");
    }
    if (params_find(v, "estimate_s"))
        estimate(f, v);
    for (size_t i = 0; i < v->n; i++) {
        const param *p = &v->items[i];
        if (said(p->key))
            continue;
        fprintf(f, "  ");
        text(f, p->key);
        if (p->kind == PARAM_TEXT) {
            fprintf(f, ": ");
            text(f, p->text);
            fprintf(f, "\n");
        } else if (p->kind == PARAM_INT)
            fprintf(f, ": %lld\n", p->integer);
        else if (p->kind == PARAM_NUMBER)
            fprintf(f, ": %g\n", p->number);
        else
            fprintf(f, ": %s\n", p->kind == PARAM_BOOL ? (p->flag ? "true" : "false") : "null");
    }
    for (size_t i = 0; i < info->nwarnings; i++) {
        fprintf(f, "Warning: ");
        text(f, info->warnings[i]);
        fprintf(f, "\n");
    }
}
