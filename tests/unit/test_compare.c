/* SPDX-License-Identifier: MIT */
/* membench compare's statistics (util/bootstrap.c), its loader of run documents
 * (core/run_load.c) and its matching and verdicts (core/compare.c), on
 * synthetic samples and documents. */
#include <stdlib.h>
#include <string.h>

#include "core/compare.h"
#include "core/run_load.h"
#include "util/bootstrap.h"
#include "util/splitmix64.h"
#include "test.h"

static const double base[] = {100, 101, 99, 100.5, 102, 98, 100, 101.5, 99.5, 100};
#define NB (sizeof base / sizeof base[0])

static ratio_interval scaled(double factor)
{
    double b[NB];
    for (size_t i = 0; i < NB; i++)
        b[i] = base[(i + 3) % NB] * factor; /* another order: the test must not pair samples */
    return bootstrap_median_ratio(base, NB, b, NB, BOOTSTRAP_SEED);
}

TEST(bootstrap_clearly_faster_and_slower)
{
    ratio_interval up = scaled(1.2), down = scaled(0.5);
    CHECK_NEAR(up.ratio, 1.2, 1e-12);
    CHECK(up.told && up.low > 1.1 && up.high < 1.3 && up.low <= up.ratio && up.ratio <= up.high);
    CHECK_INT(compare_judge(&up, true), VERDICT_FASTER);   /* bandwidth up */
    CHECK_INT(compare_judge(&up, false), VERDICT_SLOWER);  /* latency up */
    CHECK_NEAR(down.ratio, 0.5, 1e-12);
    CHECK(down.told && down.high < 0.55);
    CHECK_INT(compare_judge(&down, true), VERDICT_SLOWER);
    CHECK_INT(compare_judge(&down, false), VERDICT_FASTER);
}

TEST(bootstrap_identical_is_no_difference)
{
    ratio_interval same = bootstrap_median_ratio(base, NB, base, NB, BOOTSTRAP_SEED);
    CHECK_NEAR(same.ratio, 1, 0);
    CHECK(same.told && same.low < 1 && same.high > 1);
    CHECK_INT(compare_judge(&same, true), VERDICT_SAME);
    CHECK_STR(compare_verdict_text(VERDICT_SAME), "no difference within noise");
    ratio_interval shuffled = scaled(1.0);
    CHECK_INT(compare_judge(&shuffled, true), VERDICT_SAME);
}

TEST(bootstrap_overlapping_is_no_difference)
{
    double a[] = {100, 110, 90, 105, 95, 120, 85};
    double b[] = {103, 92, 108, 97, 115, 88, 101};
    ratio_interval r = bootstrap_median_ratio(a, 7, b, 7, BOOTSTRAP_SEED);
    CHECK(r.told && r.low < 1 && r.high > 1);
    CHECK_INT(compare_judge(&r, true), VERDICT_SAME);
    CHECK_INT(compare_judge(&r, false), VERDICT_SAME);
}

TEST(bootstrap_too_few_samples_cannot_tell)
{
    double a[] = {100}, b[] = {50}, two[] = {50, 51};
    ratio_interval r = bootstrap_median_ratio(a, 1, b, 1, BOOTSTRAP_SEED);
    CHECK(!r.told);
    CHECK_NEAR(r.ratio, 0.5, 1e-12); /* the ratio is still shown */
    CHECK_INT(compare_judge(&r, true), VERDICT_CANNOT_TELL);
    r = bootstrap_median_ratio(base, NB, two, 2, BOOTSTRAP_SEED); /* one side short is enough */
    CHECK(!r.told);
    CHECK_INT(compare_judge(&r, false), VERDICT_CANNOT_TELL);
    r = bootstrap_median_ratio(base, 3, two, 2, BOOTSTRAP_SEED);
    CHECK(!r.told);
}

TEST(bootstrap_is_deterministic_with_its_seed)
{
    double b[] = {101, 97, 104, 99, 100, 103, 96, 102};
    ratio_interval x = bootstrap_median_ratio(base, NB, b, 8, BOOTSTRAP_SEED);
    ratio_interval y = bootstrap_median_ratio(base, NB, b, 8, BOOTSTRAP_SEED);
    CHECK(x.low == y.low && x.high == y.high && x.ratio == y.ratio);
    /* The seed is used: across a few other seeds the interval moves. */
    bool moved = false;
    for (uint64_t seed = 2; seed < 10 && !moved; seed++) {
        ratio_interval z = bootstrap_median_ratio(base, NB, b, 8, seed);
        moved = z.low != x.low || z.high != x.high;
    }
    CHECK(moved);
}

/* The quickselect median against a sort, on inputs full of repeats (resamples). */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

TEST(bootstrap_median_matches_sorting)
{
    uint64_t state = 42;
    for (int round = 0; round < 500; round++) {
        size_t n = 1 + splitmix64_next(&state) % 40;
        double v[40], sorted[40];
        for (size_t i = 0; i < n; i++)
            v[i] = sorted[i] = (double)(splitmix64_next(&state) % 7);
        qsort(sorted, n, sizeof *sorted, cmp_double);
        double want = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        double got = median_inplace(v, n);
        if (got != want) {
            test_fail(__FILE__, __LINE__, "n=%zu: median %g, expected %g", n, got, want);
            break;
        }
    }
}

/* The stated test done the plain way (the implementation before the kept draws):
 * per resample na draws for A then nb for B, medians of the drawn values, the
 * ratios sorted, the 101st and the 3900th. */
