/* SPDX-License-Identifier: MIT */
#include "output/csv_sink.h"

#include <stdlib.h>

void csv_write_header(FILE *f)
{
    fputs(CSV_HEADER "\n", f);
}

void csv_write_record(FILE *f, const result_record *r)
{
    unsigned long long kb = (unsigned long long)(r->size_bytes / 1024);
    if (r->metric == METRIC_LATENCY)
        fprintf(f, "%llu,%s,0,%.2f,%.2f,%d,%d,%llu,%.6f,", kb, r->operation, r->summary.median, r->summary.stddev,
                r->nsamples, r->threads, (unsigned long long)r->iterations, r->elapsed_s);
    else
        fprintf(f, "%llu,%s,%.2f,0,0,0,%d,%llu,%.6f,", kb, r->operation, result_value(r), r->threads,
                (unsigned long long)r->iterations, r->elapsed_s);
    if (r->random_chase == RANDOM_CHASE_MEASURED && r->random_nsamples > 0)
        fprintf(f, "%.2f", r->random_summary.median);
    fputc('\n', f);
}

typedef struct {
    sink base;
    FILE *f;
} csv_sink;

static void begin(sink *s, const run_info *info)
{
    (void)info;
    csv_sink *c = (csv_sink *)s;
    csv_write_header(c->f);
    fflush(c->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    csv_sink *c = (csv_sink *)s;
    csv_write_record(c->f, r);
    fflush(c->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, NULL, destroy};

sink *csv_sink_create(FILE *f)
{
    csv_sink *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->base.ops = &ops;
    c->f = f;
    return &c->base;
}
