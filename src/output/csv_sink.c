/* SPDX-License-Identifier: MIT */
#include "output/csv_sink.h"

#include <stdlib.h>

void csv_write_header(FILE *f, bool membench_columns)
{
    fputs(membench_columns ? CSV_HEADER CSV_HEADER_MEMBENCH "\n" : CSV_HEADER "\n", f);
}

void csv_write_record(FILE *f, const result_record *r, bool membench_columns)
{
    unsigned long long kb = (unsigned long long)(r->size_bytes / 1024);
    if (r->metric == METRIC_LATENCY) {
        const sample_stats *full;
        int n;
        /* no full random figure (its chain failed, or a stop came first): empty
         * rather than the TLB-local one under sc-membench's name */
        bool has = result_full_random(r, &full, &n);
        if (has)
            fprintf(f, "%llu,%s,0,%.2f,%.2f,%d,", kb, r->operation, full->median, full->stddev, n);
        else
            fprintf(f, "%llu,%s,0,,,0,", kb, r->operation);
        /* iterations: that figure's samples, as sc-membench counts them */
        fprintf(f, "%d,%d,%.6f", r->threads, has ? n : 0, r->elapsed_s);
        if (membench_columns)
            fprintf(f, ",%.2f,%.2f", r->summary.median, r->summary.stddev);
    } else {
        fprintf(f, "%llu,%s,%.2f,0,0,0,%d,%llu,%.6f", kb, r->operation, result_value(r), r->threads,
                (unsigned long long)r->iterations, r->elapsed_s);
        if (membench_columns)
            fputs(",,", f);
    }
    fputc('\n', f);
}

typedef struct {
    sink base;
    FILE *f;
    bool membench_columns;
} csv_sink;

static void begin(sink *s, const run_info *info)
{
    (void)info;
    csv_sink *c = (csv_sink *)s;
    csv_write_header(c->f, c->membench_columns);
    fflush(c->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    csv_sink *c = (csv_sink *)s;
    csv_write_record(c->f, r, c->membench_columns);
    fflush(c->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, NULL, destroy, NULL};

sink *csv_sink_create(FILE *f, bool membench_columns)
{
    csv_sink *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->base.ops = &ops;
    c->f = f;
    c->membench_columns = membench_columns;
    return &c->base;
}