static ratio_interval plain_bootstrap(const double *a, size_t na, const double *b, size_t nb)
{
    ratio_interval r = {0, 0, 0, false};
    double scratch[64], *ratios = malloc(BOOTSTRAP_RESAMPLES * sizeof *ratios);
    memcpy(scratch, a, na * sizeof *a);
    double ma = median_inplace(scratch, na);
    memcpy(scratch, b, nb * sizeof *b);
    r.ratio = median_inplace(scratch, nb) / ma;
    uint64_t state = BOOTSTRAP_SEED;
    for (size_t i = 0; ratios && i < BOOTSTRAP_RESAMPLES; i++) {
        for (size_t k = 0; k < na; k++)
            scratch[k] = a[splitmix64_next(&state) % na];
        double ra = median_inplace(scratch, na);
        for (size_t k = 0; k < nb; k++)
            scratch[k] = b[splitmix64_next(&state) % nb];
        ratios[i] = median_inplace(scratch, nb) / ra;
    }
    if (ratios) {
        qsort(ratios, BOOTSTRAP_RESAMPLES, sizeof *ratios, cmp_double);
        r.low = ratios[BOOTSTRAP_RESAMPLES / 40];
        r.high = ratios[BOOTSTRAP_RESAMPLES - 1 - BOOTSTRAP_RESAMPLES / 40];
        r.told = true;
    }
    free(ratios);
    return r;
}

/* compare's fast path (draws kept per pair of counts, one cache for many figures)
 * gives every interval to the last bit, hence every verdict, as the plain way:
 * counts 3 to 40 (beyond BOOTSTRAP_KEPT_MAX too), odd and even, repeated values. */
TEST(bootstrap_kept_draws_give_the_plain_intervals)
{
    bootstrap_cache *c = bootstrap_cache_new(BOOTSTRAP_SEED);
    CHECK(c != NULL);
    uint64_t state = 7;
    int verdicts[3] = {0};
    for (int round = 0; c && round < 300; round++) {
        size_t na = 3 + splitmix64_next(&state) % (round < 250 ? 14 : 38), nb = 3 + splitmix64_next(&state) % 14;
        double a[64], b[64], shift = 0.9 + (double)(splitmix64_next(&state) % 21) / 100;
        for (size_t i = 0; i < na; i++)
            a[i] = 100 + (double)(splitmix64_next(&state) % (round % 3 ? 9 : 3)); /* some all but equal */
        for (size_t i = 0; i < nb; i++)
            b[i] = (100 + (double)(splitmix64_next(&state) % 9)) * shift;
        ratio_interval want = plain_bootstrap(a, na, b, nb), got = bootstrap_cached_ratio(c, a, na, b, nb);
        if (got.ratio != want.ratio || got.low != want.low || got.high != want.high || !got.told) {
            test_fail(__FILE__, __LINE__, "na=%zu nb=%zu: %.17g %.17g-%.17g, plainly %.17g %.17g-%.17g", na, nb,
                      got.ratio, got.low, got.high, want.ratio, want.low, want.high);
            break;
        }
        verdicts[compare_judge(&got, true) == VERDICT_SAME ? 0 : compare_judge(&got, true) == VERDICT_FASTER ? 1 : 2]++;
    }
    CHECK(verdicts[0] > 10 && verdicts[1] > 10 && verdicts[2] > 10); /* all three verdicts were tried */
    bootstrap_cache_free(c);
}

/* --- documents ---------------------------------------------------------------- */

typedef struct {
    const char *host, *kernel, *options, *results;
    const char *version; /* NULL: 0.1.0 */
    const char *noise; /* host_noise's value; NULL: null (no verdict) */
} doc_parts;

static char *doc(const doc_parts *d)
{
    char *text = malloc(8192);
    snprintf(text, 8192,
             "{\"tool\":\"membench\",\"version\":\"%s\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
             "\"started_at\":\"2026-01-01T00:00:00Z\",\"host\":{\"hostname\":\"%s\",\"cpu_model\":\"EPYC\","
             "\"kernel\":\"%s\"},\"host_noise\":%s,\"options\":{%s},\"results\":[%s]}",
             d->version ? d->version : "0.1.0", d->host ? d->host : "vm", d->kernel ? d->kernel : "Linux 6", d->noise ? d->noise : "null",
             d->options ? d->options : "\"tries\":5", d->results ? d->results : "");
    return text;
}

/* One result record: bandwidth or latency, size, and samples scaled by f. */
static void record(char *out, size_t len, const char *op, const char *metric, int size, double f)
{
    snprintf(out, len,
             "{\"mode\":\"sweep\",\"operation\":\"%s\",\"metric\":\"%s\",\"unit\":\"%s\",\"value\":%g,"
             "\"size_bytes\":%d,\"threads\":2,\"placement\":[{\"thread\":0,\"cpu\":0,\"node\":0,\"memory_node\":0},"
             "{\"thread\":1,\"cpu\":1,\"node\":0,\"memory_node\":1}],"
             "\"samples\":[%g,%g,%g,%g,%g],\"complete\":true}",
             op, metric, metric[0] == 'b' ? "MB/s" : "ns", 100 * f, size, 100 * f, 101 * f, 99 * f, 100.5 * f, 99.5 * f);
}

static bool load(const doc_parts *d, loaded_run *r, char *err, size_t errlen)
{
    char *text = doc(d);
    bool ok = run_load_text(text, strlen(text), r, err, errlen);
    free(text);
    return ok;
}

TEST(run_load_reads_identity_and_records)
{
    char rec[1024];
    record(rec, sizeof rec, "read", "bandwidth", 65536, 1);
    doc_parts d = {.results = rec};
    loaded_run r;
    char err[256];
    CHECK(load(&d, &r, err, sizeof err));
    CHECK_STR(r.hostname, "vm");
    CHECK_STR(r.cpu_model, "EPYC");
    CHECK_STR(r.mode, "sweep");
    CHECK(r.complete);
    CHECK_INT(r.count, 1);
    if (r.count == 1) {
        CHECK_STR(r.records[0].operation, "read");
        CHECK_INT(r.records[0].size_bytes, 65536);
        CHECK_INT(r.records[0].threads, 2);
        CHECK_STR(r.records[0].nodes, "0/0,1");
        CHECK_INT(r.records[0].nsamples, 5);
        CHECK_NEAR(r.records[0].samples[1], 101, 0);
    }
    run_free(&r);
}

static void load_refused(const char *text, const char *needle)
{
    loaded_run r;
    char err[256] = "";
    if (run_load_text(text, strlen(text), &r, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "accepted: %.80s", text);
        run_free(&r);
    } else if (!strstr(err, needle)) {
        test_fail(__FILE__, __LINE__, "%.60s: said \"%s\", expected \"%s\"", text, err, needle);
    }
}

