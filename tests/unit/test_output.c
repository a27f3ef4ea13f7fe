/* SPDX-License-Identifier: MIT */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/operation.h"
#include "output/csv_sink.h"
#include "output/document_sink.h"
#include "output/format.h"
#include "output/json.h"
#include "output/json_report.h"
#include "output/summary.h"
#include "output/table_sink.h"
#include "output/latency_sink.h"
#include "test.h"
#include "util/json_parse.h"

static result_record bw(mb_op op, uint64_t kb, double mb_s)
{
    result_record r;
    result_init(&r, "sweep", op_name(op), METRIC_BANDWIDTH);
    double samples[] = {mb_s * 0.5, mb_s, mb_s * 0.75}; /* the best is the headline */
    result_set_samples(&r, samples, 3);
    r.size_bytes = kb * 1024;
    r.threads = 2;
    r.iterations = 15;
    r.elapsed_s = 0.0123456789;
    return r;
}

static result_record lat(uint64_t kb, double ns)
{
    result_record r;
    result_init(&r, "sweep", "latency", METRIC_LATENCY);
    double samples[] = {ns + 0.456, ns, ns - 0.456}; /* median ns, sample stddev 0.456 */
    result_set_samples(&r, samples, 3);
    r.size_bytes = kb * 1024;
    r.threads = 1;
    r.iterations = 3;
    r.elapsed_s = 0.25;
    return r;
}

static void free_all(result_record *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        result_free(&r[i]);
}

/* Runs fn into a memory stream and returns the text (caller frees). */
#define CAPTURE(text, call)                                                                                           \
    do {                                                                                                              \
        size_t _len;                                                                                                  \
        FILE *f = open_memstream(&(text), &_len);                                                                     \
        call;                                                                                                         \
        fclose(f);                                                                                                    \
    } while (0)

TEST(csv_header_and_rows_match_sc_membench)
{
    char *text = NULL;
    result_record r1 = bw(OP_READ, 32, 9309701.638), r2 = lat(32, 1.7749);
    r2.random_chase = RANDOM_CHASE_SAME; /* a 32 KiB chain: one group, random over all of it */
    CAPTURE(text, (csv_write_header(f, false), csv_write_record(f, &r1, false), csv_write_record(f, &r2, false)));
    CHECK_STR(text, "size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,"
                    "iterations,elapsed_s\n"
                    "32,read,9309701.64,0,0,0,2,15,0.012346\n"
                    "32,latency,0,1.77,0.46,3,1,3,0.250000\n");
    free(text);
    result_record r3 = bw(OP_COPY_NT, 65536, 12.5);
    CAPTURE(text, csv_write_record(f, &r3, false));
    CHECK_STR(text, "65536,copy-nt,12.50,0,0,0,2,15,0.012346\n");
    free(text);
    /* past one group: latency_ns, its stddev, samples and iterations are the full
     * random chase's (sc-membench's figure), not the TLB-local headline's */
    result_record r4 = lat(1048576, 120.0);
    params_text(&r4.params, "chase_order", "tlb-local");
    static const double walks[4] = {480.0, 500.0, 520.0, 500.0};
    CHECK(result_set_random(&r4, walks, NULL, 4));
    CAPTURE(text, csv_write_record(f, &r4, false));
    CHECK_STR(text, "1048576,latency,0,500.00,16.33,4,1,4,0.250000\n");
    free(text);
    /* --csv-columns membench: then the headline's median and stddev; empty for bandwidth */
    CAPTURE(text, (csv_write_header(f, true), csv_write_record(f, &r4, true), csv_write_record(f, &r1, true)));
    CHECK_STR(text, "size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,"
                    "iterations,elapsed_s,tlb_local_latency_ns,tlb_local_latency_stddev_ns\n"
                    "1048576,latency,0,500.00,16.33,4,1,4,0.250000,120.00,0.46\n"
                    "32,read,9309701.64,0,0,0,2,15,0.012346,,\n");
    free(text);
    /* a TLB-local chase without its random one (failed, or stopped first): no figure
     * under sc-membench's name, rather than the other chase's */
    result_record r5 = lat(1048576, 120.0);
    params_text(&r5.params, "chase_order", "tlb-local");
    r5.random_chase = RANDOM_CHASE_FAILED;
    CAPTURE(text, csv_write_record(f, &r5, false));
    CHECK_STR(text, "1048576,latency,0,,,0,1,0,0.250000\n");
    free(text);
    /* a plain random chase (no second one): its own median */
    result_record r6 = lat(1048576, 130.0);
    params_text(&r6.params, "chase_order", "random");
    CAPTURE(text, csv_write_record(f, &r6, false));
    CHECK_STR(text, "1048576,latency,0,130.00,0.46,3,1,3,0.250000\n");
    free(text);
    result_free(&r6);
    result_free(&r5);
    result_free(&r4);
    result_free(&r1);
    result_free(&r2);
    result_free(&r3);
}

