/* SPDX-License-Identifier: MIT */
#include "output/verbose_sink.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "memory/page_policy.h"
#include "output/format.h"
#include "output/topology_report.h"
#include "util/one_line.h"

typedef struct {
    sink base;
    FILE *f;
    int verbosity;
    bool step; /* a step of another run: its plan only */
} verbose_sink;

static void write_value(FILE *f, const param *p)
{
    switch (p->kind) {
    case PARAM_NUMBER:
        fprintf(f, "%g", p->number);
        break;
    case PARAM_INT:
        fprintf(f, "%lld", p->integer);
        break;
    case PARAM_TEXT:
        fputs(p->text, f);
        break;
    case PARAM_BOOL:
        fputs(p->flag ? "yes" : "no", f);
        break;
    case PARAM_NULL:
        fputs("-", f);
        break;
    }
}

/* A table: its keys once, then each row's values, two spaces apart. */
static void write_table(FILE *f, const param_table *t)
{
    fprintf(f, "%s:\n", t->name);
    for (size_t r = 0; r < t->nrows; r++) {
        const param_list *row = &t->rows[r];
        if (r == 0) {
            fputs("   ", f);
            for (size_t i = 0; i < row->n; i++)
                fprintf(f, " %s%s", row->items[i].key, i + 1 < row->n ? " |" : "");
            fputc('\n', f);
        }
        fputs("   ", f);
        for (size_t i = 0; i < row->n; i++) {
            fputc(' ', f);
            write_value(f, &row->items[i]);
            if (i + 1 < row->n)
                fputs(" |", f);
        }
        fputc('\n', f);
    }
}

static void begin(sink *s, const run_info *info)
{
    verbose_sink *v = (verbose_sink *)s;
    FILE *f = v->f;
    if (v->step) {
        fputs("Step:", f);
        for (int i = 0; i < info->argc; i++)
            fprintf(f, " %s", info->argv[i]);
        fputc('\n', f);
    } else {
        fprintf(f, "membench %s %s\n", MEMBENCH_VERSION, info->mode);
        char model[256]; /* /proc/cpuinfo's or CPUID's text, shown as text */
        fprintf(f, "CPU: %s; kernel ISAs usable: %s\n", one_line_copy(model, sizeof model, info->cpu_model),
                info->isa_list ? info->isa_list : "?");
    }
    if (info->topo && !v->step) {
        topology_report_text(f, info->topo);
        topology_report_warnings(f, "", info->topo);
    }
    const run_placement *p = &info->placement;
    if (p->n > 0) {
        /* places of several CPUs are separated by '|', single CPUs by ',' */
        bool multi = false;
        for (int i = 0; i < p->n; i++)
            multi = multi || strpbrk(p->threads[i].cpus, ",-") != NULL;
        fprintf(f, "Threads: %d, %s; CPUs", p->n, p->policy);
        for (int i = 0; i < p->n; i++)
            fprintf(f, "%s%s", i ? (multi ? "|" : ",") : " ", p->threads[i].cpus);
        fputc('\n', f);
    }
    for (size_t i = 0; i < info->plan.values.n; i++) {
        fprintf(f, "%s: ", info->plan.values.items[i].key);
        write_value(f, &info->plan.values.items[i]);
        fputc('\n', f);
    }
    for (size_t t = 0; t < info->plan.ntables; t++)
        write_table(f, &info->plan.tables[t]);
    fflush(f);
}

void verbose_write_record(FILE *f, const result_record *r, int verbosity)
{
    char size[32];
    format_size_kb(r->size_bytes / 1024, size, sizeof size);
    if (r->metric == METRIC_LATENCY)
        fprintf(f, "  %s %s: median %.2f ns, stddev %.2f, %d samples, CV target %s", size, r->operation,
                r->summary.median, r->summary.stddev, r->nsamples,
                !r->has_cv_target ? "none" : r->converged ? "met" : "NOT met");
    else
    {
        fprintf(f, "  %s %s: %s %s, %d thr, best %.0f median %.0f MB/s, CV %.2f%%", size, r->operation,
                r->kernel_isa, r->kernel_store, r->threads, r->summary.max, r->summary.median, r->summary.cv * 100);
        if (r->iterations) /* 0: samples are time windows (traffic modes) */
            fprintf(f, ", %llu passes/sample", (unsigned long long)r->iterations);
    }
    char pages[96];
    result_pages_text(r, pages, sizeof pages);
    fprintf(f, "; pages %s", pages);
    if (r->huge_coverage >= 0)
        fprintf(f, " (%.0f%% huge)", r->huge_coverage * 100);
    if (r->metric == METRIC_LATENCY && r->huge_coverage >= 0 && r->huge_coverage < HUGE_COVERAGE_WARN)
        fprintf(f, ", TLB misses included");
    if (!r->complete)
        fprintf(f, "; cut short (%d of %d samples)", r->nsamples, r->samples_wanted);
    fprintf(f, "; %d/%d pins verified\n", r->pins_verified, r->threads);
    if (verbosity >= 2 && r->params.n) {
        fputs("     ", f);
        for (size_t i = 0; i < r->params.n; i++) {
            fprintf(f, " %s=", r->params.items[i].key);
            write_value(f, &r->params.items[i]);
        }
        fputc('\n', f);
    }
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    verbose_sink *v = (verbose_sink *)s;
    if (v->step)
        return; /* the run's own verbose sink writes it */
    verbose_write_record(v->f, r, v->verbosity);
    fflush(v->f);
}

static void end(sink *s, const run_info *info)
{
    verbose_sink *v = (verbose_sink *)s;
    if (v->step)
        return;
    if (info->stopped_by)
        fprintf(v->f, "Stopped early (%s)\n", info->stopped_by);
    fprintf(v->f, "Total runtime: %.1f seconds\n", info->elapsed_s);
    fflush(v->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *verbose_step_sink_create(FILE *f, int verbosity)
{
    sink *s = verbose_sink_create(f, verbosity);
    if (s)
        ((verbose_sink *)s)->step = true;
    return s;
}

sink *verbose_sink_create(FILE *f, int verbosity)
{
    verbose_sink *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->base.ops = &ops;
    v->f = f;
    v->verbosity = verbosity;
    return &v->base;
}
