#include "core/result.h"

#include <stdlib.h>
#include <string.h>

void result_init(result_record *r, const char *mode, const char *operation, result_metric metric)
{
    memset(r, 0, sizeof *r);
    r->mode = mode;
    r->operation = operation;
    r->metric = metric;
    r->huge_coverage = -1;
    r->node_local_fraction = -1;
    r->complete = true;
}

bool result_set_samples(result_record *r, const double *samples, int n)
{
    free(r->samples);
    r->samples = NULL;
    r->nsamples = 0;
    memset(&r->summary, 0, sizeof r->summary);
    if (n <= 0)
        return true;
    r->samples = malloc(sizeof *r->samples * (size_t)n);
    if (!r->samples)
        return false;
    memcpy(r->samples, samples, sizeof *r->samples * (size_t)n);
    r->nsamples = n;
    r->summary = stats_compute(samples, (size_t)n);
    return true;
}

bool result_set_placement(result_record *r, const result_thread *threads, int n)
{
    free(r->placement);
    r->placement = NULL;
    if (n <= 0)
        return true;
    r->placement = malloc(sizeof *r->placement * (size_t)n);
    if (!r->placement)
        return false;
    memcpy(r->placement, threads, sizeof *r->placement * (size_t)n);
    return true;
}

double result_value(const result_record *r)
{
    return r->metric == METRIC_LATENCY ? r->summary.median : r->summary.max;
}

const char *result_statistic(const result_record *r)
{
    return r->metric == METRIC_LATENCY ? "median" : "best";
}

const char *result_unit(const result_record *r)
{
    return r->metric == METRIC_LATENCY ? "ns" : "MB/s";
}

double result_sample_seconds(const result_record *r, int i)
{
    if (r->metric != METRIC_BANDWIDTH || i < 0 || i >= r->nsamples || r->samples[i] <= 0)
        return 0;
    return r->bytes_per_sample / (r->samples[i] * 1e6);
}

void result_free(result_record *r)
{
    free(r->samples);
    free(r->placement);
    params_free(&r->params);
    memset(r, 0, sizeof *r);
}

void result_move(result_record *dst, result_record *src)
{
    *dst = *src;
    memset(src, 0, sizeof *src);
}

bool result_list_add(result_list *l, result_record *r)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        result_record *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            result_free(r);
            return false;
        }
        l->items = items;
        l->cap = cap;
    }
    result_move(&l->items[l->n++], r);
    return true;
}

void result_list_free(result_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        result_free(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}