TEST(table_rows_match_sc_membench_layout)
{
    char *text = NULL;
    result_record r1 = bw(OP_READ, 32, 2612561), r2 = lat(128, 2.44), r3 = bw(OP_COPY, 131072, 464400),
                  r4 = bw(OP_WRITE, 4194304, 512);
    CAPTURE(text, (table_write_header(f), table_write_record(f, &r1), table_write_record(f, &r2),
                   table_write_record(f, &r3), table_write_record(f, &r4)));
    /* sc-membench's columns, then the median of the three samples and its interval
     * with the level it has ([min, max] of 3: 75%, not 95%) */
    CHECK_STR(text, "\nSize       Op          Bandwidth      Latency  Threads       Median  Interval (level)\n"
                    "----       --          ---------      -------  -------       ------  ----------------\n"
                    "32 KB      read         2.6 TB/s            -        2     2.0 TB/s  \xc2\xb1" "33% (75%)\n"
                    "128 KB     latency             -       2.4 ns        1       2.4 ns  \xc2\xb1" "19% (75%)\n"
                    "128 MB     copy       464.4 GB/s            -        2   348.3 GB/s  \xc2\xb1" "33% (75%)\n"
                    "4 GB       write      512.0 MB/s            -        2   384.0 MB/s  \xc2\xb1" "33% (75%)\n");
    free(text);
    /* an interval that reaches further one way says both sides, not one ± */
    result_record r5;
    result_init(&r5, "sweep", "read", METRIC_BANDWIDTH);
    static const double uneven[3] = {100, 110, 160};
    result_set_samples(&r5, uneven, 3);
    r5.size_bytes = 64 * 1024;
    r5.threads = 2;
    CAPTURE(text, table_write_record(f, &r5));
    CHECK_CONTAINS(text, "   110.0 MB/s  -9/+45% (75%)\n");
    free(text);
    result_free(&r5);
    result_free(&r1);
    result_free(&r2);
    result_free(&r3);
    result_free(&r4);
}

