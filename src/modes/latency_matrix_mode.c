/* SPDX-License-Identifier: MIT */
/* `membench latency-matrix`: idle latency for every (CPU node, memory node) pair,
 * or (--every-cpu) for every usable CPU. Plan: cells (plan/node_matrix), the
 * buffer size and pages; run: one pinned chaser per row, its memory bound to each
 * column's node in turn, the pin and the pages' node checked for every cell, and
 * a cell whose node cannot hold the buffer reported instead of measured;
 * analysis: local and remote extremes, the slowest CPU. */
#include "modes/latency_matrix_mode.h"

#include <stdlib.h>

#include "cli/latency_matrix_options.h"
#include "measure/latency.h"
#include "measure/matrix_summary.h"
#include "measure/ref_counter.h"
#include "memory/memory_budget.h"
#include "memory/page_policy.h"
#include "modes/dram_sizing.h"
#include "output/latency_matrix_sink.h"
#include "platform/platform.h"

#define MIN_SAMPLES 7
#define MAX_SAMPLES 21
#define CV_TARGET 0.05
#define NODE_SHARE_WARN 0.9 /* under this share of sampled pages on the bound node: said */

typedef struct {
    node_matrix m;
    uint64_t bytes;
    page_plan pages;
    chase_layout layout;
    size_t unavailable;
    bool said_unverified; /* move_pages could not say: once a run, not once a cell */
} matrix_state;

/* -b, or the LLC rule; never beyond the memory budget. */
static int choose_bytes(session *s, matrix_state *st, const latency_matrix_options *o, char *why, size_t whylen)
{
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    if (o->buffer_given && o->buffer_bytes > budget)
        return session_bad_input(s,
                                 "--buffer %llu MiB: more than can be allocated safely (%llu MiB: MemAvailable and "
                                 "cgroup limit, less a margin)",
                                 (unsigned long long)(o->buffer_bytes >> 20), (unsigned long long)(budget >> 20));
    dram_basis b;
    bool capped = false;
    uint64_t rule = node_matrix_buffer_bytes(&s->topo, &st->m, budget, &b, &capped, why, whylen);
    if (o->buffer_given)
        snprintf(why, whylen, "--buffer");
    st->bytes = o->buffer_given ? o->buffer_bytes : rule;
    if (st->bytes < 4096) {
        session_error(s, "the memory budget (%llu KiB) leaves no room for a buffer",
                      (unsigned long long)(budget >> 10));
        return 1;
    }
    session_dram_sized(s, &b, DRAM_FIGURE_LATENCY, "each cell's chased buffer", st->bytes, o->buffer_given, capped, true);
    return 0;
}

static int choose_pages(session *s, matrix_state *st, const latency_matrix_options *o)
{
    page_policy_request pr = {(page_choice)o->common.pages, "--pages", st->bytes, 1, NULL};
    char err[256];
    if (!page_policy_choose(&s->topo, &pr, &st->pages, err, sizeof err))
        return session_bad_input(s, "%s", err);
    return 0;
}