TEST(run_load_refusals)
{
    load_refused("{\"tool\":\"membench\"", "not JSON: line 1, column 19: the text ends early");
    load_refused("[1,2]", "not a membench document (no \"tool\")");
    load_refused("{\"tool\":\"sc-membench\",\"schema\":2}", "not a membench document (tool \"sc-membench\")");
    /* the document's own text is quoted on one line (a fuzzer found "memb\nench") */
    load_refused("{\"tool\":\"memb\\nen\\tch\",\"schema\":2}", "not a membench document (tool \"memb?en?ch\")");
    load_refused("{\"tool\":\"membench\",\"schema\":1}", "schema 1, but this membench reads schema 2");
    load_refused("{\"tool\":\"membench\"}", "no \"schema\"");
    char *text = doc(&(doc_parts){.results = "{\"mode\":\"sweep\"}"});
    load_refused(text, "results[0]: no \"operation\"");
    free(text);
    char rec[1024];
    record(rec, sizeof rec, "read", "bandwidth", 65536, 1);
    char *samples = strstr(rec, "\"samples\":[");
    memcpy(samples, "\"samplez\"", 9);
    text = doc(&(doc_parts){.results = rec});
    load_refused(text, "results[0]: no \"samples\"");
    free(text);
    record(rec, sizeof rec, "read", "bandwidth", 65536, 1);
    memcpy(strstr(rec, "[100,101"), "[-10,101", 8);
    text = doc(&(doc_parts){.results = rec});
    load_refused(text, "results[0]: samples[0] is not a number above 0");
    free(text);
    text = doc(&(doc_parts){.results = "{}"});
    char *host = strstr(text, "\"hostname\"");
    memcpy(host, "\"hostnamX\"", 10);
    load_refused(text, "host: no \"hostname\"");
    free(text);
}

TEST(compare_differences_names_each_and_ignores_output_options)
{
    loaded_run a, b;
    char err[256], diff[512];
    CHECK(load(&(doc_parts){.options = "\"tries\":5,\"json\":\"a.json\",\"verbose\":0"}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.options = "\"tries\":5,\"json\":\"b.json\",\"verbose\":2"}, &b, err, sizeof err));
    CHECK(!compare_differences(&a, &b, diff, sizeof diff)); /* only where the output went */
    run_free(&b);
    CHECK(load(&(doc_parts){.host = "box", .kernel = "Linux 7", .options = "\"tries\":3,\"seed\":1"}, &b, err,
               sizeof err));
    CHECK(compare_differences(&a, &b, diff, sizeof diff));
    CHECK_STR(diff, "host (vm vs box); kernel (Linux 6 vs Linux 7); option tries (5 vs 3); option seed (absent vs 1)");
    run_free(&b);
    CHECK(load(&(doc_parts){.version = "0.2.0"}, &b, err, sizeof err));
    CHECK(compare_differences(&a, &b, diff, sizeof diff));
    CHECK_STR(diff, "membench version (0.1.0 vs 0.2.0)");
    run_free(&b);
    CHECK(load(&(doc_parts){.host = "vm\\nsecond line"}, &b, err, sizeof err));
    CHECK(compare_differences(&a, &b, diff, sizeof diff));
    CHECK_STR(diff, "host (vm vs vm?second line)");
    run_free(&b);
    /* a terminal's controls and bidi overrides from the files show as '?' */
    CHECK(load(&(doc_parts){.host = "vm\\u001b]0;title\\u0007\\u202e\\u0085", .kernel = "Linux 6\\r\\u2066"}, &b, err,
               sizeof err));
    CHECK(compare_differences(&a, &b, diff, sizeof diff));
    CHECK_STR(diff, "host (vm vs vm?]0;title???" "); kernel (Linux 6 vs Linux 6?" "?)");
    run_free(&a);
    run_free(&b);
}

/* "\u0000" is valid JSON but membench never writes it; read as a C string the text
 * would be another (a host name cut short compares equal to another): refused,
 * naming where, on one line. */
TEST(run_load_refuses_nul_in_strings)
{
    char *text = doc(&(doc_parts){.host = "vm\\u0000evil"});
    load_refused(text, "host.hostname: a string holds \\u0000 (U+0000), which membench never writes");
    free(text);
    text = doc(&(doc_parts){.options = "\"tr\\u0000ies\":5"});
    load_refused(text, "options: a key holds \\u0000");
    free(text);
    char rec[1024];
    record(rec, sizeof rec, "re\\u0000ad", "bandwidth", 65536, 1);
    text = doc(&(doc_parts){.results = rec});
    load_refused(text, "results[0].operation: a string holds \\u0000");
    free(text);
}

/* A gate that compared nothing must not pass: an empty run, or runs with no figure
 * in common, exit 1 like a figure beyond the threshold. */
TEST(compare_gate_fails_when_nothing_is_compared)
{
    char ra[1024], rb[1024];
    record(ra, sizeof ra, "read", "bandwidth", 65536, 1);
    record(rb, sizeof rb, "write", "bandwidth", 65536, 1);
    loaded_run a, b, empty, other;
    char err[256];
    CHECK(load(&(doc_parts){.results = ra}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = ra}, &b, err, sizeof err));
    CHECK(load(&(doc_parts){.results = ""}, &empty, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb}, &other, err, sizeof err));
    compare_report rep;
    CHECK(compare_runs(&a, &b, 5, false, &rep));
    CHECK_INT(compare_exit_status(&rep), 0); /* the same figure, no difference */
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &empty, 5, false, &rep));
    CHECK_INT(rep.matched, 0);
    CHECK_INT(compare_exit_status(&rep), 1);
    compare_report_free(&rep);
    CHECK(compare_runs(&empty, &empty, -1, false, &rep)); /* without --threshold too */
    CHECK_INT(compare_exit_status(&rep), 1);
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &other, 5, false, &rep));
    CHECK_INT(rep.only_a + rep.only_b, 2);
    CHECK_INT(compare_exit_status(&rep), 1);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
    run_free(&empty);
    run_free(&other);
}

