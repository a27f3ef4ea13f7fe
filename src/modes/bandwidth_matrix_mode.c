/* SPDX-License-Identifier: MIT */
/* `membench bandwidth-matrix`: MLC's bandwidth matrix. Plan: rows and columns from
 * plan/node_matrix (rows: nodes with usable CPUs; columns: nodes with memory, CPU-
 * less ones included), each row's traffic CPUs (its node's, within --cpus, one per
 * core with --one-per-core), one buffer size for all cells; run: per row one pinned
 * team, per column its buffers bound (MPOL_BIND) to that node, first-touched,
 * checked, then one traffic phase; a cell the node cannot hold is reported, not
 * measured elsewhere. */
#include "modes/bandwidth_matrix_mode.h"

#include <stdlib.h>
#include <string.h>

#include "cli/traffic_options.h"
#include "measure/traffic.h"
#include "modes/dram_sizing.h"
#include "modes/session.h"
#include "modes/traffic_layout.h"
#include "memory/memory_budget.h"
#include "memory/page_policy.h"
#include "output/bandwidth_matrix_sink.h"
#include "plan/node_matrix.h"
#include "plan/traffic_plan.h"
#include "platform/platform.h"

typedef struct {
    node_matrix m;
    placement *rows; /* per row: its traffic threads (mem_node set per column) */
    const traffic_mix *mix;
    int buffers;     /* per thread */
    uint64_t bytes;  /* each buffer */
    page_plan pages;
    size_t unavailable;
} bwm_state;

/* The row's CPUs: the node's usable CPUs within --cpus, one per core if asked. */
static int row_cpus(const topology *t, const traffic_options *o, int node, int *out, int cap)
{
    const numa_node *n = topology_node(t, node);
    if (!n)
        return 0;
    cpu_list only = {NULL, 0};
    only.ids = malloc(sizeof *only.ids * (n->cpus.count + 1));
    if (!only.ids)
        return 0;
    for (size_t i = 0; i < n->cpus.count; i++)
        if (!o->common.cpus_given || cpu_list_contains(&o->common.cpus, n->cpus.ids[i]))
            only.ids[only.count++] = n->cpus.ids[i];
    int k = (int)traffic_cpus(t, &only, o->one_per_core, -1, true, out, (size_t)cap);
    cpu_list_free(&only);
    return k;
}

static int plan_rows(session *s, bwm_state *st, const traffic_options *o, int *most)
{
    int *cpus = calloc(s->topo.ncpus + 1, sizeof *cpus);
    st->rows = calloc(st->m.nrows, sizeof *st->rows);
    if (!cpus || !st->rows) {
        free(cpus);
        return session_bad_input(s, "out of memory planning the threads");
    }
    *most = 0;
    for (size_t r = 0; r < st->m.nrows; r++) {
        int n = row_cpus(&s->topo, o, st->m.row_nodes[r], cpus, (int)s->topo.ncpus);
        if (n > 0 && !placement_one_per_cpu(&s->topo, cpus, n, &st->rows[r])) {
            free(cpus);
            return session_bad_input(s, "out of memory planning the threads");
        }
        *most = n > *most ? n : *most;
    }
    free(cpus);
    if (*most == 0)
        return session_bad_input(s, "--cpus: none of its CPUs is usable on a node with CPUs");
    return 0;
}

/* The row whose threads need the largest buffers to reach the DRAM rule together
 * (its rule over its thread count, plan/dram_size.h): its basis, its thread count
 * in *threads. Every cell's buffers are that size. */
static dram_basis row_basis(const session *s, const bwm_state *st, int *threads)
{
    dram_basis best = dram_basis_for(&s->topo, NULL, 0);
    uint64_t need = 0;
    for (size_t r = 0; r < st->m.nrows; r++) {
        const placement *p = &st->rows[r];
        if (p->n <= 0)
            continue;
        int *cpus = malloc(sizeof(int) * (size_t)p->n);
        if (!cpus)
            continue;
        for (int i = 0; i < p->n; i++)
            cpus[i] = p->places[i].cpu;
        dram_basis b = dram_basis_for(&s->topo, cpus, (size_t)p->n);
        free(cpus);
        uint64_t per = (dram_rule_bytes(&b) + (uint64_t)p->n - 1) / (uint64_t)p->n;
        if (per > need) {
            need = per;
            best = b;
            *threads = p->n;
        }
    }
    return best;
}

