/* SPDX-License-Identifier: MIT */
#include "output/mlc_sink.h"

#include <stdlib.h>
#include <string.h>

#define MAX_AXIS 1024

typedef struct {
    sink base;
    FILE *f;
    mlc_block_spec spec;
    bool hit_said;      /* c2c: a HIT line has been written */
    char held_hitm[160]; /* c2c: a HITM line held until the HIT line before it ("" none) */
} mlc_sink;

static const char *text(const result_record *r, const char *key)
{
    const char *t = params_get_text(&r->params, key);
    return t ? t : "";
}

static int num(const param_list *l, const char *key)
{
    return (int)params_get_number(l, key, -1);
}

static void threads_line(const mlc_sink *m)
{
    fputs(m->spec.one_per_core ? "Using only one thread from each core if Hyper-threading is enabled\n"
                               : "Using all the threads from each core if Hyper-threading is enabled\n",
          m->f);
}

/* "Bandwidths are in ..." and the threads line: every bandwidth block's start. */
static void bandwidth_head(const mlc_sink *m)
{
    fputs("Bandwidths are in MB/sec (1 MB/sec = 1,000,000 Bytes/sec)\n", m->f);
    threads_line(m);
}

static void begin(sink *s, const run_info *info)
{
    (void)info;
    mlc_sink *m = (mlc_sink *)s;
    const mlc_block_spec *sp = &m->spec;
    FILE *f = m->f;
    if (!sp->head)
        return;
    if (sp->blank_before)
        fputc('\n', f);
    switch (sp->block) {
    case MLC_BLOCK_BANNER:
        fprintf(f, "%s\n", sp->banner);
        if (sp->arguments && *sp->arguments)
            fprintf(f, "Command line parameters: %s\n", sp->arguments);
        if (sp->buffers)
            fprintf(f, "\n%s\n", sp->buffers);
        fputs("*** membench never changes the prefetchers (no root, no MSR writes): latencies come from a random "
              "chase with the prefetchers on\n",
              f);
        break;
    case MLC_BLOCK_IDLE:
        break; /* its buffer line is the banner's */
    case MLC_BLOCK_EVERY_CPU:
        fputs("Measuring idle latencies for random access (in ns) of every CPU...\n", f);
        fputs("  CPU\tNuma node\tMemory node\tLatency\n", f);
        break;
    case MLC_BLOCK_LATENCY_MATRIX:
        fputs("Measuring idle latencies for random access (in ns)...\n", f);
        break;
    case MLC_BLOCK_PEAK:
    case MLC_BLOCK_MAX:
        fprintf(f, "Measuring %s Memory Bandwidths for the system\n",
                sp->block == MLC_BLOCK_MAX ? "Maximum" : "Peak Injection");
        bandwidth_head(m);
        fputs("Using traffic with the following read-write ratios\n", f);
        break;
    case MLC_BLOCK_BANDWIDTH_MATRIX:
        fputs("Measuring Memory Bandwidths between nodes within system\n", f);
        bandwidth_head(m);
        fprintf(f, "Using %s traffic type\n", sp->traffic);
        break;
    case MLC_BLOCK_LOADED:
    case MLC_BLOCK_TRAFFIC_ONLY:
        fputs("Measuring Loaded Latencies for the system\n", f);
        threads_line(m);
        fprintf(f, "Using %s traffic type\n", sp->traffic);
        if (sp->block == MLC_BLOCK_LOADED)
            fputs("Inject\tLatency\tBandwidth\nDelay\t(ns)\tMB/sec\n==========================\n", f);
        else
            fputs("Inject\tBandwidth\nDelay\tMB/sec\n======================\n", f);
        break;
    case MLC_BLOCK_C2C:
        fputs("Measuring cache-to-cache transfer latency (in ns)...\n", f);
        break;
    }
    fflush(f);
}

/* -B: each traffic thread's share, after the line it belongs to. */
static void per_thread_lines(const mlc_sink *m, const result_record *r)
{
    for (int i = 0; m->spec.per_thread && i < r->threads; i++) {
        char key[32];
        snprintf(key, sizeof key, "thread_%d_mb_s", i);
        const param *p = params_find(&r->params, key);
        if (p && (p->kind == PARAM_NUMBER || p->kind == PARAM_INT))
            fprintf(m->f, "\tThread %d (CPU %d):\t%.1f\n", i, r->placement ? r->placement[i].cpu : -1, p->number);
    }
}

