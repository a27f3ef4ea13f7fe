/* SPDX-License-Identifier: MIT */
/* Options of `membench compare A.json B.json` (Go's benchstat for membench runs),
 * as one declarative table. */
#ifndef MEMBENCH_COMPARE_OPTIONS_H
#define MEMBENCH_COMPARE_OPTIONS_H

#include <stdbool.h>

#include "cli/options.h"

typedef struct {
    common_options common; /* -h, --json FILE, the two files */
    double threshold;      /* --threshold PCT; -1: none */
    bool force;            /* --force: compare runs of different hosts or options */
    bool within_run;       /* --within-run: intervals from the runs' own batches only */
} compare_options;

extern const option_table compare_option_table;
void compare_options_defaults(void *opts);
parse_result compare_options_check(void *opts, char *err, size_t errlen);

#endif