static int plan_memory(session *s, bwm_state *st, const traffic_options *o, int most)
{
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    int threads = most;
    dram_basis b = row_basis(s, st, &threads);
    bool capped = false;
    st->bytes = o->buffer_bytes ? o->buffer_bytes
                                : traffic_buffer_default(dram_rule_bytes(&b), threads, st->buffers, budget, &capped);
    if (!o->buffer_bytes && st->bytes * (uint64_t)most * (uint64_t)st->buffers > budget / 2) {
        st->bytes = budget / 2 / ((uint64_t)most * (uint64_t)st->buffers); /* the busiest row must fit too */
        st->bytes -= st->bytes % (1 << 20);
        capped = true;
    }
    st->bytes -= st->bytes % 4096;
    double need = (double)st->bytes * most * st->buffers;
    if (st->bytes < ((uint64_t)1 << 20) || need > (double)budget)
        return session_bad_input(s,
                                 "%d threads x %d buffers of %llu MiB: more than can be allocated safely (%llu MiB: "
                                 "MemAvailable and cgroup limit, less a margin)",
                                 most, st->buffers, (unsigned long long)(st->bytes >> 20),
                                 (unsigned long long)(budget >> 20));
    session_dram_sized(s, &b, DRAM_FIGURE_BANDWIDTH, "each cell's buffers", st->bytes * (uint64_t)threads, o->buffer_bytes != 0, capped, true);
    page_policy_request pr = {(page_choice)o->common.pages, "--pages", st->bytes,
                              (uint64_t)most * (uint64_t)st->buffers, NULL};
    char err[256];
    if (!page_policy_choose(&s->topo, &pr, &st->pages, err, sizeof err))
        return session_bad_input(s, "%s", err);
    return 0;
}

static void describe(session *s, bwm_state *st, const traffic_options *o)
{
    param_list *p = &s->info.plan.values;
    snprintf(s->info.placement.policy, sizeof s->info.placement.policy, "%s of each node with CPUs, row by row",
             o->one_per_core ? "one traffic thread per core" : "every usable CPU");
    s->info.placement.pinned = true;
    params_textf(p, "method",
                 "%s %s traffic (%s) from every node with CPUs to memory bound (MPOL_BIND) to every node with memory; "
                 "%d buffer%s of %llu MiB per thread; median of %d windows of %g ms",
                 o->random ? "random-access" : "sequential", st->mix->name, st->mix->description, st->buffers, st->buffers == 1 ? "" : "s",
                 (unsigned long long)(st->bytes >> 20), o->samples,
                 o->window_ms);
    params_text(p, "traffic", st->mix->name);
    params_text(p, "access", o->random ? "random 256-byte blocks" : "sequential");
    params_number(p, "dram_factor", traffic_mix_dram_bytes(st->mix, 1));
    params_int(p, "buffer_bytes", (long long)st->bytes);
    params_int(p, "buffers_per_thread", st->buffers);
    params_int(p, "write_buffers_per_thread", traffic_mix_uses_write(st->mix));
    params_text(p, "memory_policy", "bind");
    params_text(p, "pages", st->pages.name);
    param_table *cols = section_table(&s->info.plan, "columns");
    for (size_t c = 0; c < st->m.ncols; c++)
        params_int(table_add_row(cols), "mem_node", st->m.col_nodes[c]);
    param_table *cells = section_table(&s->info.plan, "cells");
    for (size_t i = 0; i < st->m.ncells; i++) {
        const node_matrix_cell *c = &st->m.cells[i];
        param_list *row = table_add_row(cells);
        params_int(row, "row", (long long)c->row);
        params_int(row, "column", (long long)c->col);
        params_int(row, "cpu_node", c->cpu_node);
        params_int(row, "mem_node", c->mem_node);
        params_int(row, "threads", st->rows[c->row].n);
    }
}

static int bwm_plan(session *s)
{
    bwm_state *st = s->state;
    const traffic_options *o = s->opts;
    char err[256];
    int rc = traffic_check_cpus(s, o);
    if (rc)
        return rc;
    node_matrix_request rq = {false, -1, -1, NULL, 0};
    if (!node_matrix_plan(&s->topo, &rq, &st->m, err, sizeof err))
        return session_bad_input(s, "%s", err);
    st->mix = o->nmixes ? o->mixes[0] : traffic_mix_find("R");
    traffic_program prog;
    char why[200];
    if (!traffic_program_make(&prog, st->mix, o->common.kernel_isa, TRAFFIC_UNIT_FAST, why, sizeof why))
        return session_bad_input(s, "--traffic %s: %s", st->mix->name, why);
    st->buffers = traffic_mix_uses_read(st->mix) + traffic_mix_uses_second_read(st->mix) +
                  traffic_mix_uses_write(st->mix);
    int most = 0;
    rc = plan_rows(s, st, o, &most);
    if (rc == 0)
        rc = plan_memory(s, st, o, most);
    if (rc == 0)
        describe(s, st, o);
    return rc;
}

static void bwm_open_sinks(session *s)
{
    const traffic_options *o = s->opts;
    session_add_sink(s, bandwidth_matrix_sink_create(s->env.out, o->csv));
}

static void unavailable(session *s, bwm_state *st, size_t i, const char *why)
{
    const node_matrix_cell *c = &st->m.cells[i];
    st->unavailable++;
    session_warn(s, WARN_NOT_MEASURED, "node %d x memory node %d: %s: not measured ('-')", c->cpu_node, c->mem_node, why);
    param_list *row = table_add_row(section_table(&s->info.analysis, "unavailable_cells"));
    params_int(row, "cell", (long long)i);
    params_int(row, "cpu_node", c->cpu_node);
    params_int(row, "mem_node", c->mem_node);
    params_text(row, "reason", why);
}