TEST(summary_scores_follow_sc_membench_formulas)
{
    result_record r[] = {bw(OP_READ, 32, 3000), bw(OP_WRITE, 32, 2000), bw(OP_COPY, 32, 1000), lat(32, 2),
                         bw(OP_READ, 1024, 1000), bw(OP_WRITE, 1024, 500), bw(OP_COPY, 1024, 250), lat(1024, 100),
                         bw(OP_WRITE_NT, 1024, 99999)};
    run_summary s = summary_compute(r, 9);
    CHECK_NEAR(s.read.peak_mb_s, 3000, 0);
    double w32 = log2(33), w1024 = log2(1025);
    CHECK_NEAR(s.read.weighted_avg_mb_s, (3000 * w32 + 1000 * w1024) / (w32 + w1024), 1e-9);
    CHECK_NEAR(s.latency_ns, 100, 0); /* the largest latency size, not the smallest latency */
    CHECK_INT(s.largest_size, 1024 * 1024);
    CHECK_NEAR(s.read.largest_mb_s, 1000, 0);
    CHECK_NEAR(s.copy.largest_mb_s, 250, 0);
    CHECK_NEAR(s.bandwidth_score, 2.0, 1e-12);    /* (3000+2000+1000)/3/1000; write-nt not counted */
    CHECK_NEAR(s.read.peak_median_mb_s, 2250, 0); /* the medians are 0.75x the bests */
    CHECK_NEAR(s.bandwidth_score_median, 1.5, 1e-12);
    CHECK_NEAR(s.latency_score, 10.0, 1e-12);     /* 1000/100 */
    CHECK_NEAR(s.combined_score, sqrt(20) * 100, 1e-9);
    run_summary none = summary_compute(r, 3); /* no latency: bandwidth only */
    CHECK_NEAR(none.combined_score, 200, 1e-9);
    free_all(r, 9);
}

TEST(summary_text_and_comparability_warning)
{
    result_record r[] = {bw(OP_READ, 65536, 25000), lat(65536, 97.2)};
    run_summary s = summary_compute(r, 2);
    comparability c = {60, 4, "-p", 32, 0, 0, NULL, 1, 3, false};
    char *text = NULL;
    CAPTURE(text, table_write_summary(f, &s, &c));
    CHECK_CONTAINS(text, "                           BENCHMARK SUMMARY\n");
    CHECK_CONTAINS(text, "  Read                       25000        25000        18750\n"); /* median of 12500, 25000, 18750 */
    CHECK_CONTAINS(text, "  Best latency: 97.2 ns (RAM) at 65536 KB buffer\n");
    CHECK_CONTAINS(text,
                   "  Bandwidth Score:        25.0  (avg peak bandwidth in GB/s, best samples; from the peak medians: 18.8)\n");
    CHECK_CONTAINS(text, "  Peak: the best of -r samples at any size (more tries, higher peak);\n");
    CHECK_CONTAINS(text, "  Latency Score:          10.3  (1000 / latency_ns)\n");
    CHECK_CONTAINS(text, "  >> COMBINED SCORE:      1604  (sqrt(bw_score \xc3\x97 latency_score) \xc3\x97 100)\n");
    CHECK_CONTAINS(text, "WARNING: Scores may not be comparable due to non-default options:\n");
    CHECK_CONTAINS(text, "  - Time limit (-t 60) may have prevented testing larger buffer sizes\n");
    CHECK_CONTAINS(text, "  - Fixed thread count (-p 4) instead of using all CPUs (32)\n");
    CHECK_CONTAINS(text, "For comparable scores, run without -t, -p, or -s options.\n");
    CHECK_CONTAINS(text, "Largest size (65536 KB per thread): read 25000 MB/s");
    CHECK_CONTAINS(text, "1 latency point(s) did not reach CV < 5%");
    CHECK_CONTAINS(text, "Samples: 3 per point, taken in 3 rounds (each round visits every size and operation once).");
    free(text);
    comparability clean = {0, 0, NULL, 32, 0, 0, NULL, 0, 0, false};
    CAPTURE(text, table_write_summary(f, &s, &clean));
    CHECK(strstr(text, "WARNING") == NULL);
    CHECK(strstr(text, "rounds") == NULL); /* not said when not known */
    free(text);
    comparability capped = {0, 0, NULL, 32, 0, 8192, NULL, 0, 0, false}; /* --max-size alone warns too */
    CAPTURE(text, table_write_summary(f, &s, &capped));
    CHECK_CONTAINS(text, "WARNING: Scores may not be comparable due to non-default options:\n"
                         "  - Sizes up to --max-size 8192 KB instead of the whole sweep\n"
                         "For comparable scores");
    free(text);
    free_all(r, 2);
}

