/* SPDX-License-Identifier: MIT */
#include "output/latency_sink.h"

#include <stdlib.h>
#include <string.h>

#include "output/format.h"
#include "output/table_sink.h"
#include "util/format_bytes.h"

void latency_write_header(FILE *f, bool csv, const char *counter, double counter_hz)
{
    if (csv) {
        fputs(LATENCY_CSV_HEADER "\n", f);
        return;
    }
    if (counter_hz > 0 && counter)
        fprintf(f, "# cycles: %s reference counter at %.3f GHz (not the core clock)\n", counter, counter_hz / 1e9);
    /* Median: membench's figure; Best: the lowest sample, the statistic multichase
     * prints (the best of its 0.5 s samples; membench's samples are shorter) */
    fprintf(f, "%-12s %10s  %-16s %10s %10s %9s %8s %6s  %-18s  %s\n", "Size", "Median", "Interval (level)", "Best",
            "Cycles", "Stddev", "Samples", "CV<5%", "Pages (huge share)",
            "Full random (page walks): median, interval, best");
}

/* The full random chase's median and best sample (result_full_random: measured
 * beside the headline, or the headline's own chase); false when there is none. */
static bool random_latency(const result_record *r, double *ns, double *best)
{
    const sample_stats *st;
    int n;
    if (!result_full_random(r, &st, &n))
        return false;
    *ns = st->median;
    *best = st->min;
    return true;
}

void latency_write_row(FILE *f, bool csv, const result_record *r)
{
    double cycles = params_get_number(&r->params, "latency_ref_cycles", -1);
    if (csv) {
        fprintf(f, "%llu,%.3f,", (unsigned long long)(r->size_bytes / 1024), r->summary.median);
        if (cycles >= 0)
            fprintf(f, "%.2f", cycles);
        fprintf(f, ",%.3f,%d,%d,%s,", r->summary.stddev, r->nsamples, r->converged ? 1 : 0,
                r->page_method ? r->page_method : "");
        if (r->huge_coverage >= 0)
            fprintf(f, "%.3f", r->huge_coverage);
        double rnd, rnd_best;
        bool have_rnd = random_latency(r, &rnd, &rnd_best);
        if (have_rnd)
            fprintf(f, ",%.3f", rnd);
        else
            fputs(",", f);
        if (r->nsamples > 0)
            fprintf(f, ",%.3f", r->summary.min);
        else
            fputs(",", f);
        if (have_rnd)
            fprintf(f, ",%.3f\n", rnd_best);
        else
            fputs(",\n", f);
        return;
    }
    char size[32], cyc[32] = "-", pages[48], pm[48];
    format_bytes(r->size_bytes, size, sizeof size);
    const sample_stats *st = &r->summary;
    format_interval_level(st, pm, sizeof pm);
    int pm_width = (int)strlen(pm) - (strncmp(pm, "\xc2\xb1", 2) == 0); /* "±" is two bytes, one column */
    if (cycles >= 0)
        snprintf(cyc, sizeof cyc, "%.1f", cycles);
    if (r->huge_coverage >= 0)
        snprintf(pages, sizeof pages, "%s (%.0f%%)", r->page_method, r->huge_coverage * 100);
    else
        snprintf(pages, sizeof pages, "%s", r->page_method);
    char rnd[96] = "-";
    double rnd_ns, rnd_best;
    if (r->random_chase == RANDOM_CHASE_MEASURED && random_latency(r, &rnd_ns, &rnd_best)) {
        char rpm[48];
        format_interval_level(&r->random_summary, rpm, sizeof rpm);
        snprintf(rnd, sizeof rnd, "%.2f ns %s, best %.2f ns", rnd_ns, rpm, rnd_best);
    } else if (r->random_chase == RANDOM_CHASE_FAILED) {
        snprintf(rnd, sizeof rnd, "not allocated");
    }
    fprintf(f, "%-12s %7.2f ns  %s%*s %7.2f ns %10s %9.2f %8d %6s  %-18s  %s\n", size, r->summary.median, pm,
            16 - pm_width, "", r->summary.min, cyc, r->summary.stddev, r->nsamples, r->converged ? "yes" : "NO", pages,
            rnd);
}

static uint64_t row_bytes(const param_list *row, const char *key)
{
    return (uint64_t)params_get_number(row, key, 0);
}