static void describe_plan(session *s, const matrix_state *st, const latency_matrix_options *o, const char *why)
{
    const node_matrix *m = &st->m;
    bool per_cpu = o->every_cpu || o->cpu_given; /* --cpu: one row of --every-cpu */
    snprintf(s->info.placement.policy, sizeof s->info.placement.policy, "one chasing thread per %s, in turn",
             o->cpu_given    ? "CPU given (--cpu)"
             : o->every_cpu ? "usable CPU"
                            : "node with CPUs (its first usable CPU unless --cpu-of)");
    s->info.placement.pinned = true;
    run_thread *th = run_info_set_threads(&s->info, (int)m->nrows);
    for (size_t r = 0; th && r < m->nrows; r++) {
        th[r].cpus = cpu_list_format_alloc(&m->row_cpus[r], 1);
        th[r].node = m->row_nodes[r];
        th[r].mem_node = per_cpu ? m->cells[r].mem_node : -1; /* matrix: every column in turn */
    }
    param_list *p = &s->info.plan.values;
    char order[160];
    chase_order_describe(&st->layout, order, sizeof order);
    params_textf(p, "method",
                 "%s, %zu-byte nodes, seed %llu, %llu MiB buffer per cell (%s), memory bound to the "
                 "cell's node (MPOL_BIND), pages %s",
                 order, st->layout.node_bytes, (unsigned long long)o->seed, (unsigned long long)(st->bytes >> 20),
                 why, st->pages.name);
    params_int(p, "chase_range_bytes", st->layout.order == CHASE_PAGE_LOCAL ? (long long)st->layout.page_bytes : 0);
    params_text(p, "order", chase_order_key(st->layout.order));
    params_int(p, "group_bytes", st->layout.order == CHASE_TLB_LOCAL ? (long long)st->layout.page_bytes : 0);
    params_bool(p, "every_cpu", per_cpu);
    params_int(p, "buffer_bytes", (long long)st->bytes);
    params_text(p, "buffer_reason", why);
    params_text(p, "memory_policy", "bind");
    params_text(p, "pages", st->pages.name);
    params_int(p, "node_bytes", (long long)st->layout.node_bytes);
    params_text(p, "counter", ref_counter_name());
    double hz = ref_counter_hz();
    if (hz > 0)
        params_number(p, "counter_hz", hz); /* ns to reference-counter ticks (MLC's "base frequency clocks") */
    else
        params_null(p, "counter_hz");
    params_int(p, "rows", (long long)m->nrows);
    params_int(p, "column_count", (long long)m->ncols); /* "columns" is the table below */
    param_table *cols = section_table(&s->info.plan, "columns");
    for (size_t c = 0; c < m->ncols; c++)
        params_int(table_add_row(cols), "mem_node", m->col_nodes[c]);
    param_table *cells = section_table(&s->info.plan, "cells");
    for (size_t i = 0; i < m->ncells; i++) {
        param_list *row = table_add_row(cells);
        params_int(row, "row", (long long)m->cells[i].row);
        params_int(row, "column", (long long)m->cells[i].col);
        params_int(row, "cpu_node", m->cells[i].cpu_node);
        params_int(row, "cpu", m->cells[i].cpu);
        params_int(row, "mem_node", m->cells[i].mem_node);
    }
}

static int matrix_plan(session *s)
{
    matrix_state *st = s->state;
    const latency_matrix_options *o = s->opts;
    char why[160], err[256];
    node_matrix_request rq = {o->every_cpu, o->cpu, o->mem_node, o->cpu_of, o->ncpu_of};
    if (!node_matrix_plan(&s->topo, &rq, &st->m, err, sizeof err))
        return session_bad_input(s, "%s", err);
    int rc = choose_bytes(s, st, o, why, sizeof why);
    if (rc == 0)
        rc = choose_pages(s, st, o);
    if (rc)
        return rc;
    st->layout.order = o->full_random ? CHASE_RANDOM : CHASE_TLB_LOCAL;
    st->layout.node_bytes = o->stride ? (size_t)o->stride : (size_t)topology_cache_level(&s->topo, 1).line_size;
    st->layout.page_bytes = st->pages.chase_page_bytes;
    st->layout.seed = o->seed;
    if (st->layout.order == CHASE_TLB_LOCAL && !o->chase_range) {
        /* multichase's order; with --stride, one node a stride in one pass, as its -s */
        st->layout.spread = o->stride ? 1 : CHASE_TLB_SPREAD;
        size_t chunk = st->layout.node_bytes * st->layout.spread;
        st->layout.page_bytes = CHASE_TLB_GROUP_BYTES < chunk ? chunk : CHASE_TLB_GROUP_BYTES - CHASE_TLB_GROUP_BYTES % chunk;
        if (st->bytes <= st->layout.page_bytes)
            st->layout.page_bytes = st->bytes - st->bytes % chunk; /* one group: the whole buffer */
        st->bytes -= st->bytes % st->layout.page_bytes;
    }
    if (o->chase_range) { /* MLC's -D: each range's nodes in random order, then the next range */
        if (o->chase_range % st->layout.node_bytes)
            return session_bad_input(s, "--chase-range %llu: not a whole number of %zu-byte chased nodes",
                                     (unsigned long long)o->chase_range, st->layout.node_bytes);
        if (o->chase_range > st->bytes)
            return session_bad_input(s, "--chase-range %llu: larger than the chased buffer (%llu bytes)",
                                     (unsigned long long)o->chase_range, (unsigned long long)st->bytes);
        st->layout.order = CHASE_PAGE_LOCAL;
        st->layout.spread = 0;
        st->layout.page_bytes = o->chase_range;
        st->bytes -= st->bytes % o->chase_range;
    }
    st->bytes -= st->bytes % st->layout.node_bytes;
    describe_plan(s, st, o, why);
    return 0;
}

