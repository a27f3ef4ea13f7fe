/* SPDX-License-Identifier: MIT */
#include "core/report_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/chart_axis.h"
#include "topology/cache_source.h"
#include "util/format_bytes.h"
#include "util/stats.h"

bool record_param_number(const loaded_record *r, const char *key, double *out)
{
    return json_get_number(json_get_object(r->json, "params"), key, out);
}

const char *record_param_text(const loaded_record *r, const char *key)
{
    return json_get_text(json_get_object(r->json, "params"), key);
}

/* A median's whisker: the record's summary.host_interval (its median interval
 * widened by how much the host moved during the run: runs differ by more than one
 * run's samples show), else its summary.median_interval (over time batches of its
 * samples, which the samples alone do not show); recomputed from the samples, as
 * independent, for a document without either. *name: which, as the tooltip says it. */
static chart_whisker record_median_interval(const loaded_record *r, const char **name)
{
    const json_value *summary = json_get_object(r->json, "summary");
    static const char *const keys[] = {"host_interval", "median_interval"};
    static const char *const names[] = {"host interval", "median interval"};
    for (int k = 0; k < 2; k++) {
        const json_value *iv = json_get_object(summary, keys[k]);
        chart_whisker w;
        if (json_get_number(iv, "low", &w.low) && json_get_number(iv, "high", &w.high) && w.low <= w.high) {
            *name = names[k];
            return w;
        }
    }
    *name = "median interval";
    return chart_whisker_median_ci(r->samples, r->nsamples);
}

/* Grows *items (of size each) to hold one more than *count; false when out of memory. */
static bool grow(void *items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return true;
    size_t n = *cap ? 2 * *cap : 8;
    void *p = realloc(*(void **)items, n * size);
    if (!p)
        return false;
    *(void **)items = p;
    *cap = n;
    return true;
}

static const line_chart line_templates[LINE_CHARTS] = {
    [LINE_BANDWIDTH] = {.id = "bandwidth", .title = "Bandwidth against buffer size", .x_log2 = true,
                        .x_label = "buffer size per thread (log2 scale)", .y_label = "bandwidth (GB/s, all threads)",
                        .y_scale = 1000},
    [LINE_LATENCY] = {.id = "latency", .title = "Latency against buffer size", .x_log2 = true,
                      .x_label = "buffer size (log2 scale)", .y_label = "latency (ns per load, log2 scale)",
                      .y_log2 = true, .y_scale = 1},
    [LINE_LOADED] = {.id = "loaded-latency", .title = "Loaded latency: latency against bandwidth",
                     .x_label = "traffic bandwidth (MB/s)", .y_label = "latency (ns per load)", .y_scale = 1},
    [LINE_RATIO] = {.id = "ratio", .title = "Against the baseline: each figure as B/A", .x_log2 = true,
                    .x_label = "buffer size (log2 scale)", .y_label = "B/A (1: the same as the baseline)",
                    .y_scale = 1},
};

/* The standalone SVG's description; the page says it once (report_html.c) and docs/report.md in full. */
static const char whisker_caption[] =
    "Each point: the median of its samples; its whisker: the interval of that median (host interval when the run "
    "has a noise verdict); a dash: the best sample. Hollow: the samples fell in two levels.";

/* The line chart a record belongs on, or -1. */
static int line_of(const loaded_record *r)
{
    if (strcmp(r->mode, "sweep") == 0)
        return strcmp(r->metric, "bandwidth") == 0 ? LINE_BANDWIDTH : LINE_LATENCY;
    if (strcmp(r->mode, "latency") == 0)
        return LINE_LATENCY;
    if (strcmp(r->mode, "loaded-latency") == 0)
        return LINE_LOADED;
    return -1;
}

static bool is_heat(const char *mode)
{
    return strcmp(mode, "latency-matrix") == 0 || strcmp(mode, "bandwidth-matrix") == 0 || strcmp(mode, "c2c") == 0;
}