/* One cell on the row's team: buffers bound to the column's node, one phase. */
static void measure_cell(session *s, bwm_state *st, team *t, size_t i)
{
    const traffic_options *o = s->opts;
    const node_matrix_cell *c = &st->m.cells[i];
    placement *row = &st->rows[c->row];
    uint64_t need = st->bytes * (uint64_t)row->n * (uint64_t)st->buffers;
    /* All of the row's buffers at once, with the node's margin: the threads allocate
     * them side by side, and each bound allocation alone sees the same free memory. */
    uint64_t free_bytes = platform_node_free_bytes(c->mem_node);
    if (free_bytes && free_bytes < need + node_margin_bytes_of(c->mem_node)) {
        unavailable(s, st, i, "the node has too little free memory for the buffers");
        return;
    }
    int *nodes = malloc(sizeof *nodes * (size_t)row->n);
    if (!nodes)
        return;
    for (int k = 0; k < row->n; k++)
        nodes[k] = row->places[k].mem_node = c->mem_node;
    traffic_setup setup = {.bytes = st->bytes,
                           .read = traffic_mix_uses_read(st->mix),
                           .read2 = traffic_mix_uses_second_read(st->mix),
                           .write = traffic_mix_uses_write(st->mix),
                           .pages = st->pages.request,
                           .huge_size = st->pages.huge_size,
                           .nodes = nodes,
                           .strict = true};
    traffic_run *run = NULL;
    measure_status ms = traffic_prepare(t, &setup, &run);
    if (ms == MEASURE_NO_MEMORY)
        unavailable(s, st, i, "the buffers could not be allocated on the node");
    traffic_program prog;
    char why[200];
    uint64_t delay = o->delay_given ? o->delay : 0;
    size_t unit = o->random ? TRAFFIC_UNIT_RANDOM : traffic_unit(delay, st->bytes);
    if (ms == MEASURE_OK && traffic_program_make(&prog, st->mix, o->common.kernel_isa, unit, why, sizeof why)) {
        prog.random = o->random;
        traffic_phase ph = {&prog, delay, o->window_ms / 1000.0, o->samples, o->per_thread};
        result_record r;
        result_init(&r, "bandwidth-matrix", st->mix->name, METRIC_BANDWIDTH);
        if (traffic_measure(run, &ph, &r) == MEASURE_OK) {
            session_record_placement(row, row->n, &r);
            params_int(&r.params, "row", (long long)c->row);
            params_int(&r.params, "column", (long long)c->col);
            params_int(&r.params, "cpu_node", c->cpu_node);
            params_int(&r.params, "mem_node", c->mem_node);
            if (r.node_local_fraction >= 0 && r.node_local_fraction < 0.9)
                session_warn(s, WARN_NODE_LOCALITY, "node %d x memory node %d: only %.0f%% of the sampled pages are on node %d",
                             c->cpu_node, c->mem_node, r.node_local_fraction * 100, c->mem_node);
            session_emit(s, &r);
        }
        result_free(&r);
    }
    traffic_release(run);
    free(nodes);
}

static void bwm_run(session *s)
{
    bwm_state *st = s->state;
    for (size_t r = 0; r < st->m.nrows && !session_stopped(s); r++) {
        placement *row = &st->rows[r];
        team *t = row->n ? session_team(s, row, row->n) : NULL;
        for (size_t i = 0; i < st->m.ncells && !session_stopped(s); i++) {
            if (st->m.cells[i].row != r)
                continue;
            session_progress(s, "[%zu/%zu] node %d x memory node %d", i + 1, st->m.ncells, st->m.cells[i].cpu_node,
                             st->m.cells[i].mem_node);
            session_step_begin(s);
            if (!t)
                unavailable(s, st, i, row->n ? "its threads could not start" : "no CPU of --cpus on this node");
            else
                measure_cell(s, st, t, i);
        }
        if (t)
            team_destroy(t);
        else if (row->n)
            return; /* session_team said why: the run has failed */
    }
}

static void bwm_release(session *s)
{
    bwm_state *st = s->state;
    for (size_t r = 0; st->rows && r < st->m.nrows; r++)
        placement_free(&st->rows[r]);
    free(st->rows);
    node_matrix_free(&st->m);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def bandwidth_matrix_mode = {
    .name = "bandwidth-matrix",
    .summary = "bandwidth from every CPU node to every memory node, per traffic type, like MLC",
    .options = &bandwidth_matrix_option_table,
    .options_size = sizeof(traffic_options),
    .defaults = peak_options_defaults,
    .check = bandwidth_matrix_options_check,
    .state_size = sizeof(bwm_state),
    .plan = bwm_plan,
    .open_sinks = bwm_open_sinks,
    .run = bwm_run,
    .release = bwm_release,
    .flags = MODE_DRAM_SIZES,
};
