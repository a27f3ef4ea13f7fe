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
    /* another membench version may measure a figure another way (the chase's line
     * within its chunk moved the TLB-local latency 1.6x on one host) */
    const char *what[] = {"host", "CPU model", "kernel", "mode", "membench version"};
    const char *x[] = {a->hostname, a->cpu_model, a->kernel, a->mode, a->version};
    const char *y[] = {b->hostname, b->cpu_model, b->kernel, b->mode, b->version};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
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

static int by_key_and_repeat_void(const void *x, const void *y)
{
    return by_key_and_repeat(x, y);
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

/* Every sample of the figure in runs[0..n), in one array (NULL: out of memory). */
static double *pooled_samples(const loaded_record *const *runs, size_t n, size_t *count)
{
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += runs[k]->nsamples;
    double *all = malloc((total ? total : 1) * sizeof *all);
    for (size_t k = 0, m = 0; all && k < n; m += runs[k++]->nsamples)
        memcpy(all + m, runs[k]->samples, runs[k]->nsamples * sizeof *all);
    *count = total;
    return all;
}

static double median_of(const loaded_record *const *runs, size_t n)
{
    size_t count;
    double *all = pooled_samples(runs, n, &count), m = all && count ? median_inplace(all, count) : 0;
    free(all);
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

/* The samples of the figure, all of a side's runs pooled, fell in two levels
 * (runs at two levels show as two levels too). */
static bool in_two_levels(const loaded_record *const *runs, size_t n)
{
    size_t count;
    double *all = pooled_samples(runs, n, &count);
    bool two = all && stats_compute(all, count).low_level_n > 0;
    free(all);
    return two;
}

/* One side of the hierarchical bootstrap: each run's batch medians, in storage
 * (runs x STATS_MAX_BATCHES). False: out of memory. */
static bool side_batches(const loaded_record *const *runs, size_t n, double *storage, const double **values,
                         size_t *counts)
{
    for (size_t k = 0; k < n; k++) {
        values[k] = storage + k * STATS_MAX_BATCHES;
        counts[k] = batch_medians(runs[k], storage + k * STATS_MAX_BATCHES);
        if (!counts[k])
            return false;
    }
    return true;
}

/* B/A's interval from several runs a side (or one run on one side): the runs and
 * their batches drawn (util/bootstrap.h), or only the batches with --within-run. */
static ratio_interval runs_interval(const compare_row *row, const compare_report *rep)
{
    size_t n = row->a_nruns + row->b_nruns;
    double *storage = malloc(n * STATS_MAX_BATCHES * sizeof *storage);
    const double **values = malloc(n * sizeof *values);
    size_t *counts = malloc(n * sizeof *counts);
    ratio_interval ri = {0, 0, 0, false};
    if (storage && values && counts && side_batches(row->a_runs, row->a_nruns, storage, values, counts) &&
        side_batches(row->b_runs, row->b_nruns, storage + row->a_nruns * STATS_MAX_BATCHES, values + row->a_nruns,
                     counts + row->a_nruns)) {
        bootstrap_side sa = {values, counts, row->a_nruns};
        bootstrap_side sb = {values + row->a_nruns, counts + row->a_nruns, row->b_nruns};
        ri = bootstrap_runs_ratio(&sa, &sb, rep->draw_runs, BOOTSTRAP_SEED);
    }
    free(storage);
    free(values);
    free(counts);
    return ri;
}

/* B/A changed by COMPARE_LARGE_CHANGE or more the given way (slow: bandwidth B/A at
 * most 1/2, latency at least 2). */
static bool large_change(double ratio, bool higher_is_better, bool slow)
{
    bool up = higher_is_better != slow; /* B/A up: bandwidth faster, latency slower */
    return up ? ratio >= COMPARE_LARGE_CHANGE : ratio * COMPARE_LARGE_CHANGE <= 1;
}

static void judge(compare_row *row, const compare_report *rep, bootstrap_cache *bc)
{
    const loaded_record *a = row->a, *b = row->b;
    row->a_two_levels = in_two_levels(row->a_runs, row->a_nruns);
    row->b_two_levels = in_two_levels(row->b_runs, row->b_nruns);
    row->a_median = median_of(row->a_runs, row->a_nruns);
    row->b_median = median_of(row->b_runs, row->b_nruns);
    if (row->a_nruns == 1 && row->b_nruns == 1) { /* a pair: the batches' interval, as always */
        double ma[STATS_MAX_BATCHES], mb[STATS_MAX_BATCHES];
        size_t na = batch_medians(a, ma), nb = batch_medians(b, mb);
        row->ratio = na && nb ? bootstrap_cached_ratio(bc, ma, na, mb, nb) : (ratio_interval){0};
    } else {
        row->ratio = runs_interval(row, rep);
    }
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
    compare_verdict own_verdict = compare_judge(&own, higher);
    bool large_slow = large_change(shown, higher, true) && own_verdict == VERDICT_SLOWER;
    bool large_fast = large_change(shown, higher, false) && own_verdict == VERDICT_FASTER;
    if (large_slow)
        row->verdict = VERDICT_SLOWER;
    /* One run a side: a difference is the build's or the host's between the runs. */
    if (rep->one_run_rule && (row->a_nruns == 1 || row->b_nruns == 1) &&
        ((row->verdict == VERDICT_SLOWER && !large_slow) || (row->verdict == VERDICT_FASTER && !large_fast)))
        row->verdict = VERDICT_ONE_RUN;
    if (row->verdict == VERDICT_SAME && compare_reaches_beyond(&row->ratio, higher, rep->threshold_pct))
        row->verdict = VERDICT_TOO_WIDE;
    row->worse_pct = (higher ? 1 - row->ratio.ratio : row->ratio.ratio - 1) * 100;
    row->beyond_threshold = rep->gated && row->verdict == VERDICT_SLOWER && row->worse_pct > rep->threshold_pct;
}

/* The record of key in run r (sorted keys kr), or NULL. */
static const loaded_record *find_figure(const loaded_run *r, const figure_key *kr, const figure_key *key)
{
    const figure_key *hit = bsearch(key, kr, r->count, sizeof *kr, by_key_and_repeat_void);
    return hit ? &r->records[hit->index] : NULL;
}

/* A side's runs of the figure whose key in run 0 is key: into members, counted. */
static size_t side_members(const loaded_run *runs, figure_key *const *keys, size_t n, const figure_key *key,
                           const loaded_record **members)
{
    size_t m = 0;
    members[m++] = &runs[0].records[key->index];
    for (size_t k = 1; k < n; k++) {
        const loaded_record *x = find_figure(&runs[k], keys[k], key);
        if (x)
            members[m++] = x;
    }
    return m;
}

static figure_key **side_keys(const loaded_run *runs, size_t n)
{
    figure_key **keys = calloc(n, sizeof *keys);
    for (size_t k = 0; keys && k < n; k++)
        if (!(keys[k] = sorted_keys(&runs[k]))) {
            for (size_t j = 0; j < k; j++)
                free(keys[j]);
            free(keys);
            return NULL;
        }
    return keys;
}

static void free_keys(figure_key **keys, size_t n)
{
    for (size_t k = 0; keys && k < n; k++)
        free(keys[k]);
    free(keys);
}

bool compare_runs(const loaded_run *a, const loaded_run *b, double threshold_pct, bool widen_by_hosts,
                  compare_report *out)
{
    return compare_run_sets(a, 1, b, 1, threshold_pct, widen_by_hosts, out);
}

bool compare_run_sets(const loaded_run *ra, size_t nra, const loaded_run *rb, size_t nrb, double threshold_pct,
                      bool widen_by_hosts, compare_report *out)
{
    const loaded_run *a = &ra[0], *b = &rb[0];
    memset(out, 0, sizeof *out);
    out->runs_a = nra;
    out->runs_b = nrb;
    out->draw_runs = widen_by_hosts;
    out->between_runs = widen_by_hosts && nra > 1 && nrb > 1;
    out->one_run_rule = widen_by_hosts && (nra == 1 || nrb == 1);
    /* the hosts' movement stands in for the movement between runs only where no run
     * of a side can show it: a pair */
    out->host_widened = widen_by_hosts && nra == 1 && nrb == 1;
    bool widen = out->host_widened;
    out->gated = threshold_pct >= 0;
    out->threshold_pct = out->gated ? threshold_pct : COMPARE_DEFAULT_THRESHOLD_PCT;
    out->host_a_pct = widen && a->host_varied_pct > 0 ? a->host_varied_pct : 0;
    out->host_b_pct = widen && b->host_varied_pct > 0 ? b->host_varied_pct : 0;
    out->host_a_capped = out->host_a_pct > COMPARE_HOST_WIDEN_CAP_PCT;
    out->host_b_capped = out->host_b_pct > COMPARE_HOST_WIDEN_CAP_PCT;
    if (out->host_a_capped)
        out->host_a_pct = COMPARE_HOST_WIDEN_CAP_PCT;
    if (out->host_b_capped)
        out->host_b_pct = COMPARE_HOST_WIDEN_CAP_PCT;
    figure_key **ka = side_keys(ra, nra), **kb = side_keys(rb, nrb);
    size_t *match_a = calloc(a->count + 1, sizeof *match_a); /* index in b + 1; 0: none */
    bool *matched_b = calloc(b->count + 1, sizeof *matched_b);
    out->rows = calloc(a->count + b->count + 1, sizeof *out->rows);
    /* a row's runs: at most nra + nrb records for a figure in both, 1 for one in one side */
    out->members = calloc((a->count + b->count) * (nra + nrb) + 1, sizeof *out->members);
    bootstrap_cache *bc = bootstrap_cache_new(BOOTSTRAP_SEED); /* one for all figures: their draws repeat */
    bool ok = ka && kb && match_a && matched_b && out->rows && out->members && bc;
    for (size_t i = 0, j = 0; ok && i < a->count && j < b->count;) { /* merge the sorted keys */
        int c = by_key_and_repeat(&ka[0][i], &kb[0][j]);
        if (c == 0) {
            match_a[ka[0][i].index] = j + 1; /* its place in B's sorted keys */
            matched_b[kb[0][j].index] = true;
        }
        i += c <= 0, j += c >= 0;
    }
    size_t used = 0; /* of out->members */
    /* each record's key, in the runs' own order */
    figure_key *by_index_a = ok ? calloc(a->count + 1, sizeof *by_index_a) : NULL;
    figure_key *by_index_b = ok ? calloc(b->count + 1, sizeof *by_index_b) : NULL;
    ok = ok && by_index_a && by_index_b;
    for (size_t i = 0; ok && i < a->count; i++)
        by_index_a[ka[0][i].index] = ka[0][i];
    for (size_t j = 0; ok && j < b->count; j++)
        by_index_b[kb[0][j].index] = kb[0][j];
    /* A's order, then what only B has in B's order: the table reads like the runs. */
    for (size_t i = 0; ok && i < a->count; i++) {
        if (stop_poll()) { /* a bootstrap a figure: thousands take seconds nobody may be waiting for */
            out->stopped = true;
            break;
        }
        compare_row *row = &out->rows[out->count++];
        row->a = &a->records[i];
        const loaded_record **members = out->members + used;
        row->a_runs = members;
        row->a_nruns = side_members(ra, ka, nra, &by_index_a[i], members);
        used += row->a_nruns;
        if (!match_a[i]) {
            row->verdict = VERDICT_ONLY_A;
            row->a_median = median_of(row->a_runs, row->a_nruns);
            out->only_a++;
            continue;
        }
        const figure_key *kbj = &kb[0][match_a[i] - 1];
        row->b = &b->records[kbj->index];
        row->b_runs = out->members + used;
        row->b_nruns = side_members(rb, kb, nrb, kbj, out->members + used);
        used += row->b_nruns;
        judge(row, out, bc);
        out->matched++;
        out->faster += row->verdict == VERDICT_FASTER;
        out->slower += row->verdict == VERDICT_SLOWER;
        out->same += row->verdict == VERDICT_SAME;
        out->untold += row->verdict == VERDICT_CANNOT_TELL || row->verdict == VERDICT_TOO_WIDE ||
                       row->verdict == VERDICT_ONE_RUN;
        out->too_wide += row->verdict == VERDICT_TOO_WIDE;
        out->one_run += row->verdict == VERDICT_ONE_RUN;
        out->beyond += row->beyond_threshold;
        out->two_levels += row->a_two_levels || row->b_two_levels;
    }
    for (size_t j = 0; ok && j < b->count; j++) {
        if (matched_b[j])
            continue;
        compare_row *row = &out->rows[out->count++];
        row->b = &b->records[j];
        row->b_runs = out->members + used;
        row->b_nruns = side_members(rb, kb, nrb, &by_index_b[j], out->members + used);
        used += row->b_nruns;
        row->b_median = median_of(row->b_runs, row->b_nruns);
        row->verdict = VERDICT_ONLY_B;
        out->only_b++;
    }
    free_keys(ka, nra);
    free_keys(kb, nrb);
    free(by_index_a);
    free(by_index_b);
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
    free(r->members);
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
    if (r->one_run)
        return "cannot tell: one run a side, the movement between runs is unknown (compare several runs a side)";
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
    case VERDICT_ONE_RUN:
        return "cannot tell (one run a side: the movement between runs is unknown)";
    case VERDICT_ONLY_A:
        return "only in A";
    case VERDICT_ONLY_B:
        return "only in B";
    }
    return "?";
}
