/* SPDX-License-Identifier: MIT */
/* The bandwidth-matrix output: a cell's MB/s under its memory node's column in its
 * CPU node's row, '-' where none was measured, and CSV naming the CPU node first,
 * the memory node second (issue 34: a swap of the two passed every test; a one-node
 * host cannot tell them apart, this plan can). */
#include <stdlib.h>
#include <string.h>

#include "core/run_info.h"
#include "output/bandwidth_matrix_sink.h"
#include "sink_capture.h"
#include "test.h"

/* Rows: CPU nodes 1 and 2; columns: memory nodes 0 and 3. Cell i is row i / 2,
 * column i % 2. */
static const int row_nodes[] = {1, 2}, col_nodes[] = {0, 3};

static void plan_2x2(run_info *info)
{
    memset(info, 0, sizeof *info);
    params_text(&info->plan.values, "method", "test");
    params_text(&info->plan.values, "traffic", "ALL Reads");
    param_table *cols = section_table(&info->plan, "columns");
    for (int c = 0; c < 2; c++)
        params_int(table_add_row(cols), "mem_node", col_nodes[c]);
    param_table *cells = section_table(&info->plan, "cells");
    for (int i = 0; i < 4; i++) {
        param_list *c = table_add_row(cells);
        params_int(c, "row", i / 2);
        params_int(c, "column", i % 2);
        params_int(c, "cpu_node", row_nodes[i / 2]);
        params_int(c, "mem_node", col_nodes[i % 2]);
    }
}

static result_record cell(int i, double mb_s)
{
    result_record r;
    result_init(&r, "bandwidth-matrix", "ALL Reads", METRIC_BANDWIDTH);
    double s[] = {mb_s, mb_s, mb_s};
    result_set_samples(&r, s, 3);
    r.threads = 2;
    r.node_local_fraction = 1;
    params_int(&r.params, "row", i / 2);
    params_int(&r.params, "column", i % 2);
    params_int(&r.params, "cpu_node", row_nodes[i / 2]);
    params_int(&r.params, "mem_node", col_nodes[i % 2]);
    params_number(&r.params, "dram_mb_s", mb_s);
    return r;
}

/* Cells 0, 1 and 3 measured (cell 2, node 2 x node 0, not): MB/s 1000 + 10 i. */
static char *render(bool csv)
{
    run_info info;
    plan_2x2(&info);
    result_record recs[] = {cell(0, 1000), cell(1, 1010), cell(3, 1030)};
    sink_capture c;
    return sink_capture_run(&c, bandwidth_matrix_sink_create(sink_capture_open(&c), csv), &info, recs, 3, true);
}

TEST(bandwidth_matrix_sink_cells_under_their_memory_node_in_their_cpu_node_row)
{
    char *text = render(false);
    CHECK_CONTAINS(text, "Numa node\t        0\t        3\n");
    CHECK_CONTAINS(text, "\n        1\t   1000.0\t   1010.0\n");
    CHECK_CONTAINS(text, "\n        2\t        -\t   1030.0\n");
    free(text);
}

TEST(bandwidth_matrix_sink_csv_names_the_cpu_node_then_the_memory_node)
{
    char *text = render(true);
    CHECK_STR(text, BANDWIDTH_MATRIX_CSV_HEADER "\n"
                                                "1,0,2,ALL Reads,1000.0,1000.0,1000.0,0.0000,3,1.000\n"
                                                "1,3,2,ALL Reads,1010.0,1010.0,1010.0,0.0000,3,1.000\n"
                                                "2,3,2,ALL Reads,1030.0,1030.0,1030.0,0.0000,3,1.000\n");
    free(text);
}
