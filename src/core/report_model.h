/* SPDX-License-Identifier: MIT */
/* What `membench report` shows, worked out from the runs read back
 * (core/run_load.h) before anything is drawn: which charts the runs' records
 * call for, their series and points with the raw samples' spread, the cache
 * sizes to mark, the matrices as grids, STREAM's rows with % of peak, and every
 * other record in a table. Records are sorted into them by their own mode:
 *   sweep bandwidth        -> "bandwidth" chart (x: buffer size, log2)
 *   sweep and latency      -> "latency" chart (x: buffer size, log2)
 *   loaded-latency         -> "loaded-latency" chart (x: bandwidth, y: latency)
 *   latency-matrix, bandwidth-matrix, c2c -> heatmaps, one per run and kind
 *   stream                 -> the STREAM table
 *   anything else          -> the table of other results
 * Several runs share the line charts (a series per run and operation). */
#ifndef MEMBENCH_REPORT_MODEL_H
#define MEMBENCH_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/compare.h"
#include "core/run_load.h"

typedef struct {
    double x, y;          /* y: the median of the record's samples (its value, for a latency) */
    double best;          /* the best sample, marked apart (a bandwidth's reported value); NaN: none */
    double low, high;     /* the whisker: see whisker_name */
    const char *whisker_name; /* the tooltip's: "host interval" or "median interval" */
    const loaded_record *rec;
    const char *verdict;  /* a ratio chart's: compare's verdict on B/A; else NULL */
    /* The record's samples fell in two levels (util/stats.h; 0: one level): drawn
     * hollow, the levels in the tooltip. */
    size_t low_level_n, high_level_n;
    double low_level_median, high_level_median;
} chart_point;

typedef struct {
    const char *operation; /* the series' name */
    size_t run;            /* index into the runs */
    size_t color;          /* index of the operation in the chart (same colour in every run) */
    chart_point *points;   /* ascending x */
    size_t count;
} chart_series;

typedef struct {
    double x;
    char label[64];        /* "L2 512 KiB (sysfs)", "L1 measured 32 KiB" */
    bool measured;
} chart_marker;

/* LINE_RATIO: with a baseline, each other run's figures as B/A against size. */
enum { LINE_BANDWIDTH, LINE_LATENCY, LINE_LOADED, LINE_RATIO, LINE_CHARTS };

typedef struct {
    const char *id;        /* data-chart: "bandwidth", "latency", "loaded-latency" */
    const char *title, *x_label, *y_label, *caption;
    bool x_log2, y_log2;
    double y_scale;        /* drawn as y / y_scale: MB/s as GB/s (1000); data-* keep the JSON's */
    chart_series *series;
    size_t nseries;
    chart_marker *markers;
    size_t nmarkers;
    size_t noperations;    /* distinct operations (colours) */
} line_chart;

typedef struct {
    const char *id;        /* data-chart: "latency-matrix", "bandwidth-matrix", "c2c" */
    char title[160];
    char group[48];        /* bandwidth-matrix: the traffic type; c2c: HIT or HITM; else "" */
    size_t run;
    const char *unit;
    size_t rows, cols;
    char (*row_labels)[32], (*col_labels)[32];
    const char *row_title, *col_title;
    double *values;        /* rows x cols, NaN where nothing was measured */
    const loaded_record **cells;
} heat_chart;

typedef struct {
    size_t run;
    const loaded_record *rec;
    const char *configuration, *stores; /* NULL: not in the record */
    double peak_mb_s;      /* 0: the run states no peak */
} stream_row;

typedef struct {
    size_t run;
    const loaded_record *rec;
} other_row;

/* A run's STREAM kernels with regular and with non-temporal stores: the best
 * record of each (any configuration); drawn only when the run has both kinds. */
enum { STREAM_KERNELS = 4 };
extern const char *const stream_kernels[STREAM_KERNELS]; /* "copy", "scale", "add", "triad" */
typedef struct {
    size_t run;
    const loaded_record *bars[STREAM_KERNELS][2]; /* [kernel][0 regular, 1 non-temporal]; NULL: none */
} stream_chart;

typedef struct {
    const loaded_run *runs;
    const char *const *names;
    size_t nruns;
    line_chart lines[LINE_CHARTS];
    heat_chart *heats;
    size_t nheats;
    stream_row *stream;
    size_t nstream;
    other_row *others;
    size_t nothers;
    stream_chart *stream_charts;
    size_t nstream_charts;
    /* With a baseline (runs[0]): compare's figures for each other run i against it,
     * vs_baseline[i - 1]; NULL without one. */
    compare_report *vs_baseline;
} report_model;

/* Runs a page overlays in its charts; a report of more runs (a fleet's) is its
 * table (output/report_fleet_html.c) without charts, which are not built. */
#define REPORT_CHART_RUNS 8

/* Sorts the records of runs[0..n) (named names[i], shown as the run's label) into
 * charts and tables. False only when memory runs out (m is then freed). */
bool report_model_build(report_model *m, const loaded_run *runs, const char *const *names, size_t n);
/* Judges every other run against runs[0] as `membench compare` does (core/compare.c:
 * B/A with its interval, widened by both hosts' noise, and its verdict) and draws
 * the ratios (LINE_RATIO). False only when memory runs out (m is then freed). */
bool report_model_add_baseline(report_model *m);
void report_model_free(report_model *m);

/* The record's params.KEY as a number / text, when it is one. */
bool record_param_number(const loaded_record *r, const char *key, double *out);
const char *record_param_text(const loaded_record *r, const char *key);

#endif