/* A local or -w/-c pair record's line. MLC prints HIT before HITM; membench
 * measures HITM first, so a HITM line waits for the HIT line (or the block's end,
 * when there is none: -H measures HIT only, a stop may cut the HIT record). */
static void c2c_line(mlc_sink *m, const result_record *r)
{
    char line[sizeof m->held_hitm];
    const char *kind = text(r, "kind"), *state = text(r, "state");
    if (strcmp(kind, "local") == 0 || (strcmp(kind, "pair") == 0 && r->placement[0].node == r->placement[1].node))
        snprintf(line, sizeof line, "Local Socket L2->L2 %-4s latency\t%.1f\n", state, r->summary.median);
    else if (strcmp(kind, "pair") == 0) /* -w and -c on two nodes */
        snprintf(line, sizeof line, "Remote Socket L2->L2 %s latency (data address homed in writer socket)\t%.1f\n",
                 state, r->summary.median);
    else
        return; /* a matrix cell: at the end */
    if (strcmp(state, "HITM") == 0 && !m->hit_said) {
        snprintf(m->held_hitm, sizeof m->held_hitm, "%s", line);
        return;
    }
    fputs(line, m->f);
    if (strcmp(state, "HIT") == 0) {
        m->hit_said = true;
        fputs(m->held_hitm, m->f);
        m->held_hitm[0] = '\0';
    }
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    mlc_sink *m = (mlc_sink *)s;
    FILE *f = m->f;
    switch (m->spec.block) {
    case MLC_BLOCK_IDLE: {
        double hz = params_get_number(&info->plan.values, "counter_hz", 0);
        if (hz > 0)
            fprintf(f, "Each iteration took %.1f base frequency clocks (\t%.1f\tns)\n", r->summary.median * hz / 1e9,
                    r->summary.median);
        else /* no constant-rate counter: the ns only */
            fprintf(f, "Each iteration took n/a base frequency clocks (\t%.1f\tns)\n", r->summary.median);
        break;
    }
    case MLC_BLOCK_EVERY_CPU:
        fprintf(f, "%5d\t%9d\t%11d\t%7.1f\n", r->placement[0].cpu, r->placement[0].node, r->placement[0].mem_node,
                r->summary.median);
        break;
    case MLC_BLOCK_PEAK:
    case MLC_BLOCK_MAX: {
        char label[48];
        const char *l = text(r, "label");
        if (*l)
            snprintf(label, sizeof label, "%s", l);
        else
            snprintf(label, sizeof label, "%s %s", r->operation, text(r, "ratio"));
        fprintf(f, m->spec.block == MLC_BLOCK_MAX ? "%-17s:\t%.2f\n" : "%-17s:\t%.1f\n", label, result_value(r));
        per_thread_lines(m, r);
        break;
    }
    case MLC_BLOCK_LOADED:
        if (strcmp(r->operation, "loaded-latency") != 0)
            break; /* the idle row is membench's: in JSON */
        fprintf(f, " %05llu\t%6.2f\t%9.1f\n", (unsigned long long)params_get_number(&r->params, "delay", 0),
                r->summary.median, params_get_number(&r->params, "bandwidth_mb_s", 0));
        per_thread_lines(m, r);
        break;
    case MLC_BLOCK_TRAFFIC_ONLY:
        fprintf(f, " %05llu\t%9.1f\n", (unsigned long long)params_get_number(&r->params, "delay", 0),
                result_value(r));
        per_thread_lines(m, r);
        break;
    case MLC_BLOCK_C2C:
        c2c_line(m, r);
        break;
    default:
        break; /* matrices: at the end */
    }
    fflush(f);
}

/* A node matrix from the plan's "columns" and "cells" tables and the records' row
 * and column: MLC's "Numa node" layout, '-' where nothing was measured. */
