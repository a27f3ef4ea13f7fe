/* SPDX-License-Identifier: MIT */
#include "output/openmetrics_sink.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/document_sink.h"
#include "output/file_target.h"
#include "output/openmetrics.h"
#include "util/cpu_list.h"

#define MAX_LABELS 16

/* A record's labels while they are written; the texts they point to live here or
 * in the record. */
typedef struct {
    om_label l[MAX_LABELS];
    int n;
    char size[24], threads[16], delay[24], home[24];
    char *cpus, *node, *memory_node; /* allocated */
} record_labels;

static void add(record_labels *k, const char *name, const char *value)
{
    if (k->n < MAX_LABELS)
        k->l[k->n++] = (om_label){name, value};
}

/* The distinct values of ids (-1: unknown, left out), ascending, in the compact
 * CPU-list form ("0", "0-1"); NULL when none is known. */
static char *distinct_ids(int *ids, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (ids[i] >= 0)
            ids[m++] = ids[i];
    for (int i = 1; i < m; i++) /* insertion sort: a few threads' nodes */
        for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
            int t = ids[j];
            ids[j] = ids[j - 1];
            ids[j - 1] = t;
        }
    int u = 0;
    for (int i = 0; i < m; i++)
        if (u == 0 || ids[u - 1] != ids[i])
            ids[u++] = ids[i];
    return u ? cpu_list_format_alloc(ids, (size_t)u) : NULL;
}

/* cpus in thread order; node and memory_node from the placement, or from a
 * matrix cell's cpu_node and mem_node. */
static void placement_labels(record_labels *k, const result_record *r)
{
    int n = r->placement ? r->threads : 0;
    int *ids = malloc(sizeof *ids * (size_t)(n > 0 ? n : 1));
    if (!ids)
        return;
    bool pinned = n > 0;
    for (int i = 0; i < n; i++) {
        ids[i] = r->placement[i].cpu;
        pinned = pinned && ids[i] >= 0;
    }
    k->cpus = pinned ? cpu_list_format_alloc(ids, (size_t)n) : NULL;
    int cell_node = (int)params_get_number(&r->params, "cpu_node", -1);
    int cell_mem = (int)params_get_number(&r->params, "mem_node", -1);
    for (int i = 0; i < n; i++)
        ids[i] = cell_node >= 0 ? cell_node : r->placement[i].node;
    k->node = distinct_ids(ids, n);
    for (int i = 0; i < n; i++)
        ids[i] = cell_mem >= 0 ? cell_mem : r->placement[i].mem_node;
    k->memory_node = distinct_ids(ids, n);
    free(ids);
}

/* An int parameter of the record as a label value ("" when it has none). */
static const char *int_param(const result_record *r, const char *key, char *buf, size_t size)
{
    const param *p = params_find(&r->params, key);
    buf[0] = '\0';
    if (p && p->kind == PARAM_INT)
        snprintf(buf, size, "%lld", p->integer);
    return buf;
}

static void labels_of(record_labels *k, const result_record *r)
{
    memset(k, 0, sizeof *k);
    snprintf(k->size, sizeof k->size, "%" PRIu64, r->size_bytes);
    snprintf(k->threads, sizeof k->threads, "%d", r->threads);
    placement_labels(k, r);
    add(k, "mode", r->mode);
    add(k, "operation", r->operation);
    add(k, "size_bytes", k->size);
    add(k, "threads", k->threads);
    add(k, "isa", r->kernel_isa);
    add(k, "stores", r->kernel_store);
    add(k, "cpus", k->cpus);
    add(k, "node", k->node);
    add(k, "memory_node", k->memory_node);
    /* what tells one figure of these modes from another of the same size */
    add(k, "traffic", params_get_text(&r->params, "traffic"));
    add(k, "delay", int_param(r, "delay", k->delay, sizeof k->delay));
    add(k, "state", params_get_text(&r->params, "state"));
    add(k, "home_node", int_param(r, "home_node", k->home, sizeof k->home));
}

static void labels_free(record_labels *k)
{
    free(k->cpus);
    free(k->node);
    free(k->memory_node);
}

/* A record's label text and its place in the run, sorted to find equal ones. */
typedef struct {
    char *text;
    size_t index;
} rendered;

