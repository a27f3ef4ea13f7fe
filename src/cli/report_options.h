/* SPDX-License-Identifier: MIT */
/* Options of `membench report [--baseline A.json] RUN.json [RUN2.json ...] -o report.html [--svg DIR]
 *  [--csv FILE]`,
 * as one declarative table. */
#ifndef MEMBENCH_REPORT_OPTIONS_H
#define MEMBENCH_REPORT_OPTIONS_H

#include "cli/options.h"

/* Runs one report takes: a fleet's, one row each in its table (core/report_fleet.h);
 * charts overlay at most REPORT_CHART_RUNS (core/report_model.h) of them. */
#define REPORT_MAX_RUNS 100000
/* Runs --baseline judges, itself included (each gets a table of every figure). */
#define REPORT_MAX_BASELINE_RUNS 16

typedef struct {
    common_options common; /* -h, the run files */
    const char *output;    /* -o FILE; NULL: none (then --csv) */
    const char *csv;       /* --csv FILE: the fleet table as CSV; NULL: none */
    const char *svg_dir;   /* --svg DIR; NULL: none */
    const char *baseline;  /* --baseline FILE: the run the others are judged against; NULL: none */
} report_options;

extern const option_table report_option_table;
void report_options_defaults(void *opts);
parse_result report_options_check(void *opts, char *err, size_t errlen);

#endif
