/* SPDX-License-Identifier: MIT */
#include "output/compare_table.h"

#include <stdlib.h>
#include <string.h>

#include "util/format_bytes.h"
#include "util/one_line.h"
#include "util/stats.h"

enum { COLS = 10, CELL = 96 }; /* the longest verdict with its two-levels note fits */

static const char *const heads[COLS] = {"mode", "operation", "size", "threads", "nodes", "A",
                                        "B", "B/A", "95% interval", "verdict"};
/* Numbers right-aligned, words left. */
static const bool right[COLS] = {false, false, true, true, false, true, true, true, false, false};

static void cells_of(const compare_row *row, char c[COLS][CELL])
{
    const loaded_record *x = row->a ? row->a : row->b;
    char size[32];
    snprintf(c[0], CELL, "%s", x->mode);
    snprintf(c[1], CELL, "%s", x->operation);
    snprintf(c[2], CELL, "%s", format_bytes(x->size_bytes, size, sizeof size));
    snprintf(c[3], CELL, "%lld", x->threads);
    snprintf(c[4], CELL, "%s", x->nodes);
    if (row->a)
        snprintf(c[5], CELL, "%.1f %s", row->a_median, x->unit);
    else
        snprintf(c[5], CELL, "-");
    if (row->b)
        snprintf(c[6], CELL, "%.1f %s", row->b_median, x->unit);
    else
        snprintf(c[6], CELL, "-");
    if (row->a && row->b)
        snprintf(c[7], CELL, "%.3f", row->ratio.ratio);
    else
        snprintf(c[7], CELL, "-");
    if (row->ratio.told)
        snprintf(c[8], CELL, "%.3f-%.3f", row->ratio.low, row->ratio.high);
    else
        snprintf(c[8], CELL, "-");
    const char *levels = row->a_two_levels && row->b_two_levels ? " (A and B in two levels)"
                         : row->a_two_levels                    ? " (A in two levels)"
                         : row->b_two_levels                    ? " (B in two levels)"
                                                                : "";
    snprintf(c[9], CELL, "%s%s%s", compare_verdict_text(row->verdict), row->beyond_threshold ? " (beyond threshold)" : "",
             levels);
    for (int k = 0; k < COLS; k++)
        one_line(c[k]); /* mode, operation, unit and nodes come from the files */
}

static void print_line(FILE *f, char c[COLS][CELL], const int *width)
{
    for (int k = 0; k < COLS; k++) {
        bool last = k == COLS - 1;
        fprintf(f, "%s%*s%s", k ? "  " : "", right[k] ? width[k] : last ? 0 : -width[k], c[k], last ? "\n" : "");
    }
}

/* "A: a.json (sweep on vm, Linux 6.1 x86_64, 2026-...)": the path, mode, host,
 * kernel and date as the file says them, neutralised (util/one_line.h). */
static void describe(FILE *f, const char *label, const char *path, const loaded_run *r)
{
    char line[8192];
    snprintf(line, sizeof line, "%s: %s (%s on %s, %s, %s%s)", label, path, r->mode, r->hostname, r->kernel,
             r->started_at ? r->started_at : "no date", r->complete ? "" : ", incomplete: the run was stopped");
    fprintf(f, "%s\n", one_line(line));
}

/* "\xc2\xb12.1%", "\xc2\xb120.0% (claims \xc2\xb150.0%, capped)", or why a run's host adds nothing */
static const char *host_text(const loaded_run *r, bool capped, char *buf, size_t len)
{
    if (capped)
        snprintf(buf, len, "\xc2\xb1%.1f%% (claims \xc2\xb1%.1f%%, capped)", COMPARE_HOST_WIDEN_CAP_PCT,
                 r->host_varied_pct);
    else if (r->host_varied_pct > 0)
        snprintf(buf, len, "\xc2\xb1%.1f%%", r->host_varied_pct);
    else
        snprintf(buf, len, "%s", r->host_varied_pct == 0 ? "\xc2\xb1" "0%" : "no verdict: not widened");
    return buf;
}

static void describe_side(FILE *f, const char *side, const compare_side *s)
{
    for (size_t i = 0; i < s->count; i++) {
        char label[32];
        if (s->count == 1)
            snprintf(label, sizeof label, "%s", side);
        else
            snprintf(label, sizeof label, "%s%zu", side, i + 1);
        describe(f, label, s->paths[i], &s->runs[i]);
    }
}

