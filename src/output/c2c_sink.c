/* SPDX-License-Identifier: MIT */
#include "output/c2c_sink.h"

#include <stdlib.h>
#include <string.h>

#define MAX_AXIS 1024

static const char *text(const result_record *r, const char *key)
{
    const char *t = params_get_text(&r->params, key);
    return t ? t : "";
}

static double verified(const result_record *r)
{
    return params_get_number(&r->params, "home_verified", -1);
}

/* Each visit's median (c2c_add_visit), -1 for a visit not made. */
static double visit_ns(const result_record *r, int visit)
{
    return params_get_number(&r->params, visit ? "second_visit_ns" : "first_visit_ns", -1);
}

static bool split(const result_record *r)
{
    const param *p = params_find(&r->params, "visits_split");
    return p && p->kind == PARAM_BOOL && p->flag;
}

void c2c_write_row(FILE *f, bool csv, const result_record *r)
{
    const result_thread *w = &r->placement[0], *d = &r->placement[1];
    int home = (int)params_get_number(&r->params, "home_node", -1);
    double own = params_get_number(&r->params, "reader_own_ns", 0);
    if (csv) {
        fprintf(f, "%s,%d,%d,%d,%d,%s,%d,%s,", text(r, "kind"), w->cpu, w->node, d->cpu, d->node, text(r, "state"),
                home, text(r, "home_of"));
        if (verified(r) >= 0)
            fprintf(f, "%.3f", verified(r));
        fprintf(f, ",%llu,%.3f,%.3f,%d,%d,%.3f,", (unsigned long long)r->size_bytes, r->summary.median,
                r->summary.stddev, r->nsamples, r->converged ? 1 : 0, own);
        if (visit_ns(r, 1) >= 0) /* empty: a run stopped before the second visit */
            fprintf(f, "%.3f,%.3f,%d", visit_ns(r, 0), visit_ns(r, 1), split(r) ? 1 : 0);
        else
            fputs(",,", f);
        fputc('\n', f);
        return;
    }
    char wc[32], rc[32], hm[48];
    snprintf(wc, sizeof wc, "CPU %d (node %d)", w->cpu, w->node);
    snprintf(rc, sizeof rc, "CPU %d (node %d)", d->cpu, d->node);
    if (verified(r) >= 0)
        snprintf(hm, sizeof hm, "node %d (%.0f%% there)", home, verified(r) * 100);
    else
        snprintf(hm, sizeof hm, "node %d (unverified)", home);
    char visits[48] = "-";
    if (visit_ns(r, 1) >= 0)
        snprintf(visits, sizeof visits, "%.1f/%.1f%s", visit_ns(r, 0), visit_ns(r, 1), split(r) ? " SPLIT" : "");
    fprintf(f, "%-6s %-17s %-17s %-5s %-20s %8.1f ns %7.2f %7d %5s %9.1f ns  %s\n", text(r, "kind"), wc, rc,
            text(r, "state"), hm, r->summary.median, r->summary.stddev, r->nsamples, r->converged ? "yes" : "NO", own,
            visits);
}

static int axis_index(const int *axis, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (axis[i] == v)
            return i;
    return -1;
}

