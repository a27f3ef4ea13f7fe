/* SPDX-License-Identifier: MIT */
/* Options of the sweep (membench with no subcommand): sc-membench's flags with the
 * same meaning, plus long options of our own, as one declarative table. */
#ifndef MEMBENCH_SWEEP_OPTIONS_H
#define MEMBENCH_SWEEP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"

#define MAX_TRIES 1000
#define MAX_SIZE_KB (1ULL << 40) /* 1 PiB: anything larger is a typo */
#define SWEEP_TIME_BUDGET_S 15.0 /* --time-budget's default: issue 38's goal for a default run */

enum { CSV_COLUMNS_SC_MEMBENCH, CSV_COLUMNS_MEMBENCH }; /* sc-membench's nine; then membench's */

typedef struct {
    common_options common;   /* -h -V -v -p --json --cpus --oversubscribe --kernel */
    uint64_t single_size_kb; /* -s; 0 = sweep */
    uint64_t max_size_kb;    /* --max-size: the sweep's sizes up to this; 0 = no cap */
    int tries;               /* -r */
    bool full;               /* -f */
    bool auto_scale;         /* -a */
    double max_runtime;      /* -t seconds; 0 = unlimited */
    unsigned ops_mask;       /* -o, default read/write/copy/latency */
    bool ops_given;
    bool human;              /* -R */
    int csv_columns;         /* --csv-columns: CSV_COLUMNS_* */
    bool csv_columns_given;
    double sample_ms;        /* --sample-ms: minimum duration of a bandwidth sample */
    double latency_sample_ms;
    uint64_t seed;           /* --seed: chase order */
    double target_ci_pct;    /* --target-ci: more rounds until every median interval is within ±this %; 0 = none */
    double max_time_s;       /* --max-time: no round starts after this many seconds; 0 = none */
    double time_budget_s;    /* --time-budget: rounds past -r only within this many seconds of measuring; 0 = none */
} sweep_options;

extern const option_table sweep_option_table;
void sweep_options_defaults(void *opts);
parse_result sweep_options_check(void *opts, char *err, size_t errlen);

#endif
