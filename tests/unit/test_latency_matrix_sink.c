/* SPDX-License-Identifier: MIT */
/* The latency-matrix output: cells laid out from the plan, '-' for a planned cell
 * the mode did not measure, CSV with a line per cell, and nothing invented for the
 * cells a stopped run never reached. */
#include <stdlib.h>
#include <string.h>

#include "core/run_info.h"
#include "output/latency_matrix_sink.h"
#include "sink_capture.h"
#include "test.h"

/* A 2x2 plan: rows node 0 (CPU 0) and node 1 (CPU 4), columns nodes 0 and 3. */
static void plan_2x2(run_info *info)
{
    memset(info, 0, sizeof *info);
    params_text(&info->plan.values, "method", "test");
    params_bool(&info->plan.values, "every_cpu", false);
    param_table *cols = section_table(&info->plan, "columns");
    params_int(table_add_row(cols), "mem_node", 0);
    params_int(table_add_row(cols), "mem_node", 3);
    param_table *cells = section_table(&info->plan, "cells");
    for (int i = 0; i < 4; i++) {
        param_list *c = table_add_row(cells);
        params_int(c, "row", i / 2);
        params_int(c, "column", i % 2);
        params_int(c, "cpu_node", i / 2);
        params_int(c, "cpu", i / 2 * 4);
        params_int(c, "mem_node", i % 2 ? 3 : 0);
    }
}

static result_record cell(int i, double ns)
{
    result_record r;
    result_init(&r, "latency-matrix", "latency", METRIC_LATENCY);
    double s[] = {ns, ns, ns};
    result_set_samples(&r, s, 3);
    r.size_bytes = 1 << 20;
    r.node_local_fraction = 1;
    result_add_buffer(&r, "normal", 1 << 20, 0.25);
    params_int(&r.params, "cell", i);
    return r;
}

/* Cells 1 and 3 measured (0 and 2 were reported unavailable); complete or not. */
static char *render(bool csv, bool complete, int last)
{
    run_info info;
    plan_2x2(&info);
    result_record recs[2];
    size_t n = 0;
    for (int i = 1; i <= last; i += 2)
        recs[n++] = cell(i, 100 + i);
    sink_capture c;
    FILE *f = sink_capture_open(&c);
    return sink_capture_run(&c, latency_matrix_sink_create(f, f, csv), &info, recs, n, complete);
}

TEST(latency_matrix_sink_dashes_where_no_cell_was_measured)
{
    char *text = render(false, true, 3);
    CHECK_CONTAINS(text, "Numa node         0         3    chaser\n");
    CHECK_CONTAINS(text, "\n        0         -     101.0    CPU 0\n");
    CHECK_CONTAINS(text, "\n        1         -     103.0    CPU 4\n");
    free(text);
}

TEST(latency_matrix_sink_csv_a_line_per_cell_empty_when_not_measured)
{
    char *text = render(true, true, 3);
    CHECK_STR(text, LATENCY_MATRIX_CSV_HEADER "\n"
                                              "0,0,0,,,,,,,,\n"
                                              "0,3,0,101.000,0.000,3,0,1.000,normal,0.250,1048576\n"
                                              "1,0,4,,,,,,,,\n"
                                              "1,3,4,103.000,0.000,3,0,1.000,normal,0.250,1048576\n");
    free(text);
}

TEST(latency_matrix_sink_a_stopped_run_leaves_unreached_cells_out)
{
    /* stopped after cell 1: cells 2 and 3 were never tried, so no line for them */
    char *text = render(true, false, 1);
    CHECK_STR(text, LATENCY_MATRIX_CSV_HEADER "\n"
                                              "0,0,0,,,,,,,,\n"
                                              "0,3,0,101.000,0.000,3,0,1.000,normal,0.250,1048576\n"
                                              "# stopped: 2 of 4 cells not measured\n");
    free(text);
}