TEST(compare_runs_matches_judges_and_gates)
{
    char r1[1024], r2[1024], r3[1024], r4[1024], ra[4200], rb[4200];
    /* A: read 64K, write 64K, latency 64K, copy 1M. B: read halved, write the same,
     * latency doubled (slower), no copy, an extra read at 2M. */
    record(r1, sizeof r1, "read", "bandwidth", 65536, 1);
    record(r2, sizeof r2, "write", "bandwidth", 65536, 1);
    record(r3, sizeof r3, "latency", "latency", 65536, 1);
    record(r4, sizeof r4, "copy", "bandwidth", 1 << 20, 1);
    snprintf(ra, sizeof ra, "%s,%s,%s,%s", r1, r2, r3, r4);
    record(r1, sizeof r1, "read", "bandwidth", 65536, 0.5);
    record(r3, sizeof r3, "latency", "latency", 65536, 2);
    record(r4, sizeof r4, "read", "bandwidth", 2 << 20, 1);
    snprintf(rb, sizeof rb, "%s,%s,%s,%s", r4, r3, r2, r1); /* another order: matched by key */
    loaded_run a, b;
    char err[256];
    CHECK(load(&(doc_parts){.results = ra}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb}, &b, err, sizeof err));
    compare_report rep;
    CHECK(compare_runs(&a, &b, 10, false, &rep));
    CHECK_INT(rep.count, 5);
    CHECK_INT(rep.matched, 3);
    CHECK_INT(rep.only_a, 1);
    CHECK_INT(rep.only_b, 1);
    CHECK_INT(rep.slower, 2);
    CHECK_INT(rep.same, 1);
    CHECK_INT(rep.beyond, 2);
    if (rep.count == 5) {
        CHECK_STR(rep.rows[0].a->operation, "read");
        CHECK(rep.rows[0].b == &b.records[3]);
        CHECK_INT(rep.rows[0].verdict, VERDICT_SLOWER);
        CHECK_NEAR(rep.rows[0].ratio.ratio, 0.5, 1e-12);
        CHECK_NEAR(rep.rows[0].worse_pct, 50, 1e-9);
        CHECK(rep.rows[0].beyond_threshold);
        CHECK_INT(rep.rows[1].verdict, VERDICT_SAME);
        CHECK(!rep.rows[1].beyond_threshold);
        CHECK_INT(rep.rows[2].verdict, VERDICT_SLOWER); /* latency doubled */
        CHECK_NEAR(rep.rows[2].worse_pct, 100, 1e-9);
        CHECK_INT(rep.rows[3].verdict, VERDICT_ONLY_A);
        CHECK_INT(rep.rows[4].verdict, VERDICT_ONLY_B);
        CHECK_INT(rep.rows[4].b->size_bytes, 2 << 20);
    }
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &b, 60, false, &rep)); /* only the latency is worse by more than 60% */
    CHECK_INT(rep.beyond, 1);
    compare_report_free(&rep);
    CHECK(compare_runs(&b, &a, 10, false, &rep)); /* the other way round, everything got faster */
    CHECK_INT(rep.faster, 2);
    CHECK_INT(rep.beyond, 0);
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &b, -1, false, &rep)); /* no threshold: nothing is beyond it */
    CHECK_INT(rep.beyond, 0);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
}

/* Each run's host variation widens B/A's interval: low x (1 - b)/(1 + a), high x
 * (1 + b)/(1 - a); B 5% slower from samples within +-2% is slower from the samples
 * alone, and once hosts that moved +-3% and +-2% are allowed for its interval holds
 * 1 and reaches below 0.95: cannot tell at the default 5%. */
TEST(compare_widens_by_each_runs_host_variation)
{
    char ra[1024], rb[1024];
    record(ra, sizeof ra, "read", "bandwidth", 65536, 1);
    record(rb, sizeof rb, "read", "bandwidth", 65536, 0.95);
    loaded_run a, b, none;
    char err[256];
    CHECK(load(&(doc_parts){.results = ra, .noise = "{\"varied_pct\":3}"}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb, .noise = "{\"varied_pct\":2}"}, &b, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb}, &none, err, sizeof err));
    CHECK_NEAR(a.host_varied_pct, 3, 0);
    CHECK_NEAR(none.host_varied_pct, -1, 0); /* host_noise null: no verdict */
    compare_report own, wide, half;
    CHECK(compare_runs(&a, &b, -1, false, &own));
    CHECK(compare_runs(&a, &b, -1, true, &wide));
    CHECK(compare_runs(&a, &none, -1, true, &half));
    CHECK(!own.host_widened && wide.host_widened);
    CHECK_NEAR(wide.host_a_pct, 3, 0);
    CHECK_NEAR(wide.host_b_pct, 2, 0);
    CHECK_NEAR(half.host_b_pct, 0, 0); /* a run without a verdict adds nothing */
    if (own.count == 1 && wide.count == 1 && half.count == 1) {
        CHECK_INT(own.rows[0].verdict, VERDICT_SLOWER);
        /* widened, it holds 1 and reaches below 0.95: too wide for the default 5% */
        CHECK_INT(wide.rows[0].verdict, VERDICT_TOO_WIDE);
        CHECK_NEAR(wide.rows[0].ratio.ratio, own.rows[0].ratio.ratio, 0);
        CHECK_NEAR(wide.rows[0].ratio.low, own.rows[0].ratio.low * 0.98 / 1.03, 1e-12);
        CHECK_NEAR(wide.rows[0].ratio.high, own.rows[0].ratio.high * 1.02 / 0.97, 1e-12);
        CHECK_NEAR(half.rows[0].ratio.low, own.rows[0].ratio.low / 1.03, 1e-12);
        CHECK_NEAR(half.rows[0].ratio.high, own.rows[0].ratio.high / 0.97, 1e-12);
    } else {
        CHECK(false);
    }
    compare_report_free(&own);
    compare_report_free(&wide);
    compare_report_free(&half);
    run_free(&a);
    run_free(&b);
    run_free(&none);
}

