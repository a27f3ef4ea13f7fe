/* SPDX-License-Identifier: MIT */
/* Options of `membench stream`: STREAM's rules with membench's placement, as one
 * declarative table. */
#ifndef MEMBENCH_STREAM_OPTIONS_H
#define MEMBENCH_STREAM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"

typedef enum { STORES_REGULAR = 1, STORES_NT = 2, STORES_BOTH = 3 } stream_stores;

typedef struct {
    common_options common; /* -h -v -p --cpus --oversubscribe --kernel --json */
    uint64_t n;          /* elements per array; 0 = 4x the total last-level cache */
    bool n_given;
    int ntimes;
    int stores_choice;   /* index into regular, nt, both */
    bool stores_given;   /* --stores said; else NT is dropped where there is no NT kernel */
    bool scan;
    double peak_gbs;     /* 0 = detect */
} stream_options;

extern const option_table stream_option_table;
void stream_options_defaults(void *opts);
parse_result stream_options_check(void *opts, char *err, size_t errlen);
stream_stores stream_options_stores(const stream_options *o);

#endif