static void matrix_open_sinks(session *s)
{
    const latency_matrix_options *o = s->opts;
    session_add_sink(s, latency_matrix_sink_create(s->env.out, s->env.err, o->csv));
}

/* A cell the node could not hold: said, and kept in the analysis so JSON has it. */
static void report_unavailable(session *s, matrix_state *st, size_t i)
{
    const node_matrix_cell *c = &st->m.cells[i];
    uint64_t free_bytes = platform_node_free_bytes(c->mem_node);
    uint64_t kept = node_margin_bytes_of(c->mem_node);
    st->unavailable++;
    session_warn(s, WARN_NOT_MEASURED,
                 "CPU %d (node %d) x memory node %d: the node could not hold the %llu MiB buffer (%llu MiB free, "
                 "%llu MiB kept free): not measured ('-')",
                 c->cpu, c->cpu_node, c->mem_node, (unsigned long long)(st->bytes >> 20),
                 (unsigned long long)(free_bytes >> 20), (unsigned long long)(kept >> 20));
    param_list *row = table_add_row(section_table(&s->info.analysis, "unavailable_cells"));
    params_int(row, "cell", (long long)i);
    params_int(row, "cpu_node", c->cpu_node);
    params_int(row, "cpu", c->cpu);
    params_int(row, "mem_node", c->mem_node);
    params_int(row, "node_free_bytes", (long long)free_bytes);
    params_int(row, "node_kept_free_bytes", (long long)kept);
    params_text(row, "reason", "the bound allocation was refused: the node cannot hold the buffer");
}

/* Measures cell i on t (pinned to its CPU). False when the run must stop. */
static bool measure_cell(session *s, matrix_state *st, team *t, size_t i)
{
    const latency_matrix_options *o = s->opts;
    const node_matrix_cell *c = &st->m.cells[i];
    latency_request rq = {st->bytes,  st->layout,        o->sample_ms / 1000.0, MIN_SAMPLES, MAX_SAMPLES,
                          CV_TARGET,  st->pages.request, st->pages.huge_size,   c->mem_node, true,
                          NULL,       false,             NULL,                  false, NULL, 0};
    result_record r;
    result_init(&r, "latency-matrix", "latency", METRIC_LATENCY);
    measure_status ms = measure_latency(t, &rq, &r);
    if (ms == MEASURE_NO_MEMORY) {
        report_unavailable(s, st, i);
    } else if (ms == MEASURE_OK) {
        result_set_placement(&r, &(result_thread){c->cpu, c->cpu_node, c->mem_node}, 1);
        params_int(&r.params, "cell", (long long)i);
        params_int(&r.params, "row", (long long)c->row);
        params_int(&r.params, "column", (long long)c->col);
        params_int(&r.params, "cpu_node", c->cpu_node);
        params_int(&r.params, "mem_node", c->mem_node);
        params_int(&r.params, "observed_cpu", team_observed_cpu(t, 0));
        if (r.node_local_fraction < 0 && !st->said_unverified) {
            st->said_unverified = true;
            session_warn(s, WARN_NODE_LOCALITY, "CPU %d x memory node %d: the pages' node could not be checked (move_pages); nor will "
                            "the other cells' be",
                         c->cpu, c->mem_node);
        } else if (r.node_local_fraction < NODE_SHARE_WARN)
            session_warn(s, WARN_NODE_LOCALITY, "CPU %d x memory node %d: only %.0f%% of the sampled pages are on node %d", c->cpu,
                         c->mem_node, r.node_local_fraction * 100, c->mem_node);
        if (page_choice_wants_huge((page_choice)o->common.pages, r.size_bytes, st->pages.huge_size)) {
            char what[64];
            snprintf(what, sizeof what, "CPU %d x memory node %d", c->cpu, c->mem_node);
            session_check_huge_pages(s, &r, what);
        }
        session_emit(s, &r);
    }
    result_free(&r);
    return ms != MEASURE_STOPPED;
}