static bool add_point(line_chart *c, size_t *cap, size_t run, const loaded_record *r, int kind)
{
    chart_series *s = NULL;
    for (size_t i = 0; i < c->nseries && !s; i++)
        if (c->series[i].run == run && strcmp(c->series[i].operation, r->operation) == 0)
            s = &c->series[i];
    if (!s) {
        if (!grow(&c->series, cap, c->nseries, sizeof *c->series))
            return false;
        s = &c->series[c->nseries++];
        memset(s, 0, sizeof *s);
        s->operation = r->operation;
        s->run = run;
        s->color = c->noperations;
        for (size_t i = 0; i + 1 < c->nseries; i++)
            if (strcmp(c->series[i].operation, r->operation) == 0) {
                s->color = c->series[i].color;
                break;
            }
        if (s->color == c->noperations)
            c->noperations++;
    }
    chart_point *p = realloc(s->points, (s->count + 1) * sizeof *p);
    if (!p)
        return false;
    s->points = p;
    p = &p[s->count++];
    /* Every point is a median with the interval of a median, so its whisker is
     * about the point drawn; a bandwidth's reported best sample is marked apart. */
    const char *whisker_name = "median interval";
    chart_whisker w = record_median_interval(r, &whisker_name);
    double x = (double)r->size_bytes;
    if (kind == LINE_LOADED && !record_param_number(r, "bandwidth_mb_s", &x))
        x = 0;
    sample_stats st = stats_compute(r->samples, r->nsamples); /* as the run's summary.two_levels */
    bool latency = strcmp(r->metric, "latency") == 0;
    double median = r->value;
    if (!latency && !json_get_number(json_get_object(r->json, "summary"), "median", &median))
        median = r->nsamples ? st.median : r->value;
    *p = (chart_point){.x = x,
                       .y = median,
                       .best = latency ? NAN : r->value,
                       .low = w.low,
                       .high = w.high,
                       .whisker_name = whisker_name,
                       .rec = r,
                       .low_level_n = st.low_level_n,
                       .high_level_n = st.high_level_n,
                       .low_level_median = st.low_level_median,
                       .high_level_median = st.high_level_median};
    return true;
}

static int by_x(const void *a, const void *b)
{
    double x = ((const chart_point *)a)->x, y = ((const chart_point *)b)->x;
    return (x > y) - (x < y);
}

static bool add_marker(line_chart *c, size_t *cap, double x, const char *label, bool measured)
{
    for (size_t i = 0; i < c->nmarkers; i++)
        if (c->markers[i].x == x && strcmp(c->markers[i].label, label) == 0)
            return true; /* the same cache in another run of the machine */
    if (!grow(&c->markers, cap, c->nmarkers, sizeof *c->markers))
        return false;
    chart_marker *m = &c->markers[c->nmarkers++];
    m->x = x;
    m->measured = measured;
    snprintf(m->label, sizeof m->label, "%s", label);
    return true;
}

/* The caches the run's topology reports (levels_used: L1, L2, L3...) and, for a
 * latency run, the sizes its curve measured. */
static bool add_markers(line_chart *c, size_t *cap, const loaded_run *run, bool measured_too)
{
    const json_value *levels = json_get_object(json_get_object(&run->doc, "topology"), "levels_used");
    char label[64], size[24];
    double bytes;
    for (size_t i = 0; levels && i < levels->count; i++) {
        if (!json_get_number(&levels->items[i], "size_bytes", &bytes) || !(bytes > 0) || bytes > 0x1p62)
            continue;
        /* A sweep's sizes are per thread: its plan says each thread's share of a shared cache. */
        char key[40];
        double share;
        snprintf(key, sizeof key, "%.8s_share_bytes", levels->items[i].key);
        bool shared = json_get_number(json_get_object(&run->doc, "plan"), key, &share) && share > 0 && share < bytes;
        const char *source = cache_source_name_of_key(json_get_text(&levels->items[i], "source"));
        snprintf(label, sizeof label, "%.8s %s%s%s%s%s", levels->items[i].key,
                 format_bytes((unsigned long long)(shared ? share : bytes), size, sizeof size), shared ? "/thread" : "",
                 source ? " (" : "", source ? source : "", source ? ")" : "");
        if (shared)
            bytes = share;
        if (!add_marker(c, cap, bytes, label, false))
            return false;
    }
    const json_value *checks = json_get_array(json_get_object(&run->doc, "analysis"), "cache_checks");
    for (size_t i = 0; measured_too && checks && i < checks->count; i++) {
        const json_value *k = &checks->items[i], *ok = json_get(k, "checkable");
        long long level;
        if (!ok || ok->type != JV_BOOL || !ok->boolean || !json_get_integer(k, "level", 0, 9, &level) ||
            !json_get_number(k, "measured_bytes", &bytes) || !(bytes > 0) || bytes > 0x1p62)
            continue;
        snprintf(label, sizeof label, "L%lld measured %s", level, format_bytes((unsigned long long)bytes, size, sizeof size));
        if (!add_marker(c, cap, bytes, label, true))
            return false;
    }
    return true;
}

/* --- heatmaps ------------------------------------------------------------------ */