/* Repeats of one figure (same mode, operation, size, threads, nodes) pair up in order. */
TEST(compare_runs_pairs_repeats_in_order)
{
    char r1[1024], r2[1024], ra[2100], rb[2100];
    record(r1, sizeof r1, "read", "bandwidth", 65536, 1);
    record(r2, sizeof r2, "read", "bandwidth", 65536, 2);
    snprintf(ra, sizeof ra, "%s,%s", r1, r2);
    snprintf(rb, sizeof rb, "%s,%s", r1, r2);
    loaded_run a, b;
    char err[256];
    CHECK(load(&(doc_parts){.results = ra}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb}, &b, err, sizeof err));
    compare_report rep;
    CHECK(compare_runs(&a, &b, 10, false, &rep));
    CHECK_INT(rep.matched, 2);
    CHECK_INT(rep.same, 2);
    if (rep.count == 2)
        CHECK(rep.rows[0].b == &b.records[0] && rep.rows[1].b == &b.records[1]);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
}

/* The interval, to the last bit, against an independent implementation of the
 * stated test (Python: splitmix64 seeded 1, A's draws then B's per resample,
 * medians by sorting, the 100th and 3901st of 4000 sorted ratios). A narrower
 * interval, other percentiles or another order of draws would differ. */
TEST(bootstrap_interval_matches_reference)
{
    double a[] = {100, 110, 90, 105, 95, 120, 85};
    double b[] = {103, 92, 108, 97, 115, 88, 101};
    ratio_interval r = bootstrap_median_ratio(a, 7, b, 7, BOOTSTRAP_SEED);
    CHECK_NEAR(r.ratio, 1.01, 1e-15);
    CHECK_NEAR(r.low, 0.8761904761904762, 1e-15);
    CHECK_NEAR(r.high, 1.1444444444444444, 1e-15);
    /* A small shift whose interval ends exactly at 1: still no difference. */
    double c[] = {101.5, 102, 100, 101, 103, 99, 101, 102.5, 100.5, 101.2};
    r = bootstrap_median_ratio(base, NB, c, 10, BOOTSTRAP_SEED);
    CHECK_NEAR(r.ratio, 1.011, 1e-15);
    CHECK(r.low == 1.0);
    CHECK_NEAR(r.high, 1.0225, 1e-15);
    CHECK_INT(compare_judge(&r, true), VERDICT_SAME);
}

/* The gate counts a figure only when the verdict is slower: one sample each with
 * half the bandwidth is beyond any threshold by its ratio, but cannot be told. */
TEST(compare_gate_needs_a_verdict)
{
    const char *one = "{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\","
                      "\"value\":%d,\"size_bytes\":4096,\"threads\":1,\"placement\":[{\"thread\":0,\"cpu\":0,"
                      "\"node\":0,\"memory_node\":0}],\"samples\":[%d]}";
    char ra[512], rb[512];
    snprintf(ra, sizeof ra, one, 100, 100);
    snprintf(rb, sizeof rb, one, 50, 50);
    loaded_run a, b;
    char err[256];
    CHECK(load(&(doc_parts){.results = ra}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb}, &b, err, sizeof err));
    compare_report rep;
    CHECK(compare_runs(&a, &b, 10, false, &rep));
    CHECK_INT(rep.untold, 1);
    CHECK_INT(rep.beyond, 0);
    CHECK_INT(compare_exit_status(&rep), COMPARE_EXIT_CANNOT_TELL); /* the gate does not pass either */
    if (rep.count == 1) {
        CHECK_INT(rep.rows[0].verdict, VERDICT_CANNOT_TELL);
        CHECK_NEAR(rep.rows[0].ratio.ratio, 0.5, 1e-12);
    }
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
}

/* A run whose host moved in its last round: A's ten samples sit at 100-101 in
 * rounds 1 and 2 and at 160 in round 3, B's at 120-121 throughout. As ten
 * independent samples B is clearly faster (A's median 100.5, a resample's median
 * reaches 160 only when half its draws hit the one 160); over the rounds' medians
 * (100.5, 100, 160 against 120-121) a resample's median is A's 160 round a quarter
 * of the time: the interval holds 1 (and, reaching 0.75, cannot tell at 5%). */
TEST(compare_judges_over_rounds_not_samples)
{
    const double va[] = {100, 101, 100, 101, 100, 101, 100, 101, 100, 160};
    const int round_of[] = {1, 1, 1, 1, 2, 2, 2, 2, 2, 3};
    char ra[2048], rb[2048], sa[512] = "", sb[512] = "", rounds[256] = "";
    for (int i = 0; i < 10; i++) {
        snprintf(sa + strlen(sa), sizeof sa - strlen(sa), "%s%g", i ? "," : "", va[i]);
        snprintf(sb + strlen(sb), sizeof sb - strlen(sb), "%s%g", i ? "," : "", 120.0 + i % 2);
        snprintf(rounds + strlen(rounds), sizeof rounds - strlen(rounds), "%s%d", i ? "," : "", round_of[i]);
    }
    const char *fmt = "{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"value\":160,"
                      "\"size_bytes\":65536,\"threads\":1,\"placement\":[{\"thread\":0,\"cpu\":0,\"node\":0,"
                      "\"memory_node\":0}],\"samples\":[%s]%s%s%s,\"complete\":true}";
    for (int with_rounds = 0; with_rounds < 2; with_rounds++) {
        const char *open = with_rounds ? ",\"sample_rounds\":[" : "", *list = with_rounds ? rounds : "",
                   *close = with_rounds ? "]" : "";
        snprintf(ra, sizeof ra, fmt, sa, open, list, close);
        snprintf(rb, sizeof rb, fmt, sb, open, list, close);
        loaded_run a, b;
        char err[256];
        CHECK(load(&(doc_parts){.results = ra}, &a, err, sizeof err));
        CHECK(load(&(doc_parts){.results = rb}, &b, err, sizeof err));
        CHECK(!with_rounds || (a.count == 1 && a.records[0].sample_rounds && a.records[0].sample_rounds[9] == 3));
        compare_report rep;
        CHECK(compare_runs(&a, &b, 5, false, &rep));
        CHECK_INT(rep.count, 1);
        if (rep.count == 1) {
            /* over the rounds the interval holds 1 and reaches 0.75: too wide for 5% */
            CHECK_INT(rep.rows[0].verdict, with_rounds ? VERDICT_TOO_WIDE : VERDICT_FASTER);
            CHECK_NEAR(rep.rows[0].ratio.ratio, 120.5 / 100.5, 1e-12); /* all samples' medians either way */
        }
        compare_report_free(&rep);
        run_free(&a);
        run_free(&b);
    }
}

