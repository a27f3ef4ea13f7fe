/* SPDX-License-Identifier: MIT */
/* --target-ci and --max-time, the same flags with the same meaning, ranges and
 * errors in every mode that measures in rounds (the sweep, membench latency):
 * each mode's table takes them with these two macros, naming the fields of its
 * options struct that hold them and the flag that sets its rounds ("-r"). */
#ifndef MEMBENCH_CLI_TARGET_OPTIONS_H
#define MEMBENCH_CLI_TARGET_OPTIONS_H

#include <stddef.h>

#include "cli/options.h"

#define TARGET_CI_DEFAULT_MAX_TIME_S 60 /* --max-time when --target-ci comes alone */

#define OPTION_TARGET_CI(type, field, rounds_flag)                                                                    \
    {.long_name = "target-ci", .value_name = "PCT", .kind = OPT_DOUBLE, .key = "target_ci_pct",                      \
     .offset = offsetof(type, field), .min = 0.01, .max = 100, .bad = "must be a percentage from 0.01 to 100",      \
     .help = "After the " rounds_flag " rounds, more rounds of the points\nwhose median interval is wider "      \
             "than +-PCT %\nor covers less than 95% (6 rounds at least),\nuntil all are within it or --max-time is reached"}

#define OPTION_MAX_TIME(type, field)                                                                                  \
    {.long_name = "max-time", .value_name = "SECONDS", .kind = OPT_DOUBLE, .key = "max_time_s",                     \
     .offset = offsetof(type, field), .min = 0.01, .max = 1e9, .bad = "must be a number of seconds above 0",        \
     .help = "No new round starts after this many seconds\n(default with --target-ci: 60; a round under "      \
             "way\nfinishes)"}

/* The rule between the two: --target-ci alone gets the default --max-time. */
static inline void target_options_check(double target_ci_pct, double *max_time_s)
{
    if (target_ci_pct > 0 && *max_time_s == 0)
        *max_time_s = TARGET_CI_DEFAULT_MAX_TIME_S;
}

#endif