typedef struct {
    heat_chart h;
    const char *group;          /* bandwidth-matrix: traffic; c2c: state */
    const loaded_record **recs; /* in the order of the run */
    size_t nrecs, cap;
} heat_build;

static int placement_cpu(const loaded_record *r, size_t i)
{
    const json_value *p = json_get_array(r->json, "placement");
    long long cpu;
    return p && i < p->count && json_get_integer(&p->items[i], "cpu", -1, 1 << 20, &cpu) ? (int)cpu : -1;
}

static void node_label(const loaded_record *r, const char *key, char *out)
{
    double v;
    if (record_param_number(r, key, &v))
        snprintf(out, 32, "node %.0f", v);
    else
        snprintf(out, 32, "?");
}

static void heat_labels(const loaded_run *run, const loaded_record *r, char *row, char *col)
{
    if (strcmp(r->mode, "c2c") == 0) {
        snprintf(row, 32, "CPU %d", placement_cpu(r, 0));
        snprintf(col, 32, "CPU %d", placement_cpu(r, 1));
        return;
    }
    const json_value *every = json_get(json_get_object(&run->doc, "plan"), "every_cpu");
    if (strcmp(r->mode, "latency-matrix") == 0 && every && every->type == JV_BOOL && every->boolean)
        snprintf(row, 32, "CPU %d", placement_cpu(r, 0));
    else
        node_label(r, "cpu_node", row);
    node_label(r, "mem_node", col);
}

static const char *heat_group(const loaded_record *r)
{
    if (strcmp(r->mode, "c2c") == 0) {
        const char *s = record_param_text(r, "state");
        return s ? s : "";
    }
    return strcmp(r->mode, "bandwidth-matrix") == 0 ? r->operation : "";
}

/* Labels in natural order: "CPU 2" before "CPU 10", "node 0" before "node 1". */
static int by_label(const void *a, const void *b)
{
    const char *x = a, *y = b;
    size_t px = strcspn(x, "0123456789"), py = strcspn(y, "0123456789");
    int c = strncmp(x, y, px < py ? px : py);
    if (c || px != py)
        return c ? c : (px > py) - (px < py);
    long nx = strtol(x + px, NULL, 10), ny = strtol(y + py, NULL, 10);
    return nx != ny ? (nx > ny) - (nx < ny) : strcmp(x, y);
}

/* The index of label among the n labels; added when absent (add) or (size_t)-1. */
static size_t label_index(char (**labels)[32], size_t *n, const char *label, bool add)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*labels)[i], label) == 0)
            return i;
    if (!add)
        return (size_t)-1;
    char(*p)[32] = realloc(*labels, (*n + 1) * sizeof **labels);
    if (!p)
        return (size_t)-1;
    *labels = p;
    snprintf(p[*n], 32, "%s", label);
    return (*n)++;
}

static bool finish_heat(const loaded_run *run, heat_build *b)
{
    heat_chart *h = &b->h;
    char row[32], col[32];
    for (size_t i = 0; i < b->nrecs; i++) {
        heat_labels(run, b->recs[i], row, col);
        if (label_index(&h->row_labels, &h->rows, row, true) == (size_t)-1 ||
            label_index(&h->col_labels, &h->cols, col, true) == (size_t)-1)
            return false;
    }
    qsort(h->row_labels, h->rows, sizeof *h->row_labels, by_label);
    qsort(h->col_labels, h->cols, sizeof *h->col_labels, by_label);
    size_t cells = h->rows * h->cols;
    h->values = malloc((cells ? cells : 1) * sizeof *h->values);
    h->cells = calloc(cells ? cells : 1, sizeof *h->cells);
    if (!h->values || !h->cells)
        return false;
    for (size_t i = 0; i < cells; i++)
        h->values[i] = NAN;
    for (size_t i = 0; i < b->nrecs; i++) {
        heat_labels(run, b->recs[i], row, col);
        size_t c = label_index(&h->row_labels, &h->rows, row, false) * h->cols +
                   label_index(&h->col_labels, &h->cols, col, false);
        h->values[c] = b->recs[i]->value; /* a cell measured twice shows the later figure */
        h->cells[c] = b->recs[i];
    }
    return true;
}