static int by_text_then_index(const void *a, const void *b)
{
    const rendered *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static char *render(const result_record *r)
{
    record_labels k;
    labels_of(&k, r);
    char *text = om_labels_text(k.l, k.n);
    labels_free(&k);
    return text;
}

/* Every record's labels as written in the file (NULL where memory ran out: that
 * record is left out), with repeat="N" on each that equals an earlier one. */
static char **render_all(const result_list *list)
{
    size_t n = list ? list->n : 0;
    char **out = calloc(n ? n : 1, sizeof *out);
    rendered *sorted = calloc(n ? n : 1, sizeof *sorted);
    size_t m = 0;
    for (size_t i = 0; out && sorted && i < n; i++)
        if ((out[i] = render(&list->items[i])))
            sorted[m++] = (rendered){out[i], i};
    if (!out || !sorted) {
        free(sorted);
        free(out);
        return NULL;
    }
    qsort(sorted, m, sizeof *sorted, by_text_then_index);
    for (size_t i = 1, same = 1; i < m; i++) {
        same = strcmp(sorted[i].text, sorted[i - 1].text) == 0 ? same + 1 : 1;
        if (same == 1)
            continue;
        char count[24];
        snprintf(count, sizeof count, "%zu", same);
        char *text = om_labels_plus(sorted[i].text, "repeat", count);
        size_t at = sorted[i].index;
        free(out[at]);
        out[at] = text; /* NULL: left out rather than written twice */
        sorted[i].text = sorted[i - 1].text; /* the group goes on comparing the first's text */
    }
    free(sorted);
    return out;
}

/* The run-level series, labelled by mode so that files of different modes can
 * sit in one textfile directory. */
static void write_run_series(FILE *f, const run_info *info, const char *mode_label)
{
    size_t cmdlen = 1;
    for (int i = 0; i < info->argc; i++)
        cmdlen += strlen(info->argv[i]) + 1;
    char *command = calloc(1, cmdlen);
    for (int i = 0; command && i < info->argc; i++) {
        if (i)
            strcat(command, " ");
        strcat(command, info->argv[i]);
    }
    om_label run[] = {{"mode", info->mode},       {"version", MEMBENCH_VERSION}, {"host", info->hostname},
                      {"cpu", info->cpu_model},   {"kernel", info->os_kernel},   {"arch", info->arch},
                      {"command", command}};
    char *labels = om_labels_text(run, (int)(sizeof run / sizeof run[0]));
    free(command);
    om_family(f, "membench_run_info", "gauge", NULL, "The membench run this file describes: always 1");
    om_sample(f, "membench_run_info", labels ? labels : mode_label, 1);
    free(labels);
    om_family(f, "membench_run_complete", "gauge", NULL,
              "1 when the run ended complete; 0 while it runs and after a stop (Ctrl-C, -t) or an error");
    om_sample(f, "membench_run_complete", mode_label, info->complete ? 1 : 0);
    om_family(f, "membench_run_elapsed_seconds", "gauge", "seconds", "Time the run has measured for");
    om_sample(f, "membench_run_elapsed_seconds", mode_label, info->elapsed_s);
    om_family(f, "membench_run_warnings", "gauge", NULL, "Warnings the run gave (JSON warnings)");
    om_sample(f, "membench_run_warnings", mode_label, (double)info->nwarnings);
    om_family(f, "membench_run_errors", "gauge", NULL, "Errors the run met (JSON errors)");
    om_sample(f, "membench_run_errors", mode_label, (double)info->nerrors);
}

typedef struct {
    result_metric metric;
    const char *value_name, *samples_name, *unit;
    double scale; /* the record's unit to the base unit */
    const char *value_help, *samples_help;
} metric_names;

static const metric_names families[] = {
    {METRIC_BANDWIDTH, "membench_bandwidth_bytes_per_second", "membench_bandwidth_samples_bytes_per_second",
     "bytes_per_second", 1e6, "Bandwidth, the JSON value (sweep, STREAM: best sample; traffic modes: median window), all threads",
     "Bandwidth samples of the same figure: quantile 0 is the slowest, 1 the best"},
    {METRIC_LATENCY, "membench_latency_seconds", "membench_latency_samples_seconds", "seconds", 1e-9,
     "Latency per dependent load, the median sample (the CSV's and JSON's value)",
     "Latency samples of the same figure: quantile 0 is the lowest, 1 the highest"},
};

static bool has_metric(const result_list *list, result_metric metric)
{
    for (size_t i = 0; list && i < list->n; i++)
        if (list->items[i].metric == metric)
            return true;
    return false;
}

static void write_quantile(FILE *f, const char *name, const char *labels, const char *q, double v)
{
    char *with = om_labels_plus(labels, "quantile", q);
    if (with)
        om_sample(f, name, with, v);
    free(with);
}

static void write_family(FILE *f, const metric_names *m, const result_list *list, char **labels)
{
    if (!has_metric(list, m->metric))
        return;
    om_family(f, m->value_name, "gauge", m->unit, m->value_help);
    for (size_t i = 0; i < list->n; i++)
        if (list->items[i].metric == m->metric && labels[i])
            om_sample(f, m->value_name, labels[i], result_value(&list->items[i]) * m->scale);
    om_family(f, m->samples_name, "summary", m->unit, m->samples_help);
    char sum_name[128], count_name[128];
    snprintf(sum_name, sizeof sum_name, "%s_sum", m->samples_name);
    snprintf(count_name, sizeof count_name, "%s_count", m->samples_name);
    for (size_t i = 0; i < list->n; i++) {
        const result_record *r = &list->items[i];
        if (r->metric != m->metric || !labels[i])
            continue;
        double sum = 0;
        for (int s = 0; s < r->nsamples; s++)
            sum += r->samples[s] * m->scale;
        if (r->nsamples > 0) {
            write_quantile(f, m->samples_name, labels[i], "0", r->summary.min * m->scale);
            write_quantile(f, m->samples_name, labels[i], "0.5", r->summary.median * m->scale);
            write_quantile(f, m->samples_name, labels[i], "1", r->summary.max * m->scale);
        }
        om_sample(f, sum_name, labels[i], sum);
        om_sample(f, count_name, labels[i], r->nsamples);
    }
}

/* A figure some records carry beside their headline, one gauge sample per such
 * record with that record's labels. */
typedef struct {
    const char *name, *unit, *help;
    bool (*has)(const result_record *r);
    double (*value)(const result_record *r); /* in the base unit */
} side_figure;

/* Loaded latency's other figure: the bandwidth the traffic threads made in the
 * window each delay's latency was measured in (the JSON's params.bandwidth_mb_s,
 * MLC's third column), one sample per delay. */
static bool loaded_row(const result_record *r)
{
    return strcmp(r->operation, "loaded-latency") == 0 && params_find(&r->params, "bandwidth_mb_s");
}

static double loaded_bandwidth(const result_record *r)
{
    return params_get_number(&r->params, "bandwidth_mb_s", 0) * 1e6;
}

/* Latency's figure beside the headline at a DRAM point: the same buffer chased fully
 * random, page walks included (the JSON's random_chase.value, the CSV's
 * random_latency_ns). */
static bool random_row(const result_record *r)
{
    return r->random_chase == RANDOM_CHASE_MEASURED && r->random_nsamples > 0;
}

static double random_latency(const result_record *r)
{
    return r->random_summary.median * 1e-9;
}

static const side_figure side_figures[] = {
    {"membench_loaded_latency_bandwidth_bytes_per_second", "bytes_per_second",
     "Loaded latency: bandwidth of the traffic threads during the window of that delay's latency", loaded_row,
     loaded_bandwidth},
    {"membench_random_latency_seconds", "seconds",
     "Latency of the same buffer chased fully random, page walks included (the median sample), beside "
     "membench_latency_seconds (TLB-local, as multichase)",
     random_row, random_latency},
};

static void write_side_figure(FILE *f, const side_figure *fig, const result_list *list, char **labels)
{
    bool any = false;
    for (size_t i = 0; list && i < list->n && !any; i++)
        any = fig->has(&list->items[i]) && labels[i];
    if (!any)
        return;
    om_family(f, fig->name, "gauge", fig->unit, fig->help);
    for (size_t i = 0; i < list->n; i++)
        if (fig->has(&list->items[i]) && labels[i])
            om_sample(f, fig->name, labels[i], fig->value(&list->items[i]));
}

void openmetrics_write_run(FILE *f, const run_info *info)
{
    char *mode_label = om_labels_text(&(om_label){"mode", info->mode}, 1);
    write_run_series(f, info, mode_label);
    free(mode_label);
    char **labels = render_all(info->results);
    for (size_t i = 0; labels && i < sizeof families / sizeof families[0]; i++)
        write_family(f, &families[i], info->results, labels);
    for (size_t i = 0; labels && i < sizeof side_figures / sizeof side_figures[0]; i++)
        write_side_figure(f, &side_figures[i], info->results, labels);
    for (size_t i = 0; labels && info->results && i < info->results->n; i++)
        free(labels[i]);
    free(labels);
    om_eof(f);
}

bool openmetrics_path_check(const char *path, char *err, size_t errlen)
{
    return file_target_check("--openmetrics", path, err, errlen);
}

sink *openmetrics_sink_create(const char *path, FILE *err, const char *who)
{
    return document_sink_create("--openmetrics", path, err, who, openmetrics_write_run);
}
