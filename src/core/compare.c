/* SPDX-License-Identifier: MIT */
#include "core/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"
#include "util/stats.h"
#include "util/stop_flag.h"

/* Options that only decide where and how the output goes: two runs that differ
 * in them measured the same thing. */
static const char *const output_only[] = {"json", "verbose", "csv", "human_readable", "openmetrics", NULL};

static bool is_output_only(const char *key)
{
    for (size_t i = 0; output_only[i]; i++)
        if (strcmp(key, output_only[i]) == 0)
            return true;
    return false;
}

static bool same_scalar(const json_value *x, const json_value *y)
{
    if (!x || !y || x->type != y->type)
        return x == y;
    switch (x->type) {
    case JV_BOOL:
        return x->boolean == y->boolean;
    case JV_NUMBER:
        return x->number == y->number;
    case JV_STRING:
        return x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
    case JV_NULL:
        return true;
    default:
        return false; /* options are scalars; anything else is not the same */
    }
}

static void scalar_text(const json_value *v, char *out, size_t len)
{
    if (!v)
        snprintf(out, len, "absent");
    else if (v->type == JV_STRING)
        snprintf(out, len, "%.40s", v->text);
    else if (v->type == JV_NUMBER)
        snprintf(out, len, "%g", v->number);
    else if (v->type == JV_BOOL)
        snprintf(out, len, "%s", v->boolean ? "true" : "false");
    else
        snprintf(out, len, "%s", v->type == JV_NULL ? "null" : "not a scalar");
}

/* Appends "; what (x vs y)" to out. */
static void add_difference(char *out, size_t len, const char *what, const char *x, const char *y)
{
    size_t used = strlen(out);
    if (used < len)
        snprintf(out + used, len - used, "%s%s (%.60s vs %.60s)", used ? "; " : "", what, x, y);
}

static void option_differences(const json_value *a, const json_value *b, char *out, size_t len)
{
    for (int pass = 0; pass < 2; pass++) {
        const json_value *from = pass ? b : a, *other = pass ? a : b;
        for (size_t i = 0; i < from->count; i++) {
            const json_value *mine = &from->items[i], *theirs = json_get(other, mine->key);
            if (is_output_only(mine->key) || (pass && theirs)) /* pass 2: only keys a lacks */
                continue;
            if (!same_scalar(mine, theirs)) {
                char x[48], y[48], what[80];
                scalar_text(pass ? theirs : mine, x, sizeof x);
                scalar_text(pass ? mine : theirs, y, sizeof y);
                snprintf(what, sizeof what, "option %.60s", mine->key);
                add_difference(out, len, what, x, y);
            }
        }
    }
}

bool compare_differences(const loaded_run *a, const loaded_run *b, char *out, size_t len)
{
    out[0] = '\0';
    const char *what[] = {"host", "CPU model", "kernel", "mode"};
    const char *x[] = {a->hostname, a->cpu_model, a->kernel, a->mode};
    const char *y[] = {b->hostname, b->cpu_model, b->kernel, b->mode};
    for (size_t i = 0; i < 4; i++)
        if (strcmp(x[i], y[i]) != 0)
            add_difference(out, len, what[i], x[i], y[i]);
    option_differences(a->options, b->options, out, len);
    one_line(out); /* host names and options come from the files */
    return out[0] != '\0';
}

/* A figure's identity; repeats of one key are told apart by their order. */
typedef struct {
    char key[256];
    size_t index, repeat;
} figure_key;

