/* SPDX-License-Identifier: MIT */
/* `membench report`'s page: one self-contained HTML file (inline CSS and SVG, no
 * script, nothing fetched) with each run's identity (host, CPU, kernel, date,
 * options, topology summary, every warning and error, an "incomplete" banner for
 * a run stopped early) and the charts and tables of core/report_model.h. Every
 * string from a document is escaped (output/markup.h). */
#ifndef MEMBENCH_REPORT_HTML_H
#define MEMBENCH_REPORT_HTML_H

#include <stdio.h>

#include "core/report_model.h"

void report_html_write(FILE *f, const report_model *m);

#endif
