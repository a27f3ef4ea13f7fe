/* SPDX-License-Identifier: MIT */
/* What a report writer (report_html_write, report_csv_write) prints for a model,
 * captured in memory for the report tests. */
#ifndef MEMBENCH_TEST_REPORT_PAGE_H
#define MEMBENCH_TEST_REPORT_PAGE_H

#include <stdio.h>

#include "core/report_model.h"

/* A string to free. */
char *report_written(void (*write)(FILE *f, const report_model *m), const report_model *m);

#endif
