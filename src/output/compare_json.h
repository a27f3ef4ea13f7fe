/* SPDX-License-Identifier: MIT */
/* membench compare --json FILE: the comparison as a document of its own
 * ("kind": "compare"; the rows of the table with every number unrounded). */
#ifndef MEMBENCH_COMPARE_JSON_H
#define MEMBENCH_COMPARE_JSON_H

#include <stdio.h>

#include "core/compare.h"

void compare_json_write(FILE *f, const compare_side *a, const compare_side *b, const compare_report *r,
                        double threshold_pct, const char *differences, bool forced);

#endif
