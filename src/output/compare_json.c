/* SPDX-License-Identifier: MIT */
#include "output/compare_json.h"

#include "output/json.h"

static void run_identity(json_writer *j, const char *key, const char *path, const loaded_run *r)
{
    json_object_begin(j, key);
    json_string(j, "file", path);
    json_string(j, "mode", r->mode);
    json_string(j, "hostname", r->hostname);
    json_string(j, "cpu_model", r->cpu_model);
    json_string(j, "kernel", r->kernel);
    json_string(j, "started_at", r->started_at);
    json_bool(j, "complete", r->complete);
    json_object_end(j);
}

static void row(json_writer *j, const compare_row *w)
{
    const loaded_record *x = w->a ? w->a : w->b;
    json_object_begin(j, NULL);
    json_string(j, "mode", x->mode);
    json_string(j, "operation", x->operation);
    json_string(j, "metric", x->metric);
    json_string(j, "unit", x->unit);
    json_uint(j, "size_bytes", x->size_bytes);
    json_int(j, "threads", x->threads);
    json_string(j, "nodes", x->nodes);
    if (w->a)
        json_number(j, "a_median", w->a_median);
    else
        json_null(j, "a_median");
    if (w->b)
        json_number(j, "b_median", w->b_median);
    else
        json_null(j, "b_median");
    if (w->a && w->b)
        json_number(j, "ratio", w->ratio.ratio);
    else
        json_null(j, "ratio");
    if (w->ratio.told) {
        json_number(j, "ratio_low", w->ratio.low);
        json_number(j, "ratio_high", w->ratio.high);
    } else {
        json_null(j, "ratio_low");
        json_null(j, "ratio_high");
    }
    json_uint(j, "a_run_count", w->a_nruns); /* how many of each side's runs have the figure */
    json_uint(j, "b_run_count", w->b_nruns);
    json_string(j, "verdict", compare_verdict_text(w->verdict));
    json_bool(j, "beyond_threshold", w->beyond_threshold);
    json_object_begin(j, "two_levels"); /* each run's samples of it fell in two levels: its median is neither */
    json_bool(j, "a", w->a_two_levels);
    json_bool(j, "b", w->b_two_levels);
    json_object_end(j);
    json_object_end(j);
}

static void side_runs(json_writer *j, const char *key, const compare_side *s)
{
    json_array_begin(j, key);
    for (size_t i = 0; i < s->count; i++)
        run_identity(j, NULL, s->paths[i], &s->runs[i]);
    json_array_end(j);
}

void compare_json_write(FILE *f, const compare_side *sa, const compare_side *sb, const compare_report *r,
                        double threshold_pct, const char *differences, bool forced)
{
    const char *path_a = sa->paths[0], *path_b = sb->paths[0];
    const loaded_run *a = &sa->runs[0], *b = &sb->runs[0];
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_string(&j, "tool", "membench");
    json_string(&j, "version", MEMBENCH_VERSION);
    json_string(&j, "kind", "compare");
    run_identity(&j, "a", path_a, a);
    run_identity(&j, "b", path_b, b);
    side_runs(&j, "a_runs", sa); /* every run of a side; "a" and "b" are the first */
    side_runs(&j, "b_runs", sb);
    json_string(&j, "differences", differences && *differences ? differences : NULL);
    json_bool(&j, "forced", forced);
    json_string(&j, "test", r->runs_a > 1 || r->runs_b > 1
                                ? "bootstrap 95% percentile interval of median(B)/median(A), each side's runs pooled"
                                : "bootstrap 95% percentile interval of median(B)/median(A)");
    /* the resamples draw a side's runs, then their batches: the spread between runs counts */
    json_bool(&j, "between_runs", r->between_runs);
    /* a side has one run: a difference under large_change_factor cannot tell */
    json_bool(&j, "one_run_rule", r->one_run_rule);
    json_number(&j, "large_change_factor", COMPARE_LARGE_CHANGE);
    json_int(&j, "resamples", BOOTSTRAP_RESAMPLES);
    json_int(&j, "seed", BOOTSTRAP_SEED);
    if (r->host_widened) { /* each run's host variation (0: no verdict), as the intervals were widened */
        json_object_begin(&j, "host_widening");
        json_number(&j, "a_pct", r->host_a_pct);
        json_number(&j, "b_pct", r->host_b_pct);
        json_number(&j, "cap_pct", COMPARE_HOST_WIDEN_CAP_PCT); /* a run claiming more is widened by this */
        json_bool(&j, "a_capped", r->host_a_capped);
        json_bool(&j, "b_capped", r->host_b_capped);
        json_object_end(&j);
    } else {
        json_null(&j, "host_widening");
    }
    if (threshold_pct >= 0)
        json_number(&j, "threshold_pct", threshold_pct);
    else
        json_null(&j, "threshold_pct");
    /* the verdicts' threshold: an interval holding 1 that reaches beyond it cannot tell */
    json_number(&j, "verdict_threshold_pct", r->threshold_pct);
    json_int(&j, "exit_status", compare_exit_status(r));
    json_string(&j, "exit_reason", compare_exit_reason(r));
    json_array_begin(&j, "figures");
    for (size_t i = 0; i < r->count; i++)
        row(&j, &r->rows[i]);
    json_array_end(&j);
    json_object_end(&j);
    fputc('\n', f);
}
