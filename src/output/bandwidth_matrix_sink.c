/* SPDX-License-Identifier: MIT */
#include "output/bandwidth_matrix_sink.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    sink base;
    FILE *f;
    bool csv;
    const param_table *cells; /* the plan's, alive for the run */
    size_t ncols;
    double *row;  /* MB/s of the row being filled, NAN for '-' */
    int cur_row;  /* -1: none yet */
    int next_row; /* the first row not written */
} bwm_sink;

static int cell_int(const param_list *c, const char *key)
{
    return (int)params_get_number(c, key, -1);
}

/* The "Numa node" label of row r: the first planned cell of that row says it. */
static int row_node(const bwm_sink *m, int r)
{
    for (size_t i = 0; m->cells && i < m->cells->nrows; i++)
        if (cell_int(&m->cells->rows[i], "row") == r)
            return cell_int(&m->cells->rows[i], "cpu_node");
    return -1;
}

static int nrows(const bwm_sink *m)
{
    int n = 0;
    for (size_t i = 0; m->cells && i < m->cells->nrows; i++)
        n = cell_int(&m->cells->rows[i], "row") + 1 > n ? cell_int(&m->cells->rows[i], "row") + 1 : n;
    return n;
}

static void flush_row(bwm_sink *m, int r)
{
    fprintf(m->f, "%9d", row_node(m, r));
    for (size_t c = 0; c < m->ncols; c++) {
        if (r == m->cur_row && !isnan(m->row[c]))
            fprintf(m->f, "\t%9.1f", m->row[c]);
        else
            fprintf(m->f, "\t%9s", "-");
    }
    fputc('\n', m->f);
}

/* Writes every row before `upto` (the current one with its values, others as '-'). */
static void write_rows_before(bwm_sink *m, int upto)
{
    for (; m->next_row < upto; m->next_row++)
        flush_row(m, m->next_row);
}

static void begin(sink *s, const run_info *info)
{
    bwm_sink *m = (bwm_sink *)s;
    m->cells = section_find_table(&info->plan, "cells");
    const param_table *cols = section_find_table(&info->plan, "columns");
    m->ncols = cols ? cols->nrows : 0;
    m->row = calloc(m->ncols ? m->ncols : 1, sizeof *m->row);
    m->cur_row = -1;
    if (m->csv) {
        fputs(BANDWIDTH_MATRIX_CSV_HEADER "\n", m->f);
        fflush(m->f);
        return;
    }
    const char *traffic = params_get_text(&info->plan.values, "traffic");
    fprintf(m->f, "# membench bandwidth-matrix: %s\n", params_get_text(&info->plan.values, "method"));
    fprintf(m->f, "Bandwidths are in MB/sec (1 MB/sec = 1,000,000 Bytes/sec)\n");
    fprintf(m->f, "Using traffic type %s: application bytes; DRAM traffic = x%.3g (write-allocate reads)\n",
            traffic ? traffic : "?", params_get_number(&info->plan.values, "dram_factor", 1));
    fprintf(m->f, "\t\tNuma node\nNuma node");
    for (size_t c = 0; cols && c < m->ncols; c++)
        fprintf(m->f, "\t%9d", cell_int(&cols->rows[c], "mem_node"));
    fputc('\n', m->f);
    fflush(m->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    bwm_sink *m = (bwm_sink *)s;
    int row = (int)params_get_number(&r->params, "row", -1), col = (int)params_get_number(&r->params, "column", -1);
    if (m->csv) {
        fprintf(m->f, "%d,%d,%d,%s,%.1f,%.1f,%.1f,%.4f,%d,", (int)params_get_number(&r->params, "cpu_node", -1),
                (int)params_get_number(&r->params, "mem_node", -1), r->threads, r->operation, result_value(r),
                params_get_number(&r->params, "dram_mb_s", 0), r->summary.max, r->summary.cv, r->nsamples);
        if (r->node_local_fraction >= 0)
            fprintf(m->f, "%.3f", r->node_local_fraction);
        fputc('\n', m->f);
        fflush(m->f);
        return;
    }
    if (row < 0 || col < 0 || (size_t)col >= m->ncols || !m->row)
        return;
    if (row != m->cur_row) {
        write_rows_before(m, row); /* the row before, and any with nothing measured */
        m->cur_row = row;
        for (size_t c = 0; c < m->ncols; c++)
            m->row[c] = NAN;
    }
    m->row[col] = result_value(r);
}

static void end(sink *s, const run_info *info)
{
    (void)info;
    bwm_sink *m = (bwm_sink *)s;
    if (!m->csv && m->row) {
        /* a stopped run writes the row it was in; a complete one also the rows with nothing measured */
        write_rows_before(m, info->complete ? nrows(m) : m->cur_row + 1);
        fflush(m->f);
    }
}

static void destroy(sink *s)
{
    bwm_sink *m = (bwm_sink *)s;
    free(m->row);
    free(m);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *bandwidth_matrix_sink_create(FILE *f, bool csv)
{
    bwm_sink *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &ops;
    m->f = f;
    m->csv = csv;
    return &m->base;
}
