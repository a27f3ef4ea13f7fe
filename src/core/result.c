/* SPDX-License-Identifier: MIT */
#include "core/result.h"

#include <stdio.h>
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

void result_add_buffer(result_record *r, const char *method, uint64_t bytes, double huge_coverage)
{
    if (!method)
        method = "normal";
    int g = 0;
    while (g < r->npages && strcmp(r->pages[g].method, method) != 0)
        g++;
    if (g == r->npages) {
        if (g == RESULT_PAGE_GROUPS)
            g--; /* not reached: there are four methods */
        else
            r->pages[r->npages++] = (result_page_group){method, 0, 0, 0};
    }
    result_page_group *p = &r->pages[g];
    p->buffers++;
    p->bytes += (double)bytes;
    if (huge_coverage < 0 || p->huge_bytes < 0)
        p->huge_bytes = -1;
    else
        p->huge_bytes += huge_coverage * (double)bytes;
    double all = 0, huge = 0;
    bool known = true;
    for (int i = 0; i < r->npages; i++) {
        all += r->pages[i].bytes;
        huge += r->pages[i].huge_bytes;
        known = known && r->pages[i].huge_bytes >= 0;
    }
    r->page_method = r->npages > 1 ? "mixed" : r->pages[0].method;
    r->huge_coverage = known && all > 0 ? huge / all : -1;
}

