/* SPDX-License-Identifier: MIT */
#include "output/latency_matrix_sink.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    int row, col, cpu_node, cpu, mem_node;
} cell;

typedef struct {
    sink base;
    FILE *f, *err;
    bool csv, every_cpu;
    cell *cells;
    size_t ncells, next; /* cells planned; the first not yet written */
    int *col_nodes;
    size_t ncols;
    double *row_ns;      /* the matrix row being filled (NAN: '-') */
    int cur_row;         /* -1: none */
} matrix_sink;

static int row_int(const param_list *l, const char *key)
{
    return (int)params_get_number(l, key, -1);
}

static bool load_plan(matrix_sink *m, const run_info *info)
{
    const param_table *cells = section_find_table(&info->plan, "cells");
    const param_table *cols = section_find_table(&info->plan, "columns");
    const param *ec = params_find(&info->plan.values, "every_cpu");
    m->every_cpu = ec && ec->kind == PARAM_BOOL && ec->flag;
    m->ncells = cells ? cells->nrows : 0;
    m->ncols = cols ? cols->nrows : 0;
    m->cells = calloc(m->ncells ? m->ncells : 1, sizeof *m->cells);
    m->col_nodes = calloc(m->ncols ? m->ncols : 1, sizeof *m->col_nodes);
    m->row_ns = calloc(m->ncols ? m->ncols : 1, sizeof *m->row_ns);
    if (!m->cells || !m->col_nodes || !m->row_ns)
        return false;
    for (size_t i = 0; i < m->ncells; i++) {
        const param_list *c = &cells->rows[i];
        m->cells[i] = (cell){row_int(c, "row"), row_int(c, "column"), row_int(c, "cpu_node"), row_int(c, "cpu"),
                             row_int(c, "mem_node")};
    }
    for (size_t i = 0; i < m->ncols; i++)
        m->col_nodes[i] = row_int(&cols->rows[i], "mem_node");
    return true;
}

static void write_matrix_row(matrix_sink *m)
{
    if (m->cur_row < 0)
        return;
    int cpu_node = -1, cpu = -1;
    for (size_t i = 0; i < m->ncells; i++)
        if (m->cells[i].row == m->cur_row) {
            cpu_node = m->cells[i].cpu_node;
            cpu = m->cells[i].cpu;
            break;
        }
    fprintf(m->f, "%9d", cpu_node);
    for (size_t c = 0; c < m->ncols; c++) {
        if (isnan(m->row_ns[c]))
            fprintf(m->f, "%10s", "-");
        else
            fprintf(m->f, "%10.1f", m->row_ns[c]);
    }
    fprintf(m->f, "    CPU %d\n", cpu);
    m->cur_row = -1;
}

/* Cell i, measured (r) or not (NULL). */
static void write_cell(matrix_sink *m, size_t i, const result_record *r)
{
    const cell *c = &m->cells[i];
    if (m->csv) {
        fprintf(m->f, "%d,%d,%d,", c->cpu_node, c->mem_node, c->cpu);
        if (r) {
            fprintf(m->f, "%.3f,%.3f,%d,%d,", r->summary.median, r->summary.stddev, r->nsamples,
                    r->converged ? 1 : 0);
            if (r->node_local_fraction >= 0)
                fprintf(m->f, "%.3f", r->node_local_fraction);
            fprintf(m->f, ",%s,", r->page_method ? r->page_method : "");
            if (r->huge_coverage >= 0)
                fprintf(m->f, "%.3f", r->huge_coverage);
            fprintf(m->f, ",%llu\n", (unsigned long long)r->size_bytes);
        } else {
            fputs(",,,,,,,\n", m->f);
        }
    } else if (m->every_cpu) {
        fprintf(m->f, "%5d %6d %10d", c->cpu, c->cpu_node, c->mem_node);
        if (r && r->node_local_fraction >= 0)
            fprintf(m->f, " %12.1f %8.2f %8d %13.0f%%\n", r->summary.median, r->summary.stddev, r->nsamples,
                    r->node_local_fraction * 100);
        else if (r)
            fprintf(m->f, " %12.1f %8.2f %8d %14s\n", r->summary.median, r->summary.stddev, r->nsamples, "?");
        else
            fprintf(m->f, " %12s\n", "-");
    } else {
        if (c->row != m->cur_row) {
            write_matrix_row(m);
            for (size_t k = 0; k < m->ncols; k++)
                m->row_ns[k] = NAN;
            m->cur_row = c->row;
        }
        if (r && c->col >= 0 && (size_t)c->col < m->ncols)
            m->row_ns[c->col] = r->summary.median;
    }
}

