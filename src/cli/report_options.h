/* SPDX-License-Identifier: MIT */
/* Options of `membench report [--baseline A.json] RUN.json [RUN2.json ...] -o report.html [--svg DIR]`,
 * as one declarative table. */
#ifndef MEMBENCH_REPORT_OPTIONS_H
#define MEMBENCH_REPORT_OPTIONS_H

#include "cli/options.h"

/* Runs one report takes (line styles repeat after six, the legend still names each). */
#define REPORT_MAX_RUNS 16

typedef struct {
    common_options common; /* -h, the run files */
    const char *output;    /* -o FILE */
    const char *svg_dir;   /* --svg DIR; NULL: none */
    const char *baseline;  /* --baseline FILE: the run the others are judged against; NULL: none */
} report_options;

extern const option_table report_option_table;
void report_options_defaults(void *opts);
parse_result report_options_check(void *opts, char *err, size_t errlen);

#endif
