/* SPDX-License-Identifier: MIT */
/* Where `membench report` writes: the HTML page and, with --svg DIR, each chart
 * as a standalone SVG file, every file replaced atomically (output/file_target.h:
 * a temporary file renamed over it), so a reader never sees half a report. */
#ifndef MEMBENCH_REPORT_FILES_H
#define MEMBENCH_REPORT_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report_model.h"

/* Checked before any run is read: false with "-o PATH: cannot write (why)" /
 * "--svg DIR: not a directory ..." in err; -o naming one of the runs[0..n) is
 * refused too (the report would overwrite what it reads). */
bool report_check_html_path(const char *path, const char *const *runs, size_t n, char *err, size_t errlen);
bool report_check_svg_dir(const char *dir, char *err, size_t errlen);
/* After the runs are read (a heatmap's file name depends on them): false when a
 * chart's file in dir would be the page html, the --csv table csv (either may be
 * NULL) or one of runs[0..n), or cannot be written, with "--svg DIR: ..." or
 * "--csv FILE: ..." in err. Checked before anything is written. */
bool report_check_svgs(const char *dir, const report_model *m, const char *html, const char *csv,
                       const char *const *runs, size_t n, char *err, size_t errlen);
/* False with the one-line reason in err. */
bool report_write_html(const char *path, const report_model *m, char *err, size_t errlen);
/* DIR/bandwidth.svg, latency.svg, loaded-latency.svg (those the runs have) and
 * DIR/KIND-RUN[-GROUP].svg for each heatmap (latency-matrix-1.svg,
 * bandwidth-matrix-1-R.svg, c2c-2-HITM.svg); *written counts them. */
bool report_write_svgs(const char *dir, const report_model *m, size_t *written, char *err, size_t errlen);

#endif