void compare_table_print_runs(FILE *f, const compare_side *a, const compare_side *b)
{
    describe_side(f, "A", a);
    describe_side(f, "B", b);
}

void compare_table_print(FILE *f, const loaded_run *a, const loaded_run *b, const compare_report *r,
                         double threshold_pct)
{
    char ha[80], hb[80];
    fprintf(f, "A and B are medians of each figure's raw samples (bandwidth: higher is faster;\n"
               "latency: lower is). Verdict: bootstrap 95%% interval of B/A, %d resamples, seed %d;\n",
            BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED);
    if (r->between_runs)
        fprintf(f, "each resample draws a side's runs (A %zu, B %zu), then each drawn run's time batches:\n"
                   "the movement between runs counts (no host widening: the runs show it);\n",
                r->runs_a, r->runs_b);
    else if (r->host_widened)
        fprintf(f, "widened by how much each run's host moved (A %s, B %s; --within-run: not);\n",
                host_text(a, r->host_a_capped, ha, sizeof ha), host_text(b, r->host_b_capped, hb, sizeof hb));
    else if (r->one_run_rule)
        fprintf(f, "each resample draws a side's runs (A %zu, B %zu), then each drawn run's time batches;\n",
                r->runs_a, r->runs_b);
    else if (r->runs_a > 1 || r->runs_b > 1)
        fprintf(f, "from the runs' own samples only (--within-run: each side's runs pooled as one, not drawn);\n");
    else
        fprintf(f, "from the runs' own samples only (--within-run: not widened by their hosts' movement);\n");
    fprintf(f, "an interval that holds 1 is no difference within noise, or cannot tell when it\n"
               "also reaches beyond %g%% slower (%s).\n\n",
            r->threshold_pct, r->gated ? "the threshold" : "without --threshold: 5%");
    char (*cells)[COLS][CELL] = malloc((r->count + 1) * sizeof *cells);
    if (!cells)
        return;
    int width[COLS] = {0};
    for (size_t i = 0; i <= r->count; i++) {
        if (i == 0)
            for (int k = 0; k < COLS; k++)
                snprintf(cells[0][k], CELL, "%s", heads[k]);
        else
            cells_of(&r->rows[i - 1], cells[i]);
        for (int k = 0; k < COLS; k++)
            if ((int)strlen(cells[i][k]) > width[k])
                width[k] = (int)strlen(cells[i][k]);
    }
    for (size_t i = 0; i <= r->count; i++)
        print_line(f, cells[i], width);
    free(cells);
    fprintf(f, "\n%zu figures in both: %zu faster, %zu slower, %zu no difference within noise, %zu cannot tell; "
               "%zu only in A, %zu only in B\n",
            r->matched, r->faster, r->slower, r->same, r->untold, r->only_a, r->only_b);
    if (r->two_levels)
        fprintf(f, "%zu figure%s fell in two levels in A or B (their samples jump by %gx or more): such a median is "
                   "neither level, and its verdict says little\n",
                r->two_levels, r->two_levels == 1 ? "" : "s", STATS_LEVEL_JUMP);
    if (r->one_run)
        fprintf(f, "%zu figure%s differ%s by under %gx with one run a side: two runs of one build on a noisy host differ "
                   "by more than either shows, so it cannot tell (compare several runs a side, A and B interleaved: "
                   "membench compare a-*.json vs b-*.json)\n",
                r->one_run, r->one_run == 1 ? "" : "s", r->one_run == 1 ? "s" : "", COMPARE_LARGE_CHANGE);
    if (threshold_pct >= 0 && !r->matched)
        fprintf(f, "Threshold %g%%: no figure in both runs, nothing compared (exit status 1)\n", threshold_pct);
    else if (threshold_pct >= 0 && !r->beyond && r->untold)
        fprintf(f, "Threshold %g%%: 0 figures slower by more than %g%%, but %zu cannot tell (exit status %d: the gate "
                   "cannot pass)\n", threshold_pct, threshold_pct, r->untold, COMPARE_EXIT_CANNOT_TELL);
    else if (threshold_pct >= 0)
        fprintf(f, "Threshold %g%%: %zu figure%s slower by more than %g%%%s\n", threshold_pct, r->beyond,
                r->beyond == 1 ? "" : "s", threshold_pct, r->beyond ? " (exit status 1)" : "");
}