static void matrix_run(session *s)
{
    matrix_state *st = s->state;
    const node_matrix *m = &st->m;
    size_t i = 0;
    for (size_t row = 0; row < m->nrows && !session_stopped(s); row++) {
        int cpu = m->row_cpus[row];
        team_place tp = {{&cpu, 1}};
        team *t = session_start_team(s, &tp, 1);
        if (!t)
            return; /* said */
        if (!team_pin_verified(t, 0)) {
            session_fail(s, "the chaser could not be pinned to CPU %d (it ran on CPU %d)", cpu,
                         team_observed_cpu(t, 0));
            team_destroy(t);
            return;
        }
        bool go = true;
        for (; go && i < m->ncells && m->cells[i].row == row; i++) {
            session_progress(s, "[%zu/%zu] CPU %d x memory node %d", i + 1, m->ncells, cpu, m->cells[i].mem_node);
            session_step_begin(s);
            go = measure_cell(s, st, t, i) && !session_stopped(s);
        }
        team_destroy(t);
        if (!go)
            return;
    }
    if (s->results.n == 0 && st->unavailable > 0)
        session_error(s, "no cell could be measured: no node could hold the buffer");
}

static void put_point(param_list *l, const char *what, const matrix_point *p)
{
    char key[64];
    snprintf(key, sizeof key, "%s_ns", what);
    params_number(l, key, p->ns);
    snprintf(key, sizeof key, "%s_cpu", what);
    params_int(l, key, p->cpu);
    snprintf(key, sizeof key, "%s_cpu_node", what);
    params_int(l, key, p->cpu_node);
    snprintf(key, sizeof key, "%s_mem_node", what);
    params_int(l, key, p->mem_node);
}

static void matrix_analyse(session *s)
{
    const matrix_state *st = s->state;
    size_t n = s->results.n;
    matrix_point *pts = calloc(n ? n : 1, sizeof *pts);
    if (!pts)
        return;
    for (size_t i = 0; i < n; i++) {
        const result_record *r = &s->results.items[i];
        pts[i] = (matrix_point){r->placement[0].node, r->placement[0].mem_node, r->placement[0].cpu,
                                result_value(r)};
    }
    matrix_summary sum = matrix_summarise(pts, n);
    free(pts);
    param_list *a = &s->info.analysis.values;
    params_int(a, "cells_measured", (long long)n);
    params_int(a, "cells_unavailable", (long long)st->unavailable);
    if (sum.nlocal) {
        put_point(a, "local_min", &sum.local_min);
        put_point(a, "local_max", &sum.local_max);
    }
    if (sum.nremote) {
        put_point(a, "remote_min", &sum.remote_min);
        put_point(a, "remote_max", &sum.remote_max);
    }
    if (sum.n) {
        put_point(a, "fastest", &sum.fastest);
        put_point(a, "slowest", &sum.slowest);
    }
}

static void matrix_release(session *s)
{
    node_matrix_free(&((matrix_state *)s->state)->m);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def latency_matrix_mode = {
    .name = "latency-matrix",
    .summary = "idle latency for every CPU node x memory node pair (or every CPU)",
    .options = &latency_matrix_option_table,
    .options_size = sizeof(latency_matrix_options),
    .defaults = latency_matrix_options_defaults,
    .check = latency_matrix_options_check,
    .state_size = sizeof(matrix_state),
    .plan = matrix_plan,
    .open_sinks = matrix_open_sinks,
    .run = matrix_run,
    .analyse = matrix_analyse,
    .release = matrix_release,
    .flags = MODE_DRAM_SIZES,
};