void result_pages_text(const result_record *r, char *buf, size_t size)
{
    if (r->npages <= 1) {
        snprintf(buf, size, "%s", r->page_method ? r->page_method : "?");
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->npages && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%d %s", i ? " + " : "", r->pages[i].buffers, r->pages[i].method);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* The summary's median interval over time batches of the samples (rounds when
 * known): see stats_batch_interval for why not over the samples themselves. */
static void batch_interval(result_record *r, const int *rounds)
{
    size_t ends[STATS_MAX_BATCHES];
    size_t k = stats_time_batches((size_t)r->nsamples, rounds, STATS_MAX_BATCHES, ends);
    if (k > 0 && r->summary.n == (size_t)r->nsamples)
        stats_batch_interval(r->samples, ends, k, &r->summary);
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
    batch_interval(r, NULL);
    return true;
}

bool result_set_random(result_record *r, const double *samples, const int *rounds, int n)
{
    free(r->random_samples);
    r->random_samples = NULL;
    r->random_nsamples = 0;
    memset(&r->random_summary, 0, sizeof r->random_summary);
    r->random_chase = RANDOM_CHASE_MEASURED;
    if (n <= 0)
        return true;
    r->random_samples = malloc(sizeof *r->random_samples * (size_t)n);
    if (!r->random_samples)
        return false;
    memcpy(r->random_samples, samples, sizeof *r->random_samples * (size_t)n);
    r->random_nsamples = n;
    r->random_summary = stats_compute(samples, (size_t)n);
    size_t ends[STATS_MAX_BATCHES];
    size_t k = stats_time_batches((size_t)n, rounds, STATS_MAX_BATCHES, ends);
    if (k > 0)
        stats_batch_interval(r->random_samples, ends, k, &r->random_summary);
    return true;
}

bool result_full_random(const result_record *r, const sample_stats **stats, int *nsamples)
{
    const char *order = params_get_text(&r->params, "chase_order");
    if (r->random_chase == RANDOM_CHASE_MEASURED && r->random_nsamples > 0) {
        *stats = &r->random_summary;
        *nsamples = r->random_nsamples;
        return true;
    }
    if (r->random_chase == RANDOM_CHASE_SAME ||
        (r->random_chase == RANDOM_CHASE_NONE && order && strcmp(order, "random") == 0)) {
        *stats = &r->summary;
        *nsamples = r->nsamples;
        return r->nsamples > 0;
    }
    return false;
}

const char *random_chase_name(random_chase_state s)
{
    switch (s) {
    case RANDOM_CHASE_SAME:
        return "same";
    case RANDOM_CHASE_MEASURED:
        return "measured";
    case RANDOM_CHASE_FAILED:
        return "failed";
    default:
        return NULL;
    }
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

bool result_set_observed(result_record *r, const result_observed *threads, int n)
{
    free(r->observed);
    r->observed = NULL;
    if (n <= 0)
        return true;
    r->observed = malloc(sizeof *r->observed * (size_t)n);
    if (!r->observed)
        return false;
    memcpy(r->observed, threads, sizeof *r->observed * (size_t)n);
    return true;
}

result_observed result_observed_unknown(void)
{
    return (result_observed){-1, {-1, -1, -1}, 0, -1};
}

void result_observed_add_buffer(result_observed *o, int node, double share)
{
    if (o->nbuffers == RESULT_THREAD_BUFFERS)
        return;
    o->mem_nodes[o->nbuffers++] = node;
    if (node < 0)
        return;
    if (o->mem_share < 0 || share < o->mem_share)
        o->mem_share = share;
}

double result_value(const result_record *r)
{
    return r->metric == METRIC_LATENCY || r->median_headline ? r->summary.median : r->summary.max;
}

const char *result_statistic(const result_record *r)
{
    return r->metric == METRIC_LATENCY || r->median_headline ? "median" : "best";
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

bool result_set_sample_rounds(result_record *r, const int *rounds, const double *ends, double origin, int n)
{
    free(r->sample_rounds);
    free(r->sample_times);
    r->sample_rounds = NULL;
    r->sample_times = NULL;
    if (n <= 0)
        return true;
    r->sample_rounds = malloc(sizeof *r->sample_rounds * (size_t)n);
    r->sample_times = malloc(sizeof *r->sample_times * (size_t)n);
    if (!r->sample_rounds || !r->sample_times) {
        free(r->sample_rounds);
        free(r->sample_times);
        r->sample_rounds = NULL;
        r->sample_times = NULL;
        return false;
    }
    memcpy(r->sample_rounds, rounds, sizeof *r->sample_rounds * (size_t)n);
    for (int i = 0; i < n; i++)
        r->sample_times[i] = ends[i] - origin;
    if (n == r->nsamples)
        batch_interval(r, rounds);
    return true;
}

void result_free(result_record *r)
{
    free(r->samples);
    free(r->random_samples);
    free(r->sample_rounds);
    free(r->sample_times);
    free(r->placement);
    free(r->observed);
    params_free(&r->params);
    memset(r, 0, sizeof *r);
}

bool result_copy(result_record *dst, const result_record *src)
{
    *dst = *src;
    dst->samples = NULL;
    dst->random_samples = NULL;
    dst->random_nsamples = 0;
    dst->sample_rounds = NULL;
    dst->sample_times = NULL;
    dst->placement = NULL;
    dst->observed = NULL;
    dst->nsamples = 0;
    memset(&dst->params, 0, sizeof dst->params);
    bool ok = result_set_placement(dst, src->placement, src->placement ? src->threads : 0);
    if (ok)
        ok = result_set_observed(dst, src->observed, src->observed ? src->threads : 0);
    if (ok && src->nsamples > 0) {
        dst->samples = malloc(sizeof *dst->samples * (size_t)src->nsamples);
        ok = dst->samples != NULL;
        if (ok) {
            memcpy(dst->samples, src->samples, sizeof *dst->samples * (size_t)src->nsamples);
            dst->nsamples = src->nsamples;
        }
    }
    if (ok && src->sample_rounds)
        ok = result_set_sample_rounds(dst, src->sample_rounds, src->sample_times, 0, src->nsamples);
    if (ok && src->random_nsamples > 0) {
        ok = result_set_random(dst, src->random_samples, NULL, src->random_nsamples);
        dst->random_summary = src->random_summary; /* its interval came from rounds not copied */
    }
    params_copy(&dst->params, &src->params);
    if (ok && dst->params.n == src->params.n)
        return true;
    result_free(dst);
    return false;
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

const char *dram_check_verdict(bool latency, double at_footprint, double at_twice)
{
    bool cache = latency ? at_footprint < at_twice * (1 - DRAM_CHECK_TOLERANCE)
                         : at_footprint > at_twice * (1 + DRAM_CHECK_TOLERANCE);
    return cache ? "not_dram" : "dram";
}
