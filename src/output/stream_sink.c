/* SPDX-License-Identifier: MIT */
#include "output/stream_sink.h"

#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"

static const char *const labels[STREAM_FUNCTIONS] = {"Copy:      ", "Scale:     ", "Add:       ", "Triad:     "};
static const char *const names[STREAM_FUNCTIONS] = {"copy", "scale", "add", "triad"};

static int function_index(const char *operation)
{
    for (int i = 0; i < STREAM_FUNCTIONS; i++)
        if (strcmp(operation, names[i]) == 0)
            return i;
    return -1;
}

stream_row stream_row_of(const result_record *r)
{
    stream_row row = {result_value(r), 0, 0, 0};
    double sum = 0;
    for (int i = 0; i < r->nsamples; i++) {
        double t = result_sample_seconds(r, i);
        sum += t;
        row.min_s = i == 0 || t < row.min_s ? t : row.min_s;
        row.max_s = t > row.max_s ? t : row.max_s;
    }
    row.avg_s = r->nsamples ? sum / r->nsamples : 0;
    return row;
}

void stream_write_table(FILE *f, const stream_row rows[STREAM_FUNCTIONS], const char *validation)
{
    fprintf(f, "Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    for (int j = 0; j < STREAM_FUNCTIONS; j++)
        fprintf(f, "%s%12.1f  %11.6f  %11.6f  %11.6f\n", labels[j], rows[j].best_mb_s, rows[j].avg_s, rows[j].min_s,
                rows[j].max_s);
    fprintf(f, STREAM_RULE "%s\n" STREAM_RULE, validation ? validation : "");
}

void stream_write_side_by_side(FILE *f, const double *regular, const double *nt, double peak_gbs)
{
    fprintf(f, "Function   ");
    if (regular)
        fprintf(f, " %14s", "regular MB/s");
    if (nt)
        fprintf(f, " %14s", "nt MB/s");
    if (regular && nt)
        fprintf(f, " %8s", "nt/reg");
    if (peak_gbs > 0 && regular)
        fprintf(f, " %10s", "reg %peak");
    if (peak_gbs > 0 && nt)
        fprintf(f, " %10s", "nt %peak");
    fprintf(f, "\n");
    for (int j = 0; j < STREAM_FUNCTIONS; j++) {
        fprintf(f, "%s", labels[j]);
        if (regular)
            fprintf(f, " %14.1f", regular[j]);
        if (nt)
            fprintf(f, " %14.1f", nt[j]);
        if (regular && nt)
            fprintf(f, " %8.2f", regular[j] > 0 ? nt[j] / regular[j] : 0);
        if (peak_gbs > 0 && regular)
            fprintf(f, " %9.1f%%", 100 * regular[j] / (peak_gbs * 1000));
        if (peak_gbs > 0 && nt)
            fprintf(f, " %9.1f%%", 100 * nt[j] / (peak_gbs * 1000));
        fprintf(f, "\n");
    }
}

typedef struct {
    sink base;
    FILE *f;
    double peak_gbs;
    char config[128];             /* configuration being printed, "" before the first */
    stream_row pending[STREAM_FUNCTIONS]; /* current store kind's results so far (copied: */
    bool pending_have[STREAM_FUNCTIONS];  /* the records themselves may move) */
    char pending_store[32];
    double best[2][STREAM_FUNCTIONS]; /* [regular, nt] best rates of this configuration */
    bool have[2];
    char best_config[128];        /* over the whole run, by Triad */
    bool best_nt;
    double best_triad;
} stream_sink;

static void begin(sink *s, const run_info *info)
{
    stream_sink *st = (stream_sink *)s;
    const param_list *p = &info->plan.values;
    unsigned long long n = (unsigned long long)params_get_number(p, "array_elements", 0);
    double mib = (double)n * sizeof(double) / (1 << 20);
    const char *peak = params_get_text(p, "peak_source");
    st->peak_gbs = params_get_number(p, "peak_gbs", 0);
    fprintf(st->f, STREAM_RULE "membench stream %s: STREAM's kernels, byte counting and validation\n" STREAM_RULE,
            MEMBENCH_VERSION);
    fprintf(st->f, "Array size = %llu (elements), Offset = 0 (elements)\n", n);
    fprintf(st->f, "Memory per array = %.1f MiB (= %.1f GiB).\n", mib, mib / 1024);
    fprintf(st->f, "Total memory required = %.1f MiB (= %.1f GiB).\n", 3 * mib, 3 * mib / 1024);
    /* why the arrays have this size: STREAM's rule from the machine's caches, or the user */
    const char *basis = params_get_text(p, "size_basis"), *rule = params_get_text(p, "dram_rule");
    if (basis && rule) {
        fputs(strcmp(basis, "given on the command line") == 0 ? "Why this size: given on the command line (STREAM's rule: "
                                                               : "Why this size: STREAM's rule, each array at least ",
              st->f);
        one_line_put(st->f, rule);
        fputs(strcmp(basis, "given on the command line") == 0 ? ").\n" : ".\n", st->f);
    }
    fprintf(st->f, "Each kernel will be executed %d times.\n", (int)params_get_number(p, "ntimes", 0));
    fprintf(st->f, " The *best* time for each kernel (excluding the first iteration)\n");
    fprintf(st->f, " will be used to compute the reported bandwidth.\n");
    fprintf(st->f, "Theoretical peak: %s\n", peak ? peak : "unknown");
    fprintf(st->f, STREAM_RULE);
    fflush(st->f);
}

/* The block closing a configuration: both kinds of stores side by side, or one
 * kind's share of the peak when the peak is known (nothing to add otherwise). */
static void close_config(stream_sink *st)
{
    if ((st->have[0] && st->have[1]) || ((st->have[0] || st->have[1]) && st->peak_gbs > 0)) {
        fprintf(st->f, "%s, %s:\n", st->have[0] && st->have[1] ? "Side by side" : "Share of peak", st->config);
        stream_write_side_by_side(st->f, st->have[0] ? st->best[0] : NULL, st->have[1] ? st->best[1] : NULL,
                                  st->peak_gbs);
        fprintf(st->f, STREAM_RULE);
    }
    st->have[0] = st->have[1] = false;
    fflush(st->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    stream_sink *st = (stream_sink *)s;
    int fn = function_index(r->operation);
    const char *config = params_get_text(&r->params, "configuration");
    if (fn < 0 || !config)
        return;
    if (strcmp(config, st->config) != 0) {
        close_config(st);
        snprintf(st->config, sizeof st->config, "%s", config);
        memset(st->pending_have, 0, sizeof st->pending_have);
        const char *cpus = params_get_text(&r->params, "cpus");
        fprintf(st->f, "Number of Threads counted = %d (%s; CPUs %s)\n", r->threads, config, cpus ? cpus : "?");
    }
    if (strcmp(st->pending_store, r->kernel_store) != 0) {
        memset(st->pending_have, 0, sizeof st->pending_have);
        snprintf(st->pending_store, sizeof st->pending_store, "%s", r->kernel_store);
    }
    st->pending[fn] = stream_row_of(r);
    st->pending_have[fn] = true;
    for (int i = 0; i < STREAM_FUNCTIONS; i++)
        if (!st->pending_have[i])
            return;
    bool nt = strcmp(r->kernel_store, "non-temporal") == 0;
    fprintf(st->f, "Stores: %s (%s kernels)\n", r->kernel_store, r->kernel_isa);
    stream_write_table(st->f, st->pending, params_get_text(&r->params, "validation"));
    for (int i = 0; i < STREAM_FUNCTIONS; i++)
        st->best[nt][i] = st->pending[i].best_mb_s;
    st->have[nt] = true;
    if (!st->best_config[0] || st->best[nt][STREAM_FUNCTIONS - 1] > st->best_triad) {
        snprintf(st->best_config, sizeof st->best_config, "%s", config);
        st->best_nt = nt;
        st->best_triad = st->best[nt][STREAM_FUNCTIONS - 1];
    }
    memset(st->pending_have, 0, sizeof st->pending_have);
    fflush(st->f);
}

static void end(sink *s, const run_info *info)
{
    stream_sink *st = (stream_sink *)s;
    close_config(st);
    const param *scan = params_find(&info->plan.values, "scan");
    if (scan && scan->kind == PARAM_BOOL && scan->flag && st->best_config[0])
        fprintf(st->f, "Best configuration: %s, %s stores: Triad %.1f MB/s\n", st->best_config,
                st->best_nt ? "non-temporal" : "regular", st->best_triad);
    fflush(st->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *stream_sink_create(FILE *f)
{
    stream_sink *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->base.ops = &ops;
    st->f = f;
    return &st->base;
}