static void axis_add(int *axis, int *n, int v)
{
    if (*n < MAX_AXIS && axis_index(axis, *n, v) < 0)
        axis[(*n)++] = v;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static bool in_group(const result_record *r, const char *kind, const char *state, const char *home_of)
{
    return strcmp(text(r, "kind"), kind) == 0 && strcmp(text(r, "state"), state) == 0 &&
           strcmp(text(r, "home_of"), home_of) == 0;
}

/* One matrix: rows writers, columns readers (nodes, or CPUs for --matrix). */
static void write_matrix(FILE *f, const result_list *l, const result_record *first, int *axis)
{
    const char *kind = text(first, "kind"), *state = text(first, "state"), *home_of = text(first, "home_of");
    bool cpus = strcmp(kind, "matrix") == 0;
    int n = 0;
    for (size_t i = 0; i < l->n; i++)
        if (in_group(&l->items[i], kind, state, home_of))
            for (int t = 0; t < 2; t++)
                axis_add(axis, &n, cpus ? l->items[i].placement[t].cpu : l->items[i].placement[t].node);
    qsort(axis, (size_t)n, sizeof *axis, cmp_int);
    const char *home = strcmp(home_of, "writer") == 0   ? "the writer's node"
                       : strcmp(home_of, "reader") == 0 ? "the reader's node"
                                                        : "the --home node";
    fprintf(f, "\n%s: writer %s x reader %s, memory homed on %s (ns per line, median)\n",
            strcmp(state, "HIT") == 0 ? "HIT (clean lines)" : "HITM (modified lines)", cpus ? "CPU" : "node",
            cpus ? "CPU" : "node", home);
    fprintf(f, "%-8s", cpus ? "Writer" : "Node");
    for (int j = 0; j < n; j++)
        fprintf(f, " %8d", axis[j]);
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%-8d", axis[i]);
        for (int j = 0; j < n; j++) {
            const result_record *cell = NULL;
            for (size_t k = 0; k < l->n && i != j; k++) {
                const result_record *r = &l->items[k];
                int w = cpus ? r->placement[0].cpu : r->placement[0].node;
                int d = cpus ? r->placement[1].cpu : r->placement[1].node;
                if (in_group(r, kind, state, home_of) && w == axis[i] && d == axis[j])
                    cell = r;
            }
            if (i == j)
                fprintf(f, " %8s", "-");
            else if (cell && split(cell))
                fprintf(f, " %7.1f*", cell->summary.median);
            else if (cell)
                fprintf(f, " %8.1f", cell->summary.median);
            else
                fprintf(f, " %8s", "?");
        }
        fputc('\n', f);
    }
}

void c2c_write_matrices(FILE *f, const result_list *l)
{
    int *axis = malloc(MAX_AXIS * sizeof *axis);
    bool any = false;
    for (size_t i = 0; axis && i < l->n; i++) {
        const result_record *r = &l->items[i];
        const char *kind = text(r, "kind");
        if (strcmp(kind, "node") != 0 && strcmp(kind, "matrix") != 0)
            continue;
        bool seen = false; /* one matrix per group, at its first result */
        for (size_t k = 0; k < i && !seen; k++)
            seen = in_group(&l->items[k], kind, text(r, "state"), text(r, "home_of"));
        if (!seen) {
            write_matrix(f, l, r, axis);
            any = true;
        }
    }
    if (any)
        fprintf(f, "A line may come from the writer's L1/L2, a shared L3, another CCX or socket, or memory. *: its two "
                   "visits disagree (the CPUs moved between host cores); its row above gives both.\n");
    free(axis);
}

typedef struct {
    sink base;
    FILE *f;
    bool csv;
} c2c_sink;

static void begin(sink *s, const run_info *info)
{
    c2c_sink *c = (c2c_sink *)s;
    if (c->csv) {
        fputs(C2C_CSV_HEADER "\n", c->f);
    } else {
        static const char *const keys[] = {"hit_lines", "hitm_lines", "source"}; /* MLC's order */
        fprintf(c->f, "# membench c2c: %s\n", params_get_text(&info->plan.values, "method"));
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            fprintf(c->f, "# %s\n", params_get_text(&info->plan.values, keys[i]));
        fprintf(c->f, "%-6s %-17s %-17s %-5s %-20s %11s %7s %7s %5s %12s  %s\n", "Pair", "Writer", "Reader", "State",
                "Home", "Latency", "Stddev", "Samples", "CV<5%", "Reader's own", "Visits (ns)");
    }
    fflush(c->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    c2c_sink *c = (c2c_sink *)s;
    c2c_write_row(c->f, c->csv, r);
    fflush(c->f);
}

static void end(sink *s, const run_info *info)
{
    c2c_sink *c = (c2c_sink *)s;
    if (!c->csv && info->results)
        c2c_write_matrices(c->f, info->results);
    fflush(c->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *c2c_sink_create(FILE *f, bool csv)
{
    c2c_sink *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->base.ops = &ops;
    c->f = f;
    c->csv = csv;
    return &c->base;
}
