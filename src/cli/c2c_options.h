/* SPDX-License-Identifier: MIT */
/* Options of `membench c2c` (Intel MLC --c2c_latency):
 * cache-to-cache transfer latency, as one declarative table. */
#ifndef MEMBENCH_C2C_OPTIONS_H
#define MEMBENCH_C2C_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"

typedef struct {
    common_options common; /* -h -v --json */
    int writer, reader;    /* --writer/--reader: one pair; -1 = the default run */
    bool writer_given, reader_given;
    int home;              /* --home: memory node; -1 = the writer's and the reader's */
    bool home_given;
    bool clean;            /* --clean: HIT only */
    bool smt;              /* --smt: the local pair is two SMT siblings */
    bool matrix;           /* --matrix: every ordered pair of CPUs */
    const char *cpus;      /* --cpus LIST for --matrix; NULL = every usable CPU */
    uint64_t window;       /* bytes; 0 = half the writer's L2 */
    bool csv;
} c2c_options;

extern const option_table c2c_option_table;
void c2c_options_defaults(void *opts);
parse_result c2c_options_check(void *opts, char *err, size_t errlen);

#endif