static heat_build *find_heat(heat_build **hb, size_t *n, size_t *cap, size_t run, const loaded_record *r)
{
    const char *group = heat_group(r);
    for (size_t i = 0; i < *n; i++)
        if ((*hb)[i].h.run == run && strcmp((*hb)[i].h.id, r->mode) == 0 && strcmp((*hb)[i].group, group) == 0)
            return &(*hb)[i];
    if (!grow(hb, cap, *n, sizeof **hb))
        return NULL;
    heat_build *b = &(*hb)[(*n)++];
    memset(b, 0, sizeof *b);
    b->group = group;
    snprintf(b->h.group, sizeof b->h.group, "%s", group);
    b->h.run = run;
    b->h.id = strcmp(r->mode, "c2c") == 0 ? "c2c" : strcmp(r->mode, "latency-matrix") == 0 ? "latency-matrix"
                                                                                          : "bandwidth-matrix";
    b->h.unit = r->unit;
    bool c2c = strcmp(r->mode, "c2c") == 0;
    b->h.row_title = c2c ? "writer CPU" : "CPU node";
    b->h.col_title = c2c ? "reader CPU" : "memory node";
    snprintf(b->h.title, sizeof b->h.title, "%s%s%.40s (%.16s)",
             c2c ? "Cache-to-cache latency" : strcmp(r->mode, "latency-matrix") == 0 ? "Latency matrix"
                                                                                     : "Bandwidth matrix",
             *group ? ", " : "", group, r->unit);
    return b;
}

/* --- STREAM's regular against non-temporal stores ---------------------------------- */

const char *const stream_kernels[STREAM_KERNELS] = {"copy", "scale", "add", "triad"};

/* The run's stream_chart, when it has both kinds of stores; false only when out of memory. */
static bool add_stream_chart(report_model *m, size_t run)
{
    stream_chart c = {.run = run};
    bool kinds[2] = {false, false};
    for (size_t i = 0; i < m->nstream; i++) {
        const stream_row *s = &m->stream[i];
        if (s->run != run || !s->stores)
            continue;
        int nt = strcmp(s->stores, "non-temporal") == 0 ? 1 : strcmp(s->stores, "regular") == 0 ? 0 : -1;
        for (int k = 0; nt >= 0 && k < STREAM_KERNELS; k++)
            if (strcmp(s->rec->operation, stream_kernels[k]) == 0 &&
                (!c.bars[k][nt] || s->rec->value > c.bars[k][nt]->value)) {
                c.bars[k][nt] = s->rec;
                kinds[nt] = true;
            }
    }
    if (!kinds[0] || !kinds[1])
        return true;
    stream_chart *p = realloc(m->stream_charts, (m->nstream_charts + 1) * sizeof *p);
    if (!p)
        return false;
    m->stream_charts = p;
    p[m->nstream_charts++] = c;
    return true;
}

/* --- the whole model ------------------------------------------------------------- */

static bool build(report_model *m)
{
    size_t series_cap[LINE_CHARTS] = {0}, marker_cap[LINE_CHARTS] = {0}, heat_cap = 0, stream_cap = 0,
           other_cap = 0;
    heat_build *hb = NULL;
    size_t nhb = 0;
    bool ok = true;
    for (size_t run = 0; ok && run < m->nruns; run++) {
        const loaded_run *lr = &m->runs[run];
        bool on[LINE_CHARTS] = {false};
        double peak_gbs = 0;
        if (!json_get_number(json_get_object(&lr->doc, "plan"), "peak_gbs", &peak_gbs) || !(peak_gbs > 0))
            peak_gbs = 0;
        for (size_t i = 0; ok && i < lr->count; i++) {
            const loaded_record *r = &lr->records[i];
            int line = line_of(r);
            if (line >= 0) {
                on[line] = true;
                ok = add_point(&m->lines[line], &series_cap[line], run, r, line);
            } else if (is_heat(r->mode)) {
                heat_build *b = find_heat(&hb, &nhb, &heat_cap, run, r);
                ok = b && grow(&b->recs, &b->cap, b->nrecs, sizeof *b->recs);
                if (ok)
                    b->recs[b->nrecs++] = r;
            } else if (strcmp(r->mode, "stream") == 0) {
                ok = grow(&m->stream, &stream_cap, m->nstream, sizeof *m->stream);
                if (ok)
                    m->stream[m->nstream++] = (stream_row){
                        .run = run, .rec = r, .configuration = record_param_text(r, "configuration"),
                        .stores = json_get_text(json_get_object(r->json, "kernel"), "stores"),
                        .peak_mb_s = peak_gbs * 1000};
            } else {
                ok = grow(&m->others, &other_cap, m->nothers, sizeof *m->others);
                if (ok)
                    m->others[m->nothers++] = (other_row){.run = run, .rec = r};
            }
        }
        for (int l = LINE_BANDWIDTH; ok && l <= LINE_LATENCY; l++)
            if (on[l])
                ok = add_markers(&m->lines[l], &marker_cap[l], lr, l == LINE_LATENCY && strcmp(lr->mode, "latency") == 0);
    }
    for (size_t run = 0; ok && run < m->nruns; run++)
        ok = add_stream_chart(m, run);
    for (int l = 0; l < LINE_CHARTS; l++)
        for (size_t i = 0; i < m->lines[l].nseries; i++)
            qsort(m->lines[l].series[i].points, m->lines[l].series[i].count, sizeof(chart_point), by_x);
    if (ok && nhb)
        ok = (m->heats = calloc(nhb, sizeof *m->heats)) != NULL;
    for (size_t i = 0; i < nhb; i++) {
        if (ok)
            ok = finish_heat(&m->runs[hb[i].h.run], &hb[i]);
        if (m->heats) {
            m->heats[m->nheats++] = hb[i].h; /* report_model_free frees it */
        } else {
            free(hb[i].h.row_labels);
            free(hb[i].h.col_labels);
        }
        free(hb[i].recs);
    }
    free(hb);
    return ok;
}