/* A figure whose samples fell in two levels in one run is marked for that run and
 * counted once; its verdict is still judged. */
TEST(compare_marks_figures_in_two_levels)
{
    const char *fmt = "{\"mode\":\"sweep\",\"operation\":\"%s\",\"metric\":\"latency\",\"unit\":\"ns\",\"value\":1,"
                      "\"size_bytes\":4194304,\"threads\":1,\"placement\":[{\"thread\":0,\"cpu\":0,\"node\":0,"
                      "\"memory_node\":0}],\"samples\":[%s],\"complete\":true}";
    const char *one = "16,16.1,15.9,16.2,16", *two = "16,16.1,15.9,130,131";
    char ra[2048], rb[2048], x[1024], y[1024];
    snprintf(x, sizeof x, fmt, "latency", one);
    snprintf(y, sizeof y, fmt, "chase", two);
    snprintf(ra, sizeof ra, "%s,%s", x, y); /* A: latency one level, chase two */
    snprintf(x, sizeof x, fmt, "latency", two);
    snprintf(y, sizeof y, fmt, "chase", two);
    snprintf(rb, sizeof rb, "%s,%s", x, y); /* B: both two */
    loaded_run a, b;
    char err[256];
    CHECK(load(&(doc_parts){.results = ra}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb}, &b, err, sizeof err));
    compare_report rep;
    CHECK(compare_runs(&a, &b, -1, false, &rep));
    CHECK_INT(rep.count, 2);
    CHECK_INT(rep.two_levels, 2);
    if (rep.count == 2) {
        CHECK(!rep.rows[0].a_two_levels && rep.rows[0].b_two_levels);
        CHECK(rep.rows[1].a_two_levels && rep.rows[1].b_two_levels);
        /* medians 16 and 16: judged as ever, B's upper level making the interval too wide */
        CHECK_INT(rep.rows[0].verdict, VERDICT_TOO_WIDE);
    }
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &a, -1, false, &rep));
    CHECK_INT(rep.two_levels, 1);
    if (rep.count == 2)
        CHECK(!rep.rows[0].a_two_levels && !rep.rows[0].b_two_levels);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
}

/* Issue 37, the gate never passes silently. Samples within +-1%; B = A x f; each
 * run's host moved by the given percent (NULL: no verdict). */
static void noisy_pair(loaded_run *a, loaded_run *b, const char *metric, double f, const char *noise_a,
                       const char *noise_b)
{
    char ra[1024], rb[1024], err[256];
    record(ra, sizeof ra, "read", metric, 65536, 1);
    record(rb, sizeof rb, "read", metric, 65536, f);
    CHECK(load(&(doc_parts){.results = ra, .noise = noise_a}, a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb, .noise = noise_b}, b, err, sizeof err));
}

/* An interval that holds 1 but reaches beyond the threshold on the slow side
 * cannot tell a change of the threshold's size from none: B 1% down within hosts
 * that moved +-3% each reaches about 0.92. Cannot tell at 5% (and without
 * --threshold, whose default is 5%), no difference at 10%; latency 1% up the same
 * on its slow (high) side; bandwidth 4% up reaches beyond 5% only on the fast side:
 * no difference (the gate asks about slowdowns only). */
TEST(compare_cannot_tell_when_noise_wider_than_threshold)
{
    loaded_run a, b;
    compare_report rep;
    noisy_pair(&a, &b, "bandwidth", 0.99, "{\"varied_pct\":3}", "{\"varied_pct\":3}");
    CHECK(compare_runs(&a, &b, 5, true, &rep));
    CHECK_INT(rep.count, 1);
    if (rep.count == 1) {
        CHECK(rep.rows[0].ratio.low < 0.95 && rep.rows[0].ratio.high > 1);
        CHECK_INT(rep.rows[0].verdict, VERDICT_TOO_WIDE);
        CHECK_STR(compare_verdict_text(rep.rows[0].verdict), "cannot tell (noise wider than the threshold)");
        CHECK(!rep.rows[0].beyond_threshold);
    }
    CHECK_INT(rep.untold, 1);
    CHECK_INT(rep.too_wide, 1);
    CHECK_INT(rep.same, 0);
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &b, -1, true, &rep)); /* no --threshold: 5% */
    CHECK_NEAR(rep.threshold_pct, COMPARE_DEFAULT_THRESHOLD_PCT, 0);
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_TOO_WIDE);
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &b, 10, true, &rep));
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_SAME && rep.rows[0].ratio.low > 0.9);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
    noisy_pair(&a, &b, "latency", 1.01, "{\"varied_pct\":3}", "{\"varied_pct\":3}");
    CHECK(compare_runs(&a, &b, 5, true, &rep));
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_TOO_WIDE && rep.rows[0].ratio.high > 1.05);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
    noisy_pair(&a, &b, "bandwidth", 1.04, "{\"varied_pct\":3}", "{\"varied_pct\":3}");
    CHECK(compare_runs(&a, &b, 5, true, &rep));
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_SAME && rep.rows[0].ratio.high > 1.05 &&
          rep.rows[0].ratio.low > 0.95);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
}

/* --threshold's exit status: 3 when a figure cannot tell and none is beyond (never
 * 0), 1 when one is beyond whatever else cannot tell, 0 when every figure is told
 * within it; without --threshold no gate: 0. */