TEST(host_noise_footer_says_the_widening)
{
    /* The verdict's own figures, and the widened interval by exactly varied_pct (not
     * the meaningful difference, twice it); too few probes: neither. */
    run_host_noise n = {.measured = true, .probes = 58, .known = true, .varied_pct = 3.3, .meaningful_pct = 6.6,
                        .steal_pct = 0, .cpu_pressure_pct = 1.5, .memory_pressure_pct = -1};
    char *text = NULL;
    CAPTURE(text, table_write_host_noise(f, &n));
    CHECK_CONTAINS(text, "  varied \xc2\xb1" "3.3% (fixed CPU and memory probes timed 58 times); differences below 7% are not "
                         "meaningful\n");
    CHECK_CONTAINS(text, "  each \xc2\xb1 is this run's alone; widened by 3.3% it is where this host's median is likely "
                         "(JSON summary.host_interval)\n");
    CHECK_CONTAINS(text, "  steal 0.0%, CPU pressure 1.5%, memory pressure unknown\n");
    free(text);
    n.known = false;
    n.probes = 3;
    CAPTURE(text, table_write_host_noise(f, &n));
    CHECK_CONTAINS(text, "too short to judge its variation (3 probes");
    CHECK(strstr(text, "widened") == NULL);
    free(text);
}

TEST(format_helpers)
{
    char b[32];
    CHECK_STR(format_size_kb(1536, b, sizeof b), "1 MB");
    CHECK_STR(format_size_kb(1048576, b, sizeof b), "1 GB");
    CHECK_STR(format_size_kb(4, b, sizeof b), "4 KB");
    CHECK_STR(format_rate_mb_s(999.94, b, sizeof b), "999.9 MB/s");
    CHECK_STR(format_rate_mb_s(1000, b, sizeof b), "1.0 GB/s");
}

TEST(json_writer_nests_escapes_and_nulls)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_string(&j, "s", "a\"b\\c\n\x01");
    json_number(&j, "inf", INFINITY);
    json_number(&j, "x", 1.5);
    json_array_begin(&j, "empty");
    json_array_end(&j);
    json_array_begin(&j, "a");
    json_int(&j, NULL, -3);
    json_bool(&j, NULL, true);
    json_null(&j, NULL);
    json_array_end(&j);
    json_object_begin(&j, "o");
    json_uint(&j, "u", 18446744073709551615ULL);
    json_object_end(&j);
    json_object_end(&j);
    fclose(f);
    CHECK_STR(text, "{\n  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n  \"inf\": null,\n  \"x\": 1.5,\n  \"empty\": [],\n"
                    "  \"a\": [\n    -3,\n    true,\n    null\n  ],\n  \"o\": {\n    \"u\": 18446744073709551615\n  }\n}\n");
    free(text);
}

/* A number reads back as exactly the double written: never infinite next to
 * DBL_MAX (ten digits made "1.797693135e+308", inf to Python's json and to
 * strtod; found by fuzz_json), and a bandwidth prints the same with %.2f from the
 * JSON as in the CSV (ten digits of 381952.7749620351 read back as .775 and
 * printed .78 against the CSV's .77: the CLI test comparing them failed now and
 * then). */
TEST(json_numbers_read_back_exactly)
{
    static const double values[] = {DBL_MAX, -DBL_MAX, 1.7976931348e308, 1e308, DBL_TRUE_MIN,
                                    381952.7749620351, 1.0 / 3.0, 123456789.123456789};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char *text = NULL;
        size_t len;
        FILE *f = open_memstream(&text, &len);
        json_writer j;
        json_init(&j, f);
        json_number(&j, NULL, values[i]);
        fclose(f);
        double back = strtod(text, NULL);
        CHECK(isfinite(back));
        CHECK(back == values[i]);
        free(text);
    }
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    json_writer j;
    json_init(&j, f);
    json_number(&j, NULL, 0.1); /* the shortest text that reads back: no 0.10000000000000001 */
    fclose(f);
    CHECK_STR(text, "\n0.1");
    free(text);
}

