/* SPDX-License-Identifier: MIT */
/* The report's charts as SVG: a line chart (series of points with whiskers,
 * cache markers, axes, legend) and a heatmap, from core/report_model.h and the
 * geometry of core/chart_axis.h. The same markup goes inline into the HTML
 * report and, standalone (with the XML declaration), into --svg's files. It
 * carries data-* attributes (data-chart, data-series, data-run, data-size,
 * data-value) so a test can read back from a browser's DOM what was drawn. */
#ifndef MEMBENCH_SVG_CHART_H
#define MEMBENCH_SVG_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "core/chart_axis.h"
#include "core/report_model.h"

/* The axes svg_line_chart draws c with (y in c's units over y_scale): a test maps
 * a value through them to the pixel it must be drawn at. */
void svg_line_axes(const line_chart *c, chart_axis *x, chart_axis *y);
void svg_line_chart(FILE *f, const line_chart *c, const char *const *run_names, bool standalone);
void svg_stream_chart(FILE *f, const stream_chart *c, const char *run_name, bool standalone);
void svg_heat_chart(FILE *f, const heat_chart *h, const char *run_name, bool standalone);

#endif