TEST(compare_gate_cannot_tell_has_its_own_exit_status)
{
    loaded_run a, b;
    compare_report rep;
    noisy_pair(&a, &b, "bandwidth", 0.99, "{\"varied_pct\":3}", "{\"varied_pct\":3}");
    CHECK(compare_runs(&a, &b, 5, true, &rep));
    CHECK_INT(rep.beyond, 0);
    CHECK_INT(compare_exit_status(&rep), COMPARE_EXIT_CANNOT_TELL);
    CHECK_INT(COMPARE_EXIT_CANNOT_TELL, 3);
    CHECK(strncmp(compare_exit_reason(&rep), "cannot tell", 11) == 0);
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &b, -1, true, &rep));
    CHECK_INT(compare_exit_status(&rep), 0);
    CHECK(strncmp(compare_exit_reason(&rep), "no threshold", 12) == 0);
    compare_report_free(&rep);
    CHECK(compare_runs(&a, &b, 10, true, &rep));
    CHECK_INT(compare_exit_status(&rep), 0);
    CHECK(strncmp(compare_exit_reason(&rep), "pass", 4) == 0);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
    /* one figure too wide, one halved: the slower one decides, exit 1 */
    char r1[1024], r2[1024], ra[2100], rb[2100], err[256];
    record(r1, sizeof r1, "read", "bandwidth", 65536, 1);
    record(r2, sizeof r2, "copy", "bandwidth", 65536, 1);
    snprintf(ra, sizeof ra, "%s,%s", r1, r2);
    record(r1, sizeof r1, "read", "bandwidth", 65536, 0.99);
    record(r2, sizeof r2, "copy", "bandwidth", 65536, 0.5);
    snprintf(rb, sizeof rb, "%s,%s", r1, r2);
    CHECK(load(&(doc_parts){.results = ra, .noise = "{\"varied_pct\":3}"}, &a, err, sizeof err));
    CHECK(load(&(doc_parts){.results = rb, .noise = "{\"varied_pct\":3}"}, &b, err, sizeof err));
    CHECK(compare_runs(&a, &b, 5, true, &rep));
    CHECK_INT(rep.too_wide, 1);
    CHECK_INT(rep.beyond, 1);
    CHECK_INT(compare_exit_status(&rep), 1);
    CHECK(strncmp(compare_exit_reason(&rep), "slower beyond", 13) == 0);
    compare_report_free(&rep);
    run_free(&a);
    run_free(&b);
}

/* No run's claimed host movement widens an interval by more than 20%: B at 0.6 of
 * A, with B's (or A's) file claiming its host moved 99.9%, keeps its interval below
 * 1 (one run a side, the verdict is cannot tell: exit 3, never a pass). Uncapped, 0.999 would take the interval from near 0 to past
 * 1 (0.61 x 1.999/0.98 = 1.24): a 1.7x slowdown read as noise. */
TEST(compare_caps_each_runs_host_widening)
{
    for (int doctored_b = 0; doctored_b < 2; doctored_b++) {
        loaded_run a, b, plain_a, plain_b;
        compare_report rep, own;
        const char *huge = "{\"varied_pct\":99.9}", *small = "{\"varied_pct\":2}";
        noisy_pair(&a, &b, "bandwidth", 0.6, doctored_b ? small : huge, doctored_b ? huge : small);
        noisy_pair(&plain_a, &plain_b, "bandwidth", 0.6, NULL, NULL);
        CHECK(compare_runs(&a, &b, 5, true, &rep));
        CHECK(compare_runs(&plain_a, &plain_b, 5, false, &own));
        CHECK_NEAR(doctored_b ? rep.host_b_pct : rep.host_a_pct, COMPARE_HOST_WIDEN_CAP_PCT, 0);
        CHECK_NEAR(doctored_b ? rep.host_a_pct : rep.host_b_pct, 2, 0);
        CHECK(doctored_b ? rep.host_b_capped && !rep.host_a_capped : rep.host_a_capped && !rep.host_b_capped);
        double fa = doctored_b ? 0.02 : 0.2, fb = doctored_b ? 0.2 : 0.02;
        if (rep.count == 1 && own.count == 1) {
            CHECK_NEAR(rep.rows[0].ratio.low, own.rows[0].ratio.low * (1 - fb) / (1 + fa), 1e-12);
            CHECK_NEAR(rep.rows[0].ratio.high, own.rows[0].ratio.high * (1 + fb) / (1 - fa), 1e-12);
            CHECK(rep.rows[0].ratio.high < 1); /* capped, the interval stays below 1 */
            /* ... and one run a side cannot tell a 1.7x change from the host's movement
             * between the runs: exit 3, never a pass (issue 45) */
            CHECK_INT(rep.rows[0].verdict, VERDICT_ONE_RUN);
            CHECK(!rep.rows[0].beyond_threshold);
        } else {
            CHECK(false);
        }
        CHECK_INT(compare_exit_status(&rep), COMPARE_EXIT_CANNOT_TELL);
        compare_report_free(&rep);
        compare_report_free(&own);
        run_free(&a);
        run_free(&b);
        run_free(&plain_a);
        run_free(&plain_b);
    }
}

/* A halving that the runs' own batches call slower is slower even when the hosts'
 * widening (both at the 20% cap: 1.5x) takes its interval past 1: B's samples
 * 48.5-80 (median 49.5 of A's 100) reach about 0.8 by themselves, 1.2 widened. A
 * 1.6x change with the same spread stays cannot tell (the rule is for 2x). */
TEST(compare_halving_is_slower_whatever_the_hosts_moved)
{
    const char *fmt = "{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\","
                      "\"value\":1,\"size_bytes\":65536,\"threads\":1,\"placement\":[{\"thread\":0,\"cpu\":0,"
                      "\"node\":0,\"memory_node\":0}],\"samples\":[%s],\"complete\":true}";
    const char *bs[] = {"49,49.5,48.5,75,80", "62,62.5,61.5,90,95"};
    for (int k = 0; k < 2; k++) {
        char ra[1024], rb[1024], err[256];
        snprintf(ra, sizeof ra, fmt, "100,101,99,100.5,99.5");
        snprintf(rb, sizeof rb, fmt, bs[k]);
        loaded_run a, b;
        CHECK(load(&(doc_parts){.results = ra, .noise = "{\"varied_pct\":50}"}, &a, err, sizeof err));
        CHECK(load(&(doc_parts){.results = rb, .noise = "{\"varied_pct\":99.9}"}, &b, err, sizeof err));
        compare_report rep, own;
        CHECK(compare_runs(&a, &b, 5, true, &rep));
        CHECK(compare_runs(&a, &b, 5, false, &own));
        if (rep.count == 1 && own.count == 1) {
            CHECK(rep.rows[0].ratio.high > 1);   /* widened, the interval holds 1 */
            CHECK(own.rows[0].ratio.high < 1);   /* the runs' own batches: slower */
            CHECK_INT(rep.rows[0].verdict, k == 0 ? VERDICT_SLOWER : VERDICT_TOO_WIDE);
            CHECK_INT(compare_exit_status(&rep), k == 0 ? 1 : COMPARE_EXIT_CANNOT_TELL);
        } else {
            CHECK(false);
        }
        compare_report_free(&rep);
        compare_report_free(&own);
        run_free(&a);
        run_free(&b);
    }
}