/* Why no step was found: no point to read one off, too few, or a curve flat within
 * its noise (no rise of STEP_RISE with its interval above the plateau's). */
static void write_no_steps(FILE *f, const param_section *analysis)
{
    long long used = (long long)params_get_number(&analysis->values, "points_converged", -1);
    long long all = used + (long long)params_get_number(&analysis->values, "points_not_converged", 0);
    if (used < 0)
        fprintf(f, "  none found in this range\n");
    else if (used == 0)
        fprintf(f, "  none found: none of the %lld points reached CV < 5%%, and steps are read only off those that "
                   "did\n",
                all);
    else if (used < 3)
        fprintf(f, "  none found: only %lld of %lld points reached CV < 5%%, too few to show a step\n", used, all);
    else
        fprintf(f, "  none found: across the %lld points that reached CV < 5%% (of %lld), none rises %.0f%% above "
                   "its plateau with its interval wholly above: flat within the noise in this range\n",
                used, all, params_get_number(&analysis->values, "step_rise_pct", 25));
}

static void write_steps(FILE *f, const param_section *analysis)
{
    char a[32], b[32];
    const param_table *steps = section_find_table(analysis, "steps");
    fprintf(f, "\nLatency steps (where the curve leaves a plateau):\n");
    if (!steps || steps->nrows == 0)
        write_no_steps(f, analysis);
    for (size_t i = 0; steps && i < steps->nrows; i++) {
        const param_list *s = &steps->rows[i];
        format_bytes(row_bytes(s, "last_size_before_bytes"), a, sizeof a);
        format_bytes(row_bytes(s, "first_size_after_bytes"), b, sizeof b);
        fprintf(f, "  after %-9s %.1f ns -> %.1f ns (climb ends at %s)\n", a,
                params_get_number(s, "latency_before_ns", 0), params_get_number(s, "latency_after_ns", 0), b);
    }
}

static bool flag(const param_list *row, const char *key)
{
    const param *p = params_find(row, key);
    return p && p->kind == PARAM_BOOL && p->flag;
}

void latency_write_estimates(FILE *f, const param_section *analysis)
{
    char a[32], b[32];
    write_steps(f, analysis);
    const param_table *checks = section_find_table(analysis, "cache_checks");
    size_t n = checks ? checks->nrows : 0;
    double factor = params_get_number(&analysis->values, "disagree_factor", 2.0);
    fprintf(f, "Cache sizes, reported vs measured:\n");
    for (size_t i = 0; i < n; i++) {
        const param_list *c = &checks->rows[i];
        int level = (int)params_get_number(c, "level", 0);
        uint64_t measured = row_bytes(c, "measured_bytes");
        format_bytes(row_bytes(c, "reported_bytes"), a, sizeof a);
        const char *why = params_get_text(c, "not_checked");
        if (!flag(c, "checkable") && why && strcmp(why, "points_not_converged") == 0) {
            fprintf(f, "  L%d reported %-9s not checked: the points from 1/%gx to %gx that size did not reach CV < 5%% "
                       "(only those are used)\n",
                    level, a, factor, factor);
        } else if (!flag(c, "checkable")) {
            fprintf(f, "  L%d reported %-9s not checked: the curve does not reach from 1/%gx to %gx that size\n", level,
                    a, factor, factor);
        } else if (!measured) {
            fprintf(f, "  L%d reported %-9s no latency step found\n", level, a);
        } else {
            format_bytes(measured, b, sizeof b);
            char off[48] = "";
            if (flag(c, "disagrees"))
                snprintf(off, sizeof off, "   <- more than %gx off", factor);
            fprintf(f, "  L%d reported %-9s %s after %s%s\n", level, a,
                    i + 1 == n ? "step into DRAM" : "latency steps up", b, off);
        }
    }
    /* only a checkable last level says anything about the cache this CPU gets */
    const param_list *llc = n > 0 && flag(&checks->rows[n - 1], "checkable") ? &checks->rows[n - 1] : NULL;
    long long unconverged = (long long)params_get_number(&analysis->values, "points_not_converged", 0);
    if (llc && row_bytes(llc, "measured_bytes")) {
        char c[32];
        format_bytes(row_bytes(llc, "measured_bytes"), a, sizeof a);
        format_bytes(row_bytes(llc, "reported_bytes"), b, sizeof b);
        format_bytes(row_bytes(llc, "measured_below_bytes"), c, sizeof c);
        fprintf(f,
                "Effective last-level cache one thread sees on this CPU (a diagnostic: DRAM sizes come from the cache "
                "sources): %s (at least %s, less than %s: the next size whose median "
                "converged), where latency climbs to %.0f ns (reported: %s)\n",
                a, a, c, params_get_number(llc, "measured_latency_ns", 0), b);
    } else if (llc || unconverged > 0) {
        fprintf(f, "Effective last-level cache one thread sees on this CPU: could not tell (%lld of %lld points did not reach CV < 5%% "
                   "and are not used; no step among the rest has intervals apart)\n",
                unconverged, unconverged + (long long)params_get_number(&analysis->values, "points_converged", 0));
    }
    for (size_t i = 0; i < n; i++) {
        const param_list *c = &checks->rows[i];
        if (!flag(c, "checkable") || !flag(c, "disagrees"))
            continue;
        format_bytes(row_bytes(c, "reported_bytes"), a, sizeof a);
        int level = (int)params_get_number(c, "level", 0);
        if (row_bytes(c, "measured_bytes")) {
            format_bytes(row_bytes(c, "measured_bytes"), b, sizeof b);
            fprintf(f, "warning: L%d is reported as %s but latency says %s: the cache this CPU really gets "
                       "differs from the one it is told about\n",
                    level, a, b);
        } else {
            fprintf(f, "warning: L%d is reported as %s but the latency curve shows no step near it\n", level, a);
        }
    }
    if (flag(&analysis->values, "page_walk_steps"))
        fprintf(f, "note: this order walks pages: without huge pages, TLB misses add steps of their own; --pages 2m "
                   "separates them\n");
}