static int by_key(const void *x, const void *y)
{
    const figure_key *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static int by_key_and_repeat(const figure_key *a, const figure_key *b)
{
    int c = strcmp(a->key, b->key);
    return c ? c : (a->repeat > b->repeat) - (a->repeat < b->repeat);
}

/* Keys of every record, sorted, with each repeat numbered. */
static figure_key *sorted_keys(const loaded_run *r)
{
    figure_key *k = calloc(r->count ? r->count : 1, sizeof *k);
    if (!k)
        return NULL;
    for (size_t i = 0; i < r->count; i++) {
        const loaded_record *x = &r->records[i];
        snprintf(k[i].key, sizeof k[i].key, "%s|%s|%s|%llu|%lld|%s", x->mode, x->operation, x->metric, x->size_bytes,
                 x->threads, x->nodes);
        k[i].index = i;
    }
    qsort(k, r->count, sizeof *k, by_key);
    for (size_t i = 1; i < r->count; i++)
        if (strcmp(k[i].key, k[i - 1].key) == 0)
            k[i].repeat = k[i - 1].repeat + 1;
    return k;
}

bool compare_higher_is_better(const loaded_record *r)
{
    return strcmp(r->metric, "bandwidth") == 0;
}

compare_verdict compare_judge(const ratio_interval *ri, bool higher_is_better)
{
    if (!ri->told)
        return VERDICT_CANNOT_TELL;
    if (ri->low > 1)
        return higher_is_better ? VERDICT_FASTER : VERDICT_SLOWER;
    if (ri->high < 1)
        return higher_is_better ? VERDICT_SLOWER : VERDICT_FASTER;
    return VERDICT_SAME;
}

bool compare_reaches_beyond(const ratio_interval *ri, bool higher_is_better, double threshold_pct)
{
    return higher_is_better ? ri->low < 1 - threshold_pct / 100 : ri->high > 1 + threshold_pct / 100;
}

static double median_of(const loaded_record *r)
{
    double *copy = malloc(r->nsamples * sizeof *copy);
    if (!copy)
        return 0;
    memcpy(copy, r->samples, r->nsamples * sizeof *copy);
    double m = median_inplace(copy, r->nsamples);
    free(copy);
    return m;
}

/* The medians of the record's time batches (its rounds, as its summary's median
 * interval takes them): samples taken back to back on a noisy host move together,
 * and a bootstrap of them as independent finds differences that the next run does
 * not have. Returns how many (0: out of memory). */
static size_t batch_medians(const loaded_record *r, double *out)
{
    size_t end[STATS_MAX_BATCHES];
    size_t k = stats_time_batches(r->nsamples, r->sample_rounds, STATS_MAX_BATCHES, end);
    for (size_t b = 0, start = 0; b < k; start = end[b++]) {
        sample_stats st = stats_compute(r->samples + start, end[b] - start);
        if (st.n == 0)
            return 0;
        out[b] = st.median;
    }
    return k;
}

/* Either median may be off by its host's movement: B/A by up to (1 +- b)/(1 -+ a). */
static void widen_for_hosts(ratio_interval *ri, double a_pct, double b_pct)
{
    ri->low *= (1 - b_pct / 100) / (1 + a_pct / 100);
    ri->high *= (1 + b_pct / 100) / (1 - a_pct / 100);
}

static bool in_two_levels(const loaded_record *r)
{
    return stats_compute(r->samples, r->nsamples).low_level_n > 0;
}

static void judge(compare_row *row, const compare_report *rep, bootstrap_cache *bc)
{
    const loaded_record *a = row->a, *b = row->b;
    row->a_two_levels = in_two_levels(a);
    row->b_two_levels = in_two_levels(b);
    row->a_median = median_of(a);
    row->b_median = median_of(b);
    double ma[STATS_MAX_BATCHES], mb[STATS_MAX_BATCHES];
    size_t na = batch_medians(a, ma), nb = batch_medians(b, mb);
    row->ratio = na && nb ? bootstrap_cached_ratio(bc, ma, na, mb, nb) : (ratio_interval){0};
    /* The ratio shown is of all samples' medians (the A and B columns); the batches'
     * bootstrap gives the interval's width around it, so the interval holds it. */
    double shown = row->a_median > 0 ? row->b_median / row->a_median : 0;
    if (row->ratio.told && row->ratio.ratio > 0 && shown > 0) {
        double down = row->ratio.low / row->ratio.ratio, up = row->ratio.high / row->ratio.ratio;
        row->ratio.low = shown * (down < 1 ? down : 1);
        row->ratio.high = shown * (up > 1 ? up : 1);
    }
    row->ratio.ratio = shown;
    const ratio_interval own = row->ratio; /* the runs' own batches */
    if (row->ratio.told && rep->host_widened)
        widen_for_hosts(&row->ratio, rep->host_a_pct, rep->host_b_pct);
    bool higher = compare_higher_is_better(a);
    row->verdict = compare_judge(&row->ratio, higher);
    bool large = higher ? shown * COMPARE_LARGE_CHANGE <= 1 : shown >= COMPARE_LARGE_CHANGE;
    if (large && row->verdict != VERDICT_SLOWER && compare_judge(&own, higher) == VERDICT_SLOWER)
        row->verdict = VERDICT_SLOWER;
    if (row->verdict == VERDICT_SAME && compare_reaches_beyond(&row->ratio, higher, rep->threshold_pct))
        row->verdict = VERDICT_TOO_WIDE;
    row->worse_pct = (higher ? 1 - row->ratio.ratio : row->ratio.ratio - 1) * 100;
    row->beyond_threshold = rep->gated && row->verdict == VERDICT_SLOWER && row->worse_pct > rep->threshold_pct;
}

bool compare_runs(const loaded_run *a, const loaded_run *b, double threshold_pct, bool widen_by_hosts,
                  compare_report *out)
{
    memset(out, 0, sizeof *out);
    out->host_widened = widen_by_hosts;
    out->gated = threshold_pct >= 0;
    out->threshold_pct = out->gated ? threshold_pct : COMPARE_DEFAULT_THRESHOLD_PCT;
    out->host_a_pct = widen_by_hosts && a->host_varied_pct > 0 ? a->host_varied_pct : 0;
    out->host_b_pct = widen_by_hosts && b->host_varied_pct > 0 ? b->host_varied_pct : 0;
    out->host_a_capped = out->host_a_pct > COMPARE_HOST_WIDEN_CAP_PCT;
    out->host_b_capped = out->host_b_pct > COMPARE_HOST_WIDEN_CAP_PCT;
    if (out->host_a_capped)
        out->host_a_pct = COMPARE_HOST_WIDEN_CAP_PCT;
    if (out->host_b_capped)
        out->host_b_pct = COMPARE_HOST_WIDEN_CAP_PCT;
    figure_key *ka = sorted_keys(a), *kb = sorted_keys(b);
    size_t *match_a = calloc(a->count + 1, sizeof *match_a); /* index in b + 1; 0: none */
    bool *matched_b = calloc(b->count + 1, sizeof *matched_b);
    out->rows = calloc(a->count + b->count + 1, sizeof *out->rows);
    bootstrap_cache *bc = bootstrap_cache_new(BOOTSTRAP_SEED); /* one for all figures: their draws repeat */
    bool ok = ka && kb && match_a && matched_b && out->rows && bc;
    for (size_t i = 0, j = 0; ok && i < a->count && j < b->count;) { /* merge the sorted keys */
        int c = by_key_and_repeat(&ka[i], &kb[j]);
        if (c == 0) {
            match_a[ka[i].index] = kb[j].index + 1;
            matched_b[kb[j].index] = true;
        }
        i += c <= 0, j += c >= 0;
    }
    /* A's order, then what only B has in B's order: the table reads like the runs. */
    for (size_t i = 0; ok && i < a->count; i++) {
        if (stop_poll()) { /* a bootstrap a figure: thousands take seconds nobody may be waiting for */
            out->stopped = true;
            break;
        }
        compare_row *row = &out->rows[out->count++];
        row->a = &a->records[i];
        if (!match_a[i]) {
            row->verdict = VERDICT_ONLY_A;
            row->a_median = median_of(row->a);
            out->only_a++;
            continue;
        }
        row->b = &b->records[match_a[i] - 1];
        judge(row, out, bc);
        out->matched++;
        out->faster += row->verdict == VERDICT_FASTER;
        out->slower += row->verdict == VERDICT_SLOWER;
        out->same += row->verdict == VERDICT_SAME;
        out->untold += row->verdict == VERDICT_CANNOT_TELL || row->verdict == VERDICT_TOO_WIDE;
        out->too_wide += row->verdict == VERDICT_TOO_WIDE;
        out->beyond += row->beyond_threshold;
        out->two_levels += row->a_two_levels || row->b_two_levels;
    }
    for (size_t j = 0; ok && j < b->count; j++) {
        if (matched_b[j])
            continue;
        compare_row *row = &out->rows[out->count++];
        row->b = &b->records[j];
        row->b_median = median_of(row->b);
        row->verdict = VERDICT_ONLY_B;
        out->only_b++;
    }
    free(ka);
    free(kb);
    free(match_a);
    free(matched_b);
    bootstrap_cache_free(bc);
    if (!ok)
        compare_report_free(out);
    return ok;
}

void compare_report_free(compare_report *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

int compare_exit_status(const compare_report *r)
{
    return r->beyond || !r->matched ? 1 : r->gated && r->untold ? COMPARE_EXIT_CANNOT_TELL : 0;
}

const char *compare_exit_reason(const compare_report *r)
{
    if (!r->matched)
        return "nothing compared";
    if (r->beyond)
        return "slower beyond the threshold";
    if (!r->gated)
        return "no threshold: not a gate";
    return r->untold ? "cannot tell: some figure's noise is wider than the threshold, or it has under 3 samples"
                     : "pass: every figure told within the threshold";
}

const char *compare_verdict_text(compare_verdict v)
{
    switch (v) {
    case VERDICT_FASTER:
        return "faster";
    case VERDICT_SLOWER:
        return "slower";
    case VERDICT_SAME:
        return "no difference within noise";
    case VERDICT_CANNOT_TELL:
        return "cannot tell (under 3 samples)";
    case VERDICT_TOO_WIDE:
        return "cannot tell (noise wider than the threshold)";
    case VERDICT_ONLY_A:
        return "only in A";
    case VERDICT_ONLY_B:
        return "only in B";
    }
    return "?";
}