/* Issue 45: runs of one side whose medians disagree. Five runs of B at 85, 85, 85,
 * 60 and 115 (each run's batches within 0.2%): the pooled median is 85, and drawing
 * the runs reaches both 60 and 115 (3 draws of 5 of one run: 5.8% of resamples);
 * pooling every batch as if of one run stays near 85. With one run a side the
 * interval is that run's batches'. */
TEST(bootstrap_runs_draws_the_runs)
{
    double a[5][5], b[5][5];
    const double fb[5] = {85, 85, 85, 60, 115};
    const double *va[5], *vb[5];
    size_t counts[5] = {5, 5, 5, 5, 5};
    for (int r = 0; r < 5; r++) {
        for (int k = 0; k < 5; k++) {
            a[r][k] = 100 * (1 + 0.001 * (k - 2));
            b[r][k] = fb[r] * (1 + 0.001 * (k - 2));
        }
        va[r] = a[r];
        vb[r] = b[r];
    }
    bootstrap_side sa = {va, counts, 5}, sb = {vb, counts, 5};
    ratio_interval drawn = bootstrap_runs_ratio(&sa, &sb, true, BOOTSTRAP_SEED);
    ratio_interval pooled = bootstrap_runs_ratio(&sa, &sb, false, BOOTSTRAP_SEED);
    CHECK_NEAR(drawn.ratio, 0.85, 1e-12);
    CHECK_NEAR(pooled.ratio, 0.85, 1e-12);
    CHECK(drawn.told && drawn.low < 0.65 && drawn.high > 1.1);
    CHECK(pooled.told && pooled.low > 0.84 && pooled.high < 0.86);
    /* one run a side: the batches of that run alone, drawn or not */
    bootstrap_side one_a = {va, counts, 1}, one_b = {vb + 3, counts, 1};
    ratio_interval one = bootstrap_runs_ratio(&one_a, &one_b, true, BOOTSTRAP_SEED);
    CHECK_NEAR(one.ratio, 0.6, 1e-12);
    CHECK(one.told && one.low > 0.59 && one.high < 0.61);
}

/* compare_run_sets: A is the median of every A run's samples pooled (not the first
 * run's), a figure's runs are counted, and one run a side turns a 15% slowdown the
 * pair's own interval shows into VERDICT_ONE_RUN, while 2x stays slower. */
TEST(compare_run_sets_pools_and_knows_one_run)
{
    char rec[1024], err[256];
    const double fa[3] = {1, 1.2, 1.4};
    loaded_run a[3], b[3];
    for (int r = 0; r < 3; r++) {
        record(rec, sizeof rec, "read", "bandwidth", 65536, fa[r]);
        CHECK(load(&(doc_parts){.results = rec}, &a[r], err, sizeof err));
        record(rec, sizeof rec, "read", "bandwidth", 65536, fa[r] * 0.85);
        CHECK(load(&(doc_parts){.results = rec}, &b[r], err, sizeof err));
    }
    compare_report rep;
    CHECK(compare_run_sets(a, 3, b, 3, 10, true, &rep));
    CHECK(rep.between_runs && rep.draw_runs && !rep.one_run_rule && !rep.host_widened);
    if (rep.count == 1) {
        CHECK_NEAR(rep.rows[0].a_median, 120, 1e-9); /* 100 x 1.2, the middle of 15; the first run alone: 100 */
        CHECK_INT(rep.rows[0].a_nruns, 3);
        CHECK_INT(rep.rows[0].b_nruns, 3);
        CHECK_NEAR(rep.rows[0].ratio.ratio, 0.85, 1e-12);
    } else {
        CHECK(false);
    }
    compare_report_free(&rep);
    CHECK(compare_run_sets(a, 1, b, 1, 10, true, &rep)); /* one run a side */
    CHECK(rep.one_run_rule && !rep.between_runs);
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_ONE_RUN && rep.rows[0].ratio.high < 0.9);
    CHECK_INT(rep.one_run, 1);
    CHECK_INT(compare_exit_status(&rep), COMPARE_EXIT_CANNOT_TELL);
    CHECK(strncmp(compare_exit_reason(&rep), "cannot tell: one run a side", 27) == 0);
    compare_report_free(&rep);
    CHECK(compare_run_sets(b, 1, a, 1, 10, true, &rep)); /* 1/0.85 faster: cannot tell either */
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_ONE_RUN);
    compare_report_free(&rep);
    CHECK(compare_run_sets(a, 1, b, 1, 10, false, &rep)); /* --within-run: the pair's own samples */
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_SLOWER && rep.rows[0].beyond_threshold);
    compare_report_free(&rep);
    for (int r = 0; r < 3; r++)
        run_free(&b[r]);
    record(rec, sizeof rec, "read", "bandwidth", 65536, 0.5);
    CHECK(load(&(doc_parts){.results = rec}, &b[0], err, sizeof err));
    CHECK(compare_run_sets(a, 1, b, 1, 10, true, &rep)); /* 2x: slower with one run a side too */
    CHECK(rep.count == 1 && rep.rows[0].verdict == VERDICT_SLOWER && rep.rows[0].beyond_threshold);
    CHECK_INT(compare_exit_status(&rep), 1);
    compare_report_free(&rep);
    run_free(&b[0]);
    for (int r = 0; r < 3; r++)
        run_free(&a[r]);
}