/* Strings in JSON are always UTF-8: well-formed sequences pass through, anything
 * else (a Latin-1 path, a lone continuation byte, an overlong form, a surrogate, a
 * truncated sequence) becomes U+FFFD, byte by byte. */
TEST(json_strings_are_always_utf8)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""},
        {"/tmp/x\xff.json", "\"/tmp/x\\ufffd.json\""},
        {"\x80", "\"\\ufffd\""},
        {"\xc0\xaf", "\"\\ufffd\\ufffd\""},             /* overlong '/' */
        {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},   /* UTF-16 surrogate */
        {"\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* beyond U+10FFFF */
        {"a\xe2\x82", "\"a\\ufffd\\ufffd\""},            /* cut short by the end */
        /* plain runs cut at every byte that needs escaping, and at a bad sequence */
        {"ab\"cd\\ef\ngh\x01ij\tk", "\"ab\\\"cd\\\\ef\\ngh\\u0001ij\\tk\""},
        {"x\xc3\xa9\xffy\xc3\xa9", "\"x\xc3\xa9\\ufffdy\xc3\xa9\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = NULL;
        size_t len;
        FILE *f = open_memstream(&text, &len);
        json_write_escaped(f, cases[i].in);
        fclose(f);
        CHECK_STR(text, cases[i].out);
        free(text);
    }
}

/* "Effective last-level cache" is a conclusion only a checkable last level allows:
 * a curve that stops short of 2x the reported size says nothing about it. */
TEST(latency_estimates_name_no_effective_llc_from_an_unchecked_level)
{
    for (int checkable = 0; checkable <= 1; checkable++) {
        param_section a = {0};
        param_list *row = table_add_row(section_table(&a, "cache_checks"));
        params_int(row, "level", 3);
        params_int(row, "reported_bytes", 8 << 20);
        params_int(row, "measured_bytes", 8 << 10);
        params_number(row, "measured_latency_ns", 4.0);
        params_bool(row, "checkable", checkable);
        params_bool(row, "disagrees", false);
        char *text = NULL;
        size_t len;
        FILE *f = open_memstream(&text, &len);
        latency_write_estimates(f, &a);
        fclose(f);
        CHECK_INT(strstr(text, "Effective last-level cache") != NULL, checkable);
        free(text);
        section_free(&a);
    }
}

/* The estimates' text read back: why a level was not checked, why no step was
 * found, and the page-walk note only under an order that walks pages. */
static char *estimates_text(int converged, int not_converged, const char *not_checked, bool page_walks)
{
    param_section a = {0};
    params_int(&a.values, "points_converged", converged);
    params_int(&a.values, "points_not_converged", not_converged);
    params_bool(&a.values, "page_walk_steps", page_walks);
    param_list *row = table_add_row(section_table(&a, "cache_checks"));
    params_int(row, "level", 1);
    params_int(row, "reported_bytes", 48 << 10);
    params_null(row, "measured_bytes");
    params_bool(row, "checkable", false);
    params_bool(row, "disagrees", false);
    params_text(row, "not_checked", not_checked);
    (void)section_table(&a, "steps");
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    latency_write_estimates(f, &a);
    fclose(f);
    section_free(&a);
    return text;
}

TEST(latency_estimates_say_why_a_level_is_unchecked_and_why_no_step)
{
    char *t = estimates_text(0, 32, "points_not_converged", false);
    CHECK_CONTAINS(t, "L1 reported 48 KiB    not checked: the points from 1/2x to 2x that size did not reach CV < 5%");
    CHECK(strstr(t, "does not reach") == NULL);
    CHECK_CONTAINS(t, "  none found: none of the 32 points reached CV < 5%");
    CHECK(strstr(t, "TLB misses") == NULL); /* a TLB-local chase walks no pages */
    free(t);
    t = estimates_text(2, 30, "curve_short", true);
    CHECK_CONTAINS(t, "not checked: the curve does not reach from 1/2x to 2x that size");
    CHECK_CONTAINS(t, "  none found: only 2 of 32 points reached CV < 5%, too few to show a step");
    CHECK_CONTAINS(t, "note: this order walks pages: without huge pages, TLB misses add steps of their own");
    free(t);
    t = estimates_text(20, 12, "curve_short", false);
    CHECK_CONTAINS(t, "  none found: across the 20 points that reached CV < 5% (of 32), none rises 25% above its "
                      "plateau with its interval wholly above: flat within the noise in this range");
    free(t);
}