static void node_matrix(FILE *f, const run_info *info, const char *cell_format, int width)
{
    const param_table *cols = section_find_table(&info->plan, "columns");
    const param_table *cells = section_find_table(&info->plan, "cells");
    if (!cols || !cells)
        return;
    fputs("\t\tNuma node\nNuma node", f);
    for (size_t c = 0; c < cols->nrows; c++)
        fprintf(f, "\t%*d", width, num(&cols->rows[c], "mem_node"));
    fputc('\n', f);
    int last_row = -1;
    for (size_t i = 0; i < cells->nrows; i++) {
        int row = num(&cells->rows[i], "row");
        if (row == last_row)
            continue;
        last_row = row;
        fprintf(f, "%8d", num(&cells->rows[i], "cpu_node"));
        for (size_t c = 0; c < cols->nrows; c++) {
            const result_record *cell = NULL;
            for (size_t k = 0; info->results && k < info->results->n; k++) {
                const result_record *r = &info->results->items[k];
                if (num(&r->params, "row") == row && num(&r->params, "column") == (int)c)
                    cell = r;
            }
            if (cell) {
                fputc('\t', f);
                fprintf(f, cell_format, width, result_value(cell));
            } else {
                fprintf(f, "\t%*s", width, "-");
            }
        }
        fputc('\n', f);
    }
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The remote c2c matrices: writer node x reader node, per state and home. */
static void c2c_matrices(FILE *f, const result_list *l)
{
    static const char *const states[] = {"HIT", "HITM"}; /* MLC's order, as its local lines */
    static const char *const homes[] = {"writer", "reader"};
    int axis[MAX_AXIS], n = 0;
    for (size_t i = 0; l && i < l->n; i++)
        for (int t = 0; t < 2 && strcmp(text(&l->items[i], "kind"), "node") == 0; t++) {
            int v = l->items[i].placement[t].node, seen = 0;
            for (int k = 0; k < n; k++)
                seen |= axis[k] == v;
            if (!seen && n < MAX_AXIS)
                axis[n++] = v;
        }
    qsort(axis, (size_t)n, sizeof *axis, cmp_int);
    for (size_t st = 0; st < 2; st++)
        for (size_t h = 0; h < 2; h++) {
            bool any = false;
            for (size_t i = 0; l && i < l->n && !any; i++)
                any = strcmp(text(&l->items[i], "kind"), "node") == 0 &&
                      strcmp(text(&l->items[i], "state"), states[st]) == 0 &&
                      strcmp(text(&l->items[i], "home_of"), homes[h]) == 0;
            if (!any)
                continue;
            fprintf(f, "Remote Socket L2->L2 %s latency (data address homed in %s socket)\n", states[st], homes[h]);
            fputs("\t\t\tReader Numa Node\nWriter Numa Node", f);
            for (int j = 0; j < n; j++)
                fprintf(f, j ? "\t%6d" : "%6d", axis[j]);
            fputc('\n', f);
            for (int i = 0; i < n; i++) {
                fprintf(f, "%13d", axis[i]);
                for (int j = 0; j < n; j++) {
                    const result_record *cell = NULL;
                    for (size_t k = 0; i != j && k < l->n; k++) {
                        const result_record *r = &l->items[k];
                        if (strcmp(text(r, "kind"), "node") == 0 && strcmp(text(r, "state"), states[st]) == 0 &&
                            strcmp(text(r, "home_of"), homes[h]) == 0 && r->placement[0].node == axis[i] &&
                            r->placement[1].node == axis[j])
                            cell = r;
                    }
                    if (cell)
                        fprintf(f, "\t%6.1f", cell->summary.median);
                    else
                        fprintf(f, "\t%6s", "-");
                }
                fputc('\n', f);
            }
        }
}

static void end(sink *s, const run_info *info)
{
    mlc_sink *m = (mlc_sink *)s;
    switch (m->spec.block) {
    case MLC_BLOCK_LATENCY_MATRIX:
        node_matrix(m->f, info, "%*.1f", 6);
        break;
    case MLC_BLOCK_BANDWIDTH_MATRIX:
        node_matrix(m->f, info, "%*.1f", 7);
        break;
    case MLC_BLOCK_C2C:
        fputs(m->held_hitm, m->f); /* no HIT line came */
        m->held_hitm[0] = '\0';
        c2c_matrices(m->f, info->results);
        break;
    default:
        break;
    }
    fflush(m->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *mlc_sink_create(FILE *f, const mlc_block_spec *spec)
{
    mlc_sink *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &ops;
    m->f = f;
    m->spec = *spec;
    return &m->base;
}