bool report_model_build(report_model *m, const loaded_run *runs, const char *const *names, size_t n)
{
    memset(m, 0, sizeof *m);
    m->runs = runs;
    m->names = names;
    m->nruns = n;
    for (int l = 0; l < LINE_CHARTS; l++) {
        m->lines[l] = line_templates[l];
        m->lines[l].caption = whisker_caption;
    }
    if (n <= REPORT_CHART_RUNS && !build(m)) {
        report_model_free(m);
        return false;
    }
    return true;
}

/* A ratio point per figure in both runs with an interval: x its size, y B/A. */
static bool add_ratio_points(report_model *m, size_t run, const compare_report *cr, size_t *cap)
{
    line_chart *c = &m->lines[LINE_RATIO];
    for (size_t i = 0; i < cr->count; i++) {
        const compare_row *row = &cr->rows[i];
        if (!row->a || !row->b || !row->ratio.told)
            continue;
        if (!add_point(c, cap, run, row->b, LINE_RATIO))
            return false;
        chart_series *s = NULL; /* the series add_point put it in */
        for (size_t k = 0; k < c->nseries && !s; k++)
            if (c->series[k].run == run && strcmp(c->series[k].operation, row->b->operation) == 0)
                s = &c->series[k];
        chart_point *p = &s->points[s->count - 1];
        p->y = row->ratio.ratio;
        p->low = row->ratio.low;
        p->high = row->ratio.high;
        p->best = NAN;
        p->whisker_name = "B/A interval";
        p->verdict = compare_verdict_text(row->verdict);
        p->low_level_n = 0; /* hollow is for one run's samples; the table says which had two levels */
    }
    return true;
}

bool report_model_add_baseline(report_model *m)
{
    size_t cap = 0;
    bool ok = m->nruns > 1 && (m->vs_baseline = calloc(m->nruns - 1, sizeof *m->vs_baseline)) != NULL;
    for (size_t i = 1; ok && i < m->nruns; i++)
        ok = compare_runs(&m->runs[0], &m->runs[i], -1, true, &m->vs_baseline[i - 1]) &&
             (m->nruns > REPORT_CHART_RUNS || add_ratio_points(m, i, &m->vs_baseline[i - 1], &cap));
    for (size_t i = 0; i < m->lines[LINE_RATIO].nseries; i++)
        qsort(m->lines[LINE_RATIO].series[i].points, m->lines[LINE_RATIO].series[i].count, sizeof(chart_point), by_x);
    if (!ok)
        report_model_free(m);
    return ok;
}

void report_model_free(report_model *m)
{
    for (size_t i = 1; m->vs_baseline && i < m->nruns; i++)
        compare_report_free(&m->vs_baseline[i - 1]);
    free(m->vs_baseline);
    for (int l = 0; l < LINE_CHARTS; l++) {
        for (size_t i = 0; i < m->lines[l].nseries; i++)
            free(m->lines[l].series[i].points);
        free(m->lines[l].series);
        free(m->lines[l].markers);
    }
    for (size_t i = 0; i < m->nheats; i++) {
        free(m->heats[i].row_labels);
        free(m->heats[i].col_labels);
        free(m->heats[i].values);
        free(m->heats[i].cells);
    }
    free(m->heats);
    free(m->stream);
    free(m->others);
    free(m->stream_charts);
    memset(m, 0, sizeof *m);
}