/* One note, naming the first size, when the full random chase came out below the
 * TLB-local one; none when it did not. */
TEST(latency_random_below_tlb_local_gets_one_note)
{
    result_record r[2];
    double tlb[] = {100, 101, 102, 103, 104, 105, 106, 107, 108}, rnd_ok[] = {150, 151, 152}, rnd_low[] = {60, 61, 62};
    for (int i = 0; i < 2; i++) {
        result_init(&r[i], "latency", "latency", METRIC_LATENCY);
        r[i].size_bytes = (uint64_t)(8 + 8 * i) << 20;
        CHECK(result_set_samples(&r[i], tlb, 9));
        r[i].random_chase = RANDOM_CHASE_MEASURED;
        r[i].random_nsamples = 3;
        r[i].random_summary = r[i].summary;
        r[i].random_summary.median = i ? rnd_low[1] : rnd_ok[1];
        r[i].random_summary.median_low = i ? rnd_low[0] : rnd_ok[0];
        r[i].random_summary.median_high = i ? rnd_low[2] : rnd_ok[2];
    }
    result_list l = {r, 1, 2};
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    latency_write_random_note(f, &l);
    fclose(f);
    CHECK_STR(text, "");
    free(text);
    l.n = 2;
    f = open_memstream(&text, &len);
    latency_write_random_note(f, &l);
    fclose(f);
    CHECK_STR(text, "note: the full random chase came out below the TLB-local one at 1 size (16 MiB: 61.00 ns against "
                    "104.00 ns); it adds page walks to every load, so it cannot be faster: the host moved between the "
                    "two chases (their intervals are apart; see HOST DURING THIS RUN)\n");
    free(text);
    for (int i = 0; i < 2; i++)
        result_free(&r[i]);
}

/* The latency table's interval: each side apart when they differ, and the level it
 * really has (9 samples: 96%, not a 95% header over a 98% interval). */
TEST(latency_interval_states_its_level_and_both_sides)
{
    sample_stats st = {0};
    st.median = 100;
    st.median_low = 94;
    st.median_high = 131;
    st.median_level = 0.984;
    char buf[48];
    CHECK_STR(format_interval_level(&st, buf, sizeof buf), "-6/+31% (98%)");
    st.median_high = 106.2;
    CHECK_STR(format_interval_level(&st, buf, sizeof buf), "\xc2\xb1" "6% (98%)");
    st.median_level = 0;
    CHECK_STR(format_interval_level(&st, buf, sizeof buf), "-");
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    latency_write_header(f, false, NULL, 0);
    fclose(f);
    CHECK_CONTAINS(text, "Median  Interval (level)       Best ");
    CHECK(strstr(text, "95%") == NULL);
    free(text);
}

/* The latency table and CSV name their statistics: the median, and beside it the
 * best (lowest) sample, multichase's statistic, for the headline and the full
 * random chase alike. */
