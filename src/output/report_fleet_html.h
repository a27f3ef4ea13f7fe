/* SPDX-License-Identifier: MIT */
/* The report's fleet table (core/report_fleet.h): a row per run, sortable by a
 * click on a column's header (one small inline script, nothing fetched). */
#ifndef MEMBENCH_REPORT_FLEET_HTML_H
#define MEMBENCH_REPORT_FLEET_HTML_H

#include <stdio.h>

#include "core/report_model.h"

void report_fleet_html(FILE *f, const report_model *m);

#endif