static void begin(sink *s, const run_info *info)
{
    matrix_sink *m = (matrix_sink *)s;
    if (!load_plan(m, info))
        m->ncells = m->ncols = 0;
    if (m->csv) {
        fputs(LATENCY_MATRIX_CSV_HEADER "\n", m->f);
    } else {
        fprintf(m->f, "# membench latency-matrix: %s\n", params_get_text(&info->plan.values, "method"));
        if (m->every_cpu) {
            fprintf(m->f, "Idle latency (ns), one row per CPU\n");
            fprintf(m->f, "%5s %6s %10s %12s %8s %8s %14s\n", "CPU", "Node", "Mem node", "Latency ns", "Stddev",
                    "Samples", "Pages on node");
        } else {
            fprintf(m->f, "Idle latency (ns), chaser on a CPU of the row's node, memory bound to the column's "
                          "node\n");
            fprintf(m->f, "%9s %10s\n", "", "Numa node");
            fprintf(m->f, "Numa node");
            for (size_t c = 0; c < m->ncols; c++)
                fprintf(m->f, "%10d", m->col_nodes[c]);
            fputs("    chaser\n", m->f);
        }
    }
    fflush(m->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    matrix_sink *m = (matrix_sink *)s;
    int i = (int)params_get_number(&r->params, "cell", -1);
    if (i < 0 || (size_t)i >= m->ncells)
        return;
    for (; m->next < (size_t)i; m->next++)
        write_cell(m, m->next, NULL); /* reported unavailable by the mode */
    write_cell(m, m->next++, r);
    fflush(m->f);
}

static void write_summary(FILE *f, const param_list *a)
{
    if (params_find(a, "local_min_ns"))
        fprintf(f, "Local (memory on the chaser's node): %.1f to %.1f ns\n", params_get_number(a, "local_min_ns", 0),
                params_get_number(a, "local_max_ns", 0));
    if (params_find(a, "remote_min_ns"))
        fprintf(f, "Remote: %.1f ns (node %d -> %d) to %.1f ns (node %d -> %d)\n",
                params_get_number(a, "remote_min_ns", 0), row_int(a, "remote_min_cpu_node"),
                row_int(a, "remote_min_mem_node"), params_get_number(a, "remote_max_ns", 0),
                row_int(a, "remote_max_cpu_node"), row_int(a, "remote_max_mem_node"));
    if (params_find(a, "slowest_ns"))
        fprintf(f, "Slowest: CPU %d (node %d) %.1f ns; fastest: CPU %d (node %d) %.1f ns\n",
                row_int(a, "slowest_cpu"), row_int(a, "slowest_cpu_node"), params_get_number(a, "slowest_ns", 0),
                row_int(a, "fastest_cpu"), row_int(a, "fastest_cpu_node"), params_get_number(a, "fastest_ns", 0));
    long unavailable = (long)params_get_number(a, "cells_unavailable", 0);
    if (unavailable > 0)
        fprintf(f, "%ld cell(s) not measured ('-'): the node could not hold the buffer\n", unavailable);
}

static void end(sink *s, const run_info *info)
{
    matrix_sink *m = (matrix_sink *)s;
    /* a complete run measured or reported every cell: the rest are unavailable */
    for (; info->complete && m->next < m->ncells; m->next++)
        write_cell(m, m->next, NULL);
    if (!m->csv && !m->every_cpu)
        write_matrix_row(m);
    if (!info->complete && m->next < m->ncells)
        fprintf(m->csv ? m->err : m->f, "# stopped: %zu of %zu cells not measured\n", m->ncells - m->next,
                m->ncells);
    if (info->results && info->results->n > 0)
        write_summary(m->csv ? m->err : m->f, &info->analysis.values);
    fflush(m->f);
}

static void destroy(sink *s)
{
    matrix_sink *m = (matrix_sink *)s;
    free(m->cells);
    free(m->col_nodes);
    free(m->row_ns);
    free(m);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *latency_matrix_sink_create(FILE *f, FILE *err, bool csv)
{
    matrix_sink *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &ops;
    m->f = f;
    m->err = err;
    m->csv = csv;
    m->cur_row = -1;
    return &m->base;
}