TEST(latency_row_gives_median_and_best_of_both_chases)
{
    result_record r;
    result_init(&r, "latency", "latency", METRIC_LATENCY);
    r.size_bytes = 1 << 30;
    r.threads = 1;
    result_add_buffer(&r, "normal", 1 << 30, 0.0);
    const double tlb[] = {120, 100, 110, 140, 130};
    const double rnd[] = {300, 250, 280};
    CHECK(result_set_samples(&r, tlb, 5));
    CHECK(result_set_random(&r, rnd, NULL, 3));
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    latency_write_row(f, false, &r);
    latency_write_row(f, true, &r);
    fclose(f);
    CHECK_CONTAINS(text, "1 GiB         120.00 ns  ");
    CHECK_CONTAINS(text, "  100.00 ns "); /* Best */
    CHECK_CONTAINS(text, "280.00 ns ");
    CHECK_CONTAINS(text, ", best 250.00 ns\n");
    CHECK_CONTAINS(text, "\n1048576,120.000,");
    CHECK_CONTAINS(text, ",280.000,100.000,250.000\n"); /* random median, best, random best */
    free(text);
    result_free(&r);
}

TEST(buffers_with_different_pages_are_each_counted_with_the_true_share)
{
    /* two threads' copy: two 8 MiB buffers got hugetlb, two got normal pages */
    result_record r;
    result_init(&r, "sweep", "copy", METRIC_BANDWIDTH);
    result_add_buffer(&r, "hugetlb", 8 << 20, 1.0);
    CHECK_STR(r.page_method, "hugetlb");
    CHECK_NEAR(r.huge_coverage, 1.0, 0);
    result_add_buffer(&r, "normal", 8 << 20, 0.0);
    result_add_buffer(&r, "hugetlb", 8 << 20, 1.0);
    result_add_buffer(&r, "normal", 8 << 20, 0.0);
    CHECK_STR(r.page_method, "mixed");
    CHECK_NEAR(r.huge_coverage, 0.5, 1e-12); /* of all bytes, not the lowest buffer's 0 */
    CHECK_INT(r.npages, 2);
    CHECK_INT(r.pages[0].buffers, 2);
    CHECK_INT(r.pages[1].buffers, 2);
    char text[96];
    result_pages_text(&r, text, sizeof text);
    CHECK_STR(text, "2 hugetlb + 2 normal");
    /* shares are weighted by bytes; one buffer not verified makes the whole unknown */
    result_record w;
    result_init(&w, "stream", "copy", METRIC_BANDWIDTH);
    result_add_buffer(&w, "thp", 3 << 20, 1.0);
    result_add_buffer(&w, "thp", 1 << 20, 0.0);
    CHECK_STR(w.page_method, "thp");
    CHECK_NEAR(w.huge_coverage, 0.75, 1e-12);
    result_pages_text(&w, text, sizeof text);
    CHECK_STR(text, "thp");
    result_add_buffer(&w, "thp", 1 << 20, -1);
    CHECK_NEAR(w.huge_coverage, -1, 0);
    CHECK_NEAR(w.pages[0].huge_bytes, -1, 0);
    result_free(&r);
    result_free(&w);
}

/* One record's summary as --json writes it, parsed back. */
static json_value record_summary(const double *samples, int n, json_value *doc)
{
    result_record r;
    result_init(&r, "sweep", "latency", METRIC_LATENCY);
    r.size_bytes = 4 << 20;
    r.threads = 1;
    CHECK(result_set_samples(&r, samples, n));
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    json_writer j;
    json_init(&j, f);
    json_write_record(&j, &r, NULL);
    fclose(f);
    char err[128];
    CHECK(json_parse(text, len, doc, err, sizeof err));
    free(text);
    result_free(&r);
    const json_value *summary = json_get_object(doc, "summary");
    return summary ? *summary : (json_value){.type = JV_NULL};
}

