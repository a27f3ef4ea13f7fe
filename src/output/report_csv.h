/* SPDX-License-Identifier: MIT */
/* `membench report --csv FILE`: the fleet table (core/report_fleet.h) for
 * spreadsheets, one row per run under a header of the columns, units in their
 * names. Numbers plain (no thousands separators), a missing figure empty, text
 * quoted and, where it starts as a formula would (= + - @), led by a ' so that no
 * spreadsheet runs it. */
#ifndef MEMBENCH_REPORT_CSV_H
#define MEMBENCH_REPORT_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "core/report_model.h"

void report_csv_write(FILE *f, const report_model *m);
/* Replaced atomically, as -o; false with the one-line reason in err. */
bool report_write_csv(const char *path, const report_model *m, char *err, size_t errlen);

#endif