void latency_write_random_note(FILE *f, const result_list *results)
{
    size_t below = 0, apart = 0;
    const result_record *first = NULL;
    for (size_t i = 0; results && i < results->n; i++) {
        const result_record *r = &results->items[i];
        if (r->random_chase != RANDOM_CHASE_MEASURED || r->random_nsamples == 0 ||
            !(r->random_summary.median < r->summary.median))
            continue;
        below++;
        first = first ? first : r;
        apart += r->random_summary.median_level > 0 && r->summary.median_level > 0 &&
                 r->random_summary.median_high < r->summary.median_low;
    }
    if (!first)
        return;
    char size[32];
    format_bytes(first->size_bytes, size, sizeof size);
    fprintf(f,
            "note: the full random chase came out below the TLB-local one at %zu size%s (%s: %.2f ns against %.2f ns); "
            "it adds page walks to every load, so it cannot be faster: %s\n",
            below, below == 1 ? "" : "s", size, first->random_summary.median, first->summary.median,
            apart ? "the host moved between the two chases (their intervals are apart; see HOST DURING THIS RUN)"
                  : "the difference is within their intervals, the host's noise");
}

typedef struct {
    sink base;
    FILE *f;   /* the table or CSV */
    FILE *err; /* the estimates after a CSV (stdout stays CSV) */
    bool csv;
} latency_sink;

static void begin(sink *s, const run_info *info)
{
    latency_sink *l = (latency_sink *)s;
    if (!l->csv)
        fprintf(l->f, "# membench latency: %s\n", params_get_text(&info->plan.values, "method"));
    latency_write_header(l->f, l->csv, params_get_text(&info->plan.values, "counter"),
                         params_get_number(&info->plan.values, "counter_hz", 0));
    fflush(l->f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    latency_sink *l = (latency_sink *)s;
    latency_write_row(l->f, l->csv, r);
    fflush(l->f);
}

static void end(sink *s, const run_info *info)
{
    latency_sink *l = (latency_sink *)s;
    /* nothing measured (a failure, a signal, -t): no curve to draw conclusions from */
    if (info->results && info->results->n > 0) {
        FILE *out = l->csv ? l->err : l->f; /* stdout stays CSV */
        latency_write_estimates(out, &info->analysis);
        latency_write_random_note(out, info->results);
        /* how far each point's interval is to be widened for the host, as -R says it */
        fprintf(out, "\n");
        table_write_host_noise(out, &info->noise);
    }
    fflush(l->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *latency_sink_create(FILE *f, FILE *err, bool csv)
{
    latency_sink *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->base.ops = &ops;
    l->f = f;
    l->err = err;
    l->csv = csv;
    return &l->base;
}