TEST(json_summary_names_two_levels_or_null)
{
    json_value doc;
    const double l3_then_dram[] = {131.7, 16.3, 129.3, 16.3, 120.5, 15.8, 128.4};
    json_value summary = record_summary(l3_then_dram, 7, &doc);
    const json_value *levels = json_get_object(&summary, "two_levels");
    double x = 0;
    CHECK(json_get_number(json_get_object(levels, "low"), "n", &x) && x == 3);
    CHECK(json_get_number(json_get_object(levels, "low"), "median", &x) && x == 16.3);
    CHECK(json_get_number(json_get_object(levels, "high"), "n", &x) && x == 4);
    CHECK(json_get_number(json_get_object(levels, "high"), "median", &x) && x == (128.4 + 129.3) / 2);
    CHECK(json_get_number(levels, "jump", &x) && x == 120.5 / 16.3);
    CHECK_STR(json_get_text(levels, "method"),
              "the largest ratio of neighbouring sorted samples with 2 or more on each side, when 1.5 or more");
    json_value_free(&doc);

    const double one_level[] = {140, 150, 145, 160};
    summary = record_summary(one_level, 4, &doc);
    const json_value *none = json_get(&summary, "two_levels");
    CHECK(none != NULL && none->type == JV_NULL);
    json_value_free(&doc);
}

/* A --json path that cannot be opened when the run starts (changed since it was
 * checked) is said, and no sink comes back: the session then ends the run. */
TEST(document_sink_says_why_it_cannot_open)
{
    FILE *err = tmpfile();
    CHECK(err != NULL);
    sink *k = json_sink_create("/nonexistent-membench-dir/x.json", err, "membench");
    CHECK(k == NULL);
    char line[512] = "";
    rewind(err);
    CHECK(fgets(line, sizeof line, err) != NULL);
    CHECK_CONTAINS(line, "membench: error: --json /nonexistent-membench-dir/x.json: cannot write (No such file");
    fclose(err);
}

/* A document writer that counts its calls and writes how many records it was given. */
static int document_writes;
static size_t document_records;

static void counting_document(FILE *f, const run_info *info)
{
    (void)info;
    document_writes++;
    fprintf(f, "%zu\n", document_records);
}

static size_t written_records(const char *path)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (!f || fscanf(f, "%zu", &n) != 1)
        n = (size_t)-1;
    if (f)
        fclose(f);
    return n;
}

/* Each record rewrites the document at once, but the records of a burst rewrite it
 * once, at the burst's end (and not at all when none came), the outermost burst's
 * end where bursts nest; the run's end writes it whatever happened before. */
TEST(document_sink_rewrites_per_record_but_once_per_burst)
{
    char path[512];
    snprintf(path, sizeof path, "%s/doc.txt", test_tempdir());
    FILE *err = tmpfile();
    CHECK(err != NULL);
    sink *k = document_sink_create("--json", path, err, "membench", counting_document);
    CHECK(k != NULL);
    if (!k)
        return;
    run_info info;
    memset(&info, 0, sizeof info);
    result_record r;
    result_init(&r, "latency", "latency", METRIC_LATENCY);
    document_writes = 0;
    document_records = 1;
    sink_record(k, &info, &r);
    CHECK_INT(document_writes, 1);
    CHECK_INT((int)written_records(path), 1);
    sink_burst(k, true, &info);
    sink_burst(k, true, &info); /* nested */
    for (document_records = 2; document_records <= 4; document_records++)
        sink_record(k, &info, &r);
    document_records--;
    sink_burst(k, false, &info);
    CHECK_INT(document_writes, 1); /* the inner end: still in the burst */
    sink_burst(k, false, &info);
    CHECK_INT(document_writes, 2);
    CHECK_INT((int)written_records(path), 4);
    sink_burst(k, true, &info);
    sink_burst(k, false, &info);
    CHECK_INT(document_writes, 2); /* a burst without records writes nothing */
    sink_burst(k, false, &info);  /* an end without a begin: nothing, and no burst left open */
    document_records = 5;
    sink_record(k, &info, &r);
    CHECK_INT(document_writes, 3);
    sink_burst(k, true, &info);
    document_records = 6;
    sink_record(k, &info, &r);
    sink_end(k, &info); /* stopped mid-burst: the end writes all */
    CHECK_INT(document_writes, 4);
    CHECK_INT((int)written_records(path), 6);
    sink_destroy(k);
    result_free(&r);
    fclose(err);
}
