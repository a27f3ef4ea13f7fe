/* SPDX-License-Identifier: MIT */
/* Options of `membench compare A.json B.json`, or of several runs a side,
 * `membench compare A1.json A2.json vs B1.json B2.json` (Go's benchstat for
 * membench runs), as one declarative table. */
#ifndef MEMBENCH_COMPARE_OPTIONS_H
#define MEMBENCH_COMPARE_OPTIONS_H

#include <stdbool.h>

#include "cli/options.h"

typedef struct {
    common_options common; /* -h, --json FILE, the run files */
    /* The runs of each side: the files before and after the separator word "vs"
     * (the two operands without it); point into the operands. */
    char **a_paths, **b_paths;
    int a_count, b_count;
    double threshold;      /* --threshold PCT; -1: none */
    bool force;            /* --force: compare runs of different hosts or options */
    bool within_run;       /* --within-run: intervals from the runs' own batches only */
} compare_options;

/* The word between A's runs and B's: a word and not "--", which getopt takes for
 * the end of the options and drops. */
#define COMPARE_SEPARATOR "vs"
/* Most run files a comparison takes, both sides together */
#define COMPARE_MAX_RUNS 1000

extern const option_table compare_option_table;
void compare_options_defaults(void *opts);
parse_result compare_options_check(void *opts, char *err, size_t errlen);

#endif
