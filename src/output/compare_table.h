/* SPDX-License-Identifier: MIT */
/* membench compare's table on stdout: one row per figure (A, B, B/A with its
 * interval, the verdict), then a summary line and the threshold's outcome. */
#ifndef MEMBENCH_COMPARE_TABLE_H
#define MEMBENCH_COMPARE_TABLE_H

#include <stdio.h>

#include "core/compare.h"

/* The lines naming the runs ("A: PATH (mode on host, kernel, date)", "B: ...";
 * with several runs a side "A1: ...", "A2: ..."):
 * printed (and flushed by the caller) before the figures are judged, which takes
 * seconds for thousands of them, so `compare ... | head -1` has its line at once
 * and its reader's going is seen while judging. */
void compare_table_print_runs(FILE *f, const compare_side *a, const compare_side *b);
/* The rest: how the verdicts are made, the table, the summary. threshold_pct < 0:
 * none given. */
void compare_table_print(FILE *f, const loaded_run *a, const loaded_run *b, const compare_report *r,
                         double threshold_pct);

#endif
