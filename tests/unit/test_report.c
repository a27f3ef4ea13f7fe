/* SPDX-License-Identifier: MIT */
/* membench report: the chart geometry (core/chart_axis.c), the sorting of
 * records into charts (core/report_model.c) and the page's escaping
 * (output/report_html.c, output/svg_chart.c), on synthetic documents. */
#include <math.h>
#include <stdlib.h>

#include "core/chart_axis.h"
#include "core/report_headline.h"
#include "core/report_model.h"
#include "core/run_load.h"
#include "output/report_html.h"
#include "output/svg_chart.h"
#include "report_page.h"
#include "test.h"

TEST(chart_log2_axis_ticks_are_powers_of_two_within_the_cap)
{
    chart_axis a = chart_axis_fit(16384, 64 << 20, true, 0, 600);
    CHECK_NEAR(a.lo, 16384, 0);
    CHECK_NEAR(a.hi, 64 << 20, 0);
    double t[16];
    size_t n = chart_axis_ticks(&a, t, 12); /* 13 octaves: every second one */
    CHECK(n >= 2 && n <= 12);
    CHECK_NEAR(t[0], 16384, 0);
    CHECK_NEAR(t[n - 1], 64 << 20, 0);
    for (size_t i = 0; i < n; i++) {
        int e;
        CHECK(frexp(t[i], &e) == 0.5); /* a power of two */
        CHECK(i == 0 || t[i] > t[i - 1]);
    }
    n = chart_axis_ticks(&a, t, 16); /* room for all */
    CHECK_INT(n, 13);
    chart_axis b = chart_axis_fit(3000, 5000, true, 0, 100); /* not powers of two: out to them */
    CHECK_NEAR(b.lo, 2048, 0);
    CHECK_NEAR(b.hi, 8192, 0);
}

TEST(chart_value_to_pixel_mapping)
{
    chart_axis x = chart_axis_fit(1024, 1 << 20, true, 100, 700); /* 10 octaves over 600 px */
    CHECK_NEAR(chart_axis_px(&x, 1024), 100, 1e-9);
    CHECK_NEAR(chart_axis_px(&x, 1 << 20), 700, 1e-9);
    CHECK_NEAR(chart_axis_px(&x, 32768), 100 + 600 * 5 / 10.0, 1e-9); /* 5 octaves in */
    CHECK_NEAR(chart_axis_px(&x, 1), 100, 1e-9);                    /* clamped */
    CHECK_NEAR(chart_axis_px(&x, 0), 100, 1e-9);
    CHECK_NEAR(chart_axis_px(&x, 1e12), 700, 1e-9);
    chart_axis y = chart_axis_fit(0, 190277, false, 350, 40); /* y grows upwards */
    CHECK_NEAR(y.lo, 0, 0);
    CHECK_NEAR(y.step, 50000, 0);
    CHECK_NEAR(y.hi, 200000, 0);
    CHECK_NEAR(chart_axis_px(&y, 0), 350, 1e-9);
    CHECK_NEAR(chart_axis_px(&y, 100000), 195, 1e-9);
    CHECK_NEAR(chart_axis_px(&y, 200000), 40, 1e-9);
    double t[16];
    size_t n = chart_axis_ticks(&y, t, 8);
    CHECK_INT(n, 5);
    CHECK_NEAR(t[4], 200000, 0);
}

TEST(chart_axis_of_one_point_still_has_a_range)
{
    chart_axis x = chart_axis_fit(4096, 4096, true, 0, 200);
    CHECK(x.lo < 4096 && x.hi > 4096);
    CHECK_NEAR(chart_axis_px(&x, 4096), 100, 1e-9); /* in the middle */
    chart_axis y = chart_axis_fit(5, 5, false, 100, 0);
    CHECK(y.lo == 0 && y.hi >= 5 && y.step > 0);
    CHECK(chart_axis_px(&y, 5) < 100 && chart_axis_px(&y, 5) >= 0);
    chart_axis z = chart_axis_fit(0, 0, false, 100, 0); /* all zeros */
    CHECK(z.hi > z.lo);
    chart_axis l = chart_axis_fit(NAN, -1, true, 0, 10); /* nothing usable on a log axis */
    CHECK(l.lo > 0 && l.hi > l.lo);
    char buf[32];
    CHECK_STR(chart_tick_label(4096, true, buf, sizeof buf), "4 KiB");
    CHECK_STR(chart_tick_label(512, true, buf, sizeof buf), "512 B");
    CHECK_STR(chart_tick_label(1 << 30, true, buf, sizeof buf), "1 GiB");
    CHECK_STR(chart_tick_label(2.5, false, buf, sizeof buf), "2.5");
    CHECK_STR(chart_tick_label(20000, false, buf, sizeof buf), "20000");
}

TEST(chart_whisker_spans_every_sample)
{
    double s[] = {5, 2, 9, 7};
    chart_whisker w = chart_whisker_of(s, 4);
    CHECK_NEAR(w.low, 2, 0);
    CHECK_NEAR(w.high, 9, 0);
    w = chart_whisker_of(s, 1);
    CHECK(w.low == 5 && w.high == 5);
    double many[21];
    for (int i = 0; i < 21; i++)
        many[i] = (i * 8) % 21 + 1; /* 1..21 shuffled */
    w = chart_whisker_median_ci(many, 21); /* P(Bin(21, 1/2) < 6) = 1.3%, < 7: 3.9% */
    CHECK_NEAR(w.low, 6, 0);
    CHECK_NEAR(w.high, 16, 0);
    w = chart_whisker_median_ci(s, 4); /* too few for an interval: the whole range */
    CHECK(w.low == 2 && w.high == 9);
    double six[] = {6, 1, 5, 2, 4, 3}; /* P(Bin(6, 1/2) < 1) = 1.6%: still the extremes */
    w = chart_whisker_median_ci(six, 6);
    CHECK(w.low == 1 && w.high == 6);
    double big[1001];
    for (int i = 0; i < 1001; i++)
        big[i] = 1000 - i;
    w = chart_whisker_median_ci(big, 1001); /* normal approximation: 500 -+ 1.96 * sqrt(1001) / 2 = 469..531 */
    CHECK(w.low >= 467 && w.low <= 471 && w.high >= 529 && w.high <= 533 && w.low + w.high == 1000);
    CHECK(isnan(chart_whisker_median_ci(s, 0).low));
    CHECK_NEAR(chart_shade(5, 0, 10), 0.5, 1e-12);
    CHECK_NEAR(chart_shade(20, 0, 10), 1, 0);
    CHECK_NEAR(chart_shade(3, 3, 3), 0.5, 0);
}

/* A schema-2 document with the given host name, completeness and records
 * (each "MODE|OPERATION|METRIC|SIZE|VALUE|PARAMS"). */
static char *document(const char *hostname, bool complete, const char *const *recs, size_t n)
{
    size_t cap = 8192;
    char *d = malloc(cap);
    int used = snprintf(d, cap,
                        "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":%s,"
                        "\"stopped_by\":%s,\"host\":{\"hostname\":\"%s\",\"cpu_model\":\"C\",\"kernel\":\"K\"},"
                        "\"warnings\":[\"w <i>1</i>\"],\"options\":{},\"topology\":{\"levels_used\":{\"L1\":"
                        "{\"size_bytes\":32768,\"source\":\"measured\"}}},\"results\":[",
                        complete ? "true" : "false", complete ? "null" : "\"signal\"", hostname);
    for (size_t i = 0; i < n; i++) {
        char mode[32], op[32], metric[32], params[256] = "";
        unsigned long long size;
        double value;
        sscanf(recs[i], "%31[^|]|%31[^|]|%31[^|]|%llu|%lf|%255[^\n]", mode, op, metric, &size, &value, params);
        used += snprintf(d + used, cap - (size_t)used,
                         "%s{\"mode\":\"%s\",\"operation\":\"%s\",\"metric\":\"%s\",\"unit\":\"%s\",\"value\":%.17g,"
                         "\"size_bytes\":%llu,\"threads\":2,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0},"
                         "{\"cpu\":1,\"node\":0,\"memory_node\":0}],\"samples\":[%.17g,%.17g],\"params\":{%s}}",
                         i ? "," : "", mode, op, metric, metric[0] == 'b' ? "MB/s" : "ns", value, size, value * 0.9,
                         value, params);
    }
    snprintf(d + used, cap - (size_t)used, "]}");
    return d;
}

static bool load(loaded_run *r, const char *hostname, bool complete, const char *const *recs, size_t n)
{
    char *d = document(hostname, complete, recs, n), err[256];
    bool ok = run_load_text(d, strlen(d), r, err, sizeof err);
    if (!ok)
        printf("    %s\n", err);
    free(d);
    return ok;
}

static char *page(const report_model *m)
{
    return report_written(report_html_write, m);
}

/* The standalone SVG of chart a, followed by b's when b is not NULL. */
static char *svg_of(const line_chart *a, const line_chart *b, const char *const *names)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    svg_line_chart(f, a, names, true);
    if (b)
        svg_line_chart(f, b, names, true);
    fclose(f);
    char *svg = strdup(buf); /* not buf itself: gcc takes pointers into it for pointers to buf */
    free(buf);
    return svg;
}

/* A whole document given as text, loaded; its error printed when it is refused. */
static bool load_text(loaded_run *r, const char *doc)
{
    char err[256];
    bool ok = run_load_text(doc, strlen(doc), r, err, sizeof err);
    if (!ok)
        printf("    %s\n", err);
    return ok;
}

TEST(report_sorts_records_into_charts_one_series_per_run_and_operation)
{
    static const char *const a[] = {"sweep|read|bandwidth|4096|100", "sweep|read|bandwidth|1024|300",
                                    "sweep|copy|bandwidth|4096|50", "sweep|latency|latency|4096|3",
                                    "stream|triad|bandwidth|16000000|900", "peak-bandwidth|R|bandwidth|4194304|700"};
    static const char *const b[] = {"sweep|read|bandwidth|4096|110", "latency-matrix|latency|latency|8388608|120|\"cpu_node\":0,\"mem_node\":1",
                                    "latency-matrix|latency|latency|8388608|90|\"cpu_node\":0,\"mem_node\":0"};
    loaded_run runs[2];
    CHECK(load(&runs[0], "a", true, a, 6));
    CHECK(load(&runs[1], "b", false, b, 3));
    const char *names[] = {"a.json", "b.json"};
    report_model m;
    CHECK(report_model_build(&m, runs, names, 2));
    const line_chart *bw = &m.lines[LINE_BANDWIDTH];
    CHECK_INT(bw->nseries, 3); /* a read, a copy, b read */
    CHECK_INT(bw->noperations, 2);
    CHECK_STR(bw->series[0].operation, "read");
    CHECK_INT(bw->series[0].count, 2);
    CHECK_NEAR(bw->series[0].points[0].x, 1024, 0); /* ascending size */
    CHECK_NEAR(bw->series[0].points[0].y, 285, 1e-9); /* the median of 270 and 300 */
    CHECK_NEAR(bw->series[0].points[0].best, 300, 0); /* the reported best, marked apart */
    CHECK_NEAR(bw->series[0].points[0].low, 270, 1e-9);
    CHECK_NEAR(m.lines[LINE_LATENCY].series[0].points[0].low, 2.7, 1e-9); /* two samples: the whole range */
    CHECK_INT(bw->series[2].run, 1);
    CHECK_INT(bw->series[2].color, bw->series[0].color); /* read is one colour in every run */
    CHECK(bw->series[1].color != bw->series[0].color);
    CHECK_INT(bw->nmarkers, 1);
    CHECK_STR(bw->markers[0].label, "L1 32 KiB (measured)"); /* the size's source, as the run says */
    CHECK_INT(m.lines[LINE_LATENCY].nseries, 1);
    CHECK_INT(m.lines[LINE_LOADED].nseries, 0);
    CHECK_INT(m.nstream, 1);
    CHECK_INT(m.nothers, 1);
    CHECK_INT(m.nheats, 1);
    CHECK_INT(m.heats[0].rows, 1);
    CHECK_INT(m.heats[0].cols, 2);
    CHECK_STR(m.heats[0].col_labels[0], "node 0"); /* in order, though measured second */
    CHECK_NEAR(m.heats[0].values[0], 90, 0);
    CHECK_NEAR(m.heats[0].values[1], 120, 0);
    char *html = page(&m);
    CHECK_CONTAINS(html, "data-series=\"read\" data-run=\"b.json\"");
    CHECK_CONTAINS(html, "data-size=\"1024\" data-x=\"1024\" data-value=\"285\"");
    CHECK_CONTAINS(html, "class=\"best\"");
    CHECK_CONTAINS(html, "class=\"banner incomplete\" data-run=\"b.json\"");
    CHECK(!strstr(html, "class=\"banner incomplete\" data-run=\"a.json\""));
    CHECK_CONTAINS(html, "class=\"axis-label\" data-axis=\"x\"");
    CHECK_CONTAINS(html, "class=\"legend-run\" data-run=\"a.json\"");
    /* the one script: the fleet table's sort (tests/unit/test_report_fleet.c) */
    CHECK(strstr(html, "<script>(function(){var t=document.getElementById('fleet')") == strstr(html, "<script"));
    free(html);
    report_model_free(&m);
    run_free(&runs[0]);
    run_free(&runs[1]);
}

TEST(report_escapes_text_from_documents)
{
    static const char *const r[] = {"sweep|re\\\"ad<b>|bandwidth|4096|100"};
    loaded_run run;
    CHECK(load(&run, "<script>alert('x')</script>&", false, r, 1));
    const char *names[] = {"<img src=x>.json"};
    report_model m;
    CHECK(report_model_build(&m, &run, names, 1));
    char *html = page(&m);
    CHECK(!strstr(html, "<script"));
    CHECK(!strstr(html, "<img"));
    CHECK(!strstr(html, "ad<b>"));
    CHECK(!strstr(html, "<i>1"));
    CHECK_CONTAINS(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;");
    CHECK_CONTAINS(html, "data-series=\"re&quot;ad&lt;b&gt;\"");
    CHECK_CONTAINS(html, "w &lt;i&gt;1&lt;/i&gt;");
    CHECK_CONTAINS(html, "data-run=\"&lt;img src=x&gt;.json\"");
    free(html);
    char *svg = svg_of(&m.lines[LINE_BANDWIDTH], NULL, names);
    CHECK(strncmp(svg, "<?xml", 5) == 0);
    CHECK_CONTAINS(svg, "xmlns=\"http://www.w3.org/2000/svg\"");
    CHECK(!strstr(svg, "<img"));
    free(svg);
    report_model_free(&m);
    run_free(&run);
}

/* A latency point whose samples fell in two levels is drawn hollow, both levels in
 * its tooltip; a point of one level is drawn as ever. */
TEST(report_draws_a_point_in_two_levels_hollow)
{
    static const char doc[] =
        "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
        "\"host\":{\"hostname\":\"h\",\"cpu_model\":\"C\",\"kernel\":\"K\"},\"warnings\":[],\"options\":{},"
        "\"results\":[{\"mode\":\"sweep\",\"operation\":\"latency\",\"metric\":\"latency\",\"unit\":\"ns\","
        "\"value\":16.2,\"size_bytes\":4194304,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,"
        "\"memory_node\":0}],\"samples\":[16,130,16.1,16.2,131]},"
        "{\"mode\":\"sweep\",\"operation\":\"latency\",\"metric\":\"latency\",\"unit\":\"ns\",\"value\":150,"
        "\"size_bytes\":67108864,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],"
        "\"samples\":[150,160,140,155,170]}]}";
    loaded_run run;
    CHECK(load_text(&run, doc));
    const char *names[] = {"a.json"};
    report_model m;
    CHECK(report_model_build(&m, &run, names, 1));
    const line_chart *lat = &m.lines[LINE_LATENCY];
    CHECK(lat->nseries == 1 && lat->series[0].count == 2);
    if (lat->nseries == 1 && lat->series[0].count == 2) {
        const chart_point *two = &lat->series[0].points[0], *one = &lat->series[0].points[1];
        CHECK_INT(two->low_level_n, 3);
        CHECK_INT(two->high_level_n, 2);
        CHECK_NEAR(two->low_level_median, 16.1, 1e-12);
        CHECK_NEAR(two->high_level_median, 130.5, 1e-12);
        CHECK_INT(one->low_level_n, 0);
    }
    char *svg = svg_of(lat, NULL, names);
    CHECK_CONTAINS(svg, "class=\"point two-levels\"");
    CHECK_CONTAINS(svg, "; its samples fell in two levels, 3 near 16.1 and 2 near 130.5</title>");
    const char *first = strstr(svg, "two-levels");
    CHECK(first && !strstr(first + 1, "two-levels")); /* the 64 MiB point, one level, is not */
    free(svg);
    report_model_free(&m);
    run_free(&run);
}

/* A point's tooltip names what its whisker is: the samples' range for a best sample,
 * the host interval (else the median interval) for a median. */
TEST(report_tooltip_names_each_whisker)
{
    static const char doc[] =
        "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
        "\"host\":{\"hostname\":\"h\",\"cpu_model\":\"C\",\"kernel\":\"K\"},\"warnings\":[],\"options\":{},"
        "\"results\":[{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\","
        "\"value\":30,\"size_bytes\":65536,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,"
        "\"memory_node\":0}],\"samples\":[10,30,20],\"summary\":{\"median_interval\":{\"low\":11,\"high\":29}}},"
        "{\"mode\":\"sweep\",\"operation\":\"latency\",\"metric\":\"latency\",\"unit\":\"ns\",\"value\":150,"
        "\"size_bytes\":67108864,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],"
        "\"samples\":[150,160,140],\"summary\":{\"median_interval\":{\"low\":145,\"high\":155},"
        "\"host_interval\":{\"low\":120,\"high\":180}}},"
        "{\"mode\":\"sweep\",\"operation\":\"latency\",\"metric\":\"latency\",\"unit\":\"ns\",\"value\":5,"
        "\"size_bytes\":65536,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],"
        "\"samples\":[5,4,6],\"summary\":{\"median_interval\":{\"low\":4.5,\"high\":5.5},\"host_interval\":null}}]}";
    loaded_run run;
    CHECK(load_text(&run, doc));
    const char *names[] = {"a.json"};
    report_model m;
    CHECK(report_model_build(&m, &run, names, 1));
    char *svg = svg_of(&m.lines[LINE_BANDWIDTH], &m.lines[LINE_LATENCY], names);
    CHECK_CONTAINS(svg, "20 MB/s (median interval 11 to 29); best sample 30</title>");
    CHECK_CONTAINS(svg, "150 ns (host interval 120 to 180)</title>");
    CHECK_CONTAINS(svg, "5 ns (median interval 4.5 to 5.5)</title>");
    CHECK(!strstr(svg, "(samples"));
    free(svg);
    report_model_free(&m);
    run_free(&run);
}

/* A sweep whose records reach past the L3's per-thread share, a latency record
 * inside it, no STREAM: the headline gives the DRAM bandwidths (the largest size)
 * and says the rest is missing, with why. */
static const char headline_doc[] =
    "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
    "\"host\":{\"hostname\":\"h\",\"cpu_model\":\"C\",\"kernel\":\"K\"},"
    "\"warnings\":[\"latency 40 KiB: its 15 samples fell in two levels\",\"latency 1 MiB: its 9 samples fell in two levels\","
    "\"the host varied \u00b16% during this run\",\"odd <thing>\"],\"options\":{},"
    "\"plan\":{\"L3_share_bytes\":4194304},"
    "\"host_noise\":{\"varied_pct\":6,\"meaningful_difference_pct\":12,\"flagged\":true,\"probes\":25},"
    "\"topology\":{\"thp_mode\":\"<script>&amp\",\"cpus_usable\":\"0-1<b>\",\"numa_nodes\":[{\"id\":0,\"cpus\":\"0&1\","
    "\"memory_bytes\":1048576}],\"levels_used\":{\"L1\":{\"size_bytes\":32768,\"source\":\"sysfs\"},"
    "\"L3\":{\"size_bytes\":8388608,\"source\":\"cpuid_leaf4\"}}},\"results\":["
    "{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"value\":300000,"
    "\"size_bytes\":65536,\"threads\":2,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],\"samples\":[300000,200000,250000]},"
    "{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"value\":27000,"
    "\"size_bytes\":1073741824,\"threads\":2,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],\"samples\":[27000,20000,25000]},"
    "{\"mode\":\"sweep\",\"operation\":\"write\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"value\":15000,"
    "\"size_bytes\":2097152,\"threads\":2,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],\"samples\":[15000,14000]},"
    "{\"mode\":\"sweep\",\"operation\":\"latency\",\"metric\":\"latency\",\"unit\":\"ns\",\"value\":9,"
    "\"size_bytes\":1048576,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],\"samples\":[9,9.5,8.5]}]}";

/* A host that varied by more than 100% reads in plain digits, never "1.1e+02%". */
TEST(report_headline_noise_above_100_percent_has_no_exponent)
{
    char doc[sizeof headline_doc + 16];
    const char *from = strstr(headline_doc, "\"varied_pct\":6,\"meaningful_difference_pct\":12");
    CHECK(from != NULL);
    if (!from)
        return;
    snprintf(doc, sizeof doc, "%.*s\"varied_pct\":151.3,\"meaningful_difference_pct\":302.6%s", (int)(from - headline_doc),
             headline_doc, from + strlen("\"varied_pct\":6,\"meaningful_difference_pct\":12"));
    loaded_run run;
    CHECK(load_text(&run, doc));
    run_headline h;
    report_headline_of(&run, &h);
    CHECK_CONTAINS(h.noise, "noisy: the host varied \u00b1151%; differences below 303% are not meaningful");
    CHECK(strstr(h.noise, "e+") == NULL);
    run_free(&run);
}

TEST(report_headline_gives_what_the_run_has_and_says_what_is_missing)
{
    loaded_run run;
    CHECK(load_text(&run, headline_doc));
    run_headline h;
    report_headline_of(&run, &h);
    CHECK(h.fig[HEAD_READ].rec && h.fig[HEAD_READ].rec->value == 27000); /* the largest size, past 4 MiB */
    CHECK(!h.fig[HEAD_WRITE].rec); /* 2 MiB fits the L3's share */
    CHECK_STR(h.fig[HEAD_WRITE].why, "not measured: the largest buffer, 2 MiB, fits the L3");
    CHECK(!h.fig[HEAD_COPY].rec);
    CHECK_STR(h.fig[HEAD_COPY].why, "not measured");
    CHECK(!h.fig[HEAD_LATENCY].rec);
    CHECK(!h.fig[HEAD_TRIAD].rec);
    CHECK_STR(h.llc, "L3 8 MiB (CPUID leaf 4)");
    CHECK_INT(h.noisy, 1);
    CHECK_CONTAINS(h.noise, "noisy");
    const char *names[] = {"a.json"};
    report_model m;
    CHECK(report_model_build(&m, &run, names, 1));
    char *html = page(&m);
    CHECK_CONTAINS(html, "data-figure=\"dram-read\" data-value=\"27000\" data-size=\"1073741824\"><span class=\"big\">27 GB/s");
    CHECK_CONTAINS(html, "class=\"figure missing\" data-figure=\"dram-write\"");
    CHECK(!strstr(html, "stream-triad")); /* a sweep: no STREAM line at all */
    /* the headline comes first, the run table after the charts */
    CHECK(strstr(html, "class=\"headline\"") && strstr(html, "class=\"runs\"") &&
          strstr(html, "class=\"headline\"") < strstr(html, "data-chart=\"bandwidth\"") &&
          strstr(html, "data-chart=\"bandwidth\"") < strstr(html, "class=\"runs\""));
    /* warnings by kind, collapsed, with a count */
    CHECK_CONTAINS(html, "<details class=\"warning-kind\" data-count=\"2\"><summary>2 points whose samples fell in two "
                         "levels</summary>");
    CHECK_CONTAINS(html, "<summary>1 other warning</summary>");
    /* the methods once, with the docs */
    const char *methods = strstr(html, "How to read the charts");
    CHECK(methods && !strstr(methods + 1, "How to read the charts"));
    CHECK_CONTAINS(html, "href=\"file:///usr/share/doc/membench/docs/report.md\"");
    /* the topology's text from the document is escaped, every field of it */
    CHECK(!strstr(html, "<script") && !strstr(html, "0-1<b>") && !strstr(html, "0&1"));
    CHECK_CONTAINS(html, "THP &lt;script&gt;&amp;amp");
    CHECK_CONTAINS(html, "(0-1&lt;b&gt;)");
    CHECK_CONTAINS(html, "CPUs 0&amp;1");
    free(html);
    report_model_free(&m);
    run_free(&run);
}

/* Each point, its best-sample dash and its whisker are drawn through the y axis
 * (GB/s from MB/s), not the x axis: the pixels read back against svg_line_axes. */
TEST(report_draws_y_through_the_y_axis)
{
    loaded_run run;
    CHECK(load_text(&run, headline_doc));
    const char *names[] = {"a.json"};
    report_model m;
    CHECK(report_model_build(&m, &run, names, 1));
    const line_chart *bw = &m.lines[LINE_BANDWIDTH];
    chart_axis x, y;
    svg_line_axes(bw, &x, &y);
    CHECK_NEAR(y.hi, 300, 0); /* GB/s */
    char *svg = svg_of(bw, NULL, names);
    size_t seen = 0;
    for (const char *c = strstr(svg, "<circle class=\"point"); c; c = strstr(c + 1, "<circle class=\"point")) {
        double cy = -1, value = -1;
        const char *a = strstr(c, " cy=\""), *v = strstr(c, " data-value=\"");
        if (a && v) {
            cy = strtod(a + 5, NULL);
            value = strtod(v + 13, NULL);
        }
        CHECK_NEAR(cy, chart_axis_px(&y, value / 1000), 0.051);
        seen++;
    }
    CHECK_INT(seen, 3);
    const char *best = strstr(svg, "class=\"best\"");
    CHECK(best != NULL);
    if (best) {
        const char *y1 = strstr(best, " y1=\""), *v = strstr(best, " data-best=\"");
        CHECK(y1 && v && fabs(strtod(y1 + 5, NULL) - chart_axis_px(&y, strtod(v + 12, NULL) / 1000)) < 0.051);
    }
    free(svg);
    report_model_free(&m);
    run_free(&run);
}

/* STREAM with both kinds of stores: a bar per kernel and kind, the best record of
 * each, drawn from 0 in GB/s; with one kind only, no chart (the table says it all). */
TEST(report_stream_chart_sets_regular_beside_non_temporal)
{
    static const char *const recs[] = {"stream|triad|bandwidth|16000000|47000", "stream|copy|bandwidth|16000000|46000",
                                       "stream|triad|bandwidth|16000000|37000", "stream|triad|bandwidth|16000000|36000"};
    static const char *const stores[] = {"regular", "regular", "non-temporal", "non-temporal"};
    char *d = document("h", true, recs, 4), err[256];
    /* each record's kernel.stores: spliced in after its "params" */
    char *doc = malloc(strlen(d) + 400), *o = doc;
    const char *p = d;
    for (int i = 0; i < 4; i++) {
        const char *at = strstr(p, "\"params\":{}");
        memcpy(o, p, (size_t)(at - p));
        o += at - p;
        o += sprintf(o, "\"kernel\":{\"stores\":\"%s\"},\"params\":{}", stores[i]);
        p = at + strlen("\"params\":{}");
    }
    strcpy(o, p);
    loaded_run run;
    CHECK(run_load_text(doc, strlen(doc), &run, err, sizeof err));
    free(d);
    free(doc);
    const char *names[] = {"s.json"};
    report_model m;
    CHECK(report_model_build(&m, &run, names, 1));
    CHECK_INT(m.nstream_charts, 1);
    if (m.nstream_charts == 1) {
        const stream_chart *c = &m.stream_charts[0];
        CHECK(c->bars[3][0] && c->bars[3][0]->value == 47000);
        CHECK(c->bars[3][1] && c->bars[3][1]->value == 37000); /* the better of the two */
        CHECK(c->bars[0][0] && !c->bars[0][1] && !c->bars[1][0] && !c->bars[2][1]);
    }
    char *html = page(&m);
    CHECK_CONTAINS(html, "data-operation=\"triad\" data-stores=\"non-temporal\" data-value=\"37000\"");
    CHECK_CONTAINS(html, "data-operation=\"triad\" data-stores=\"regular\" data-value=\"47000\"");
    CHECK(!strstr(html, "No peak") && !strstr(html, "% of peak")); /* no run states a peak */
    free(html);
    report_model_free(&m);
    run_free(&run);
}

/* A run of the same read at half the bandwidth of the baseline: B/A 0.5, "slower"
 * (compare's own verdict), in the table and on the ratio chart. */
TEST(report_baseline_draws_each_run_as_a_ratio_with_compare_verdicts)
{
    static const char head[] =
        "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
        "\"host\":{\"hostname\":\"h\",\"cpu_model\":\"C\",\"kernel\":\"K\"},\"warnings\":[],\"options\":{},"
        "\"results\":[{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\","
        "\"size_bytes\":1048576,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],";
    char a[2048], b[2048];
    snprintf(a, sizeof a, "%s\"value\":1010,\"samples\":[1000,1010,990,1005,995,1000,1002,998]}]}", head);
    snprintf(b, sizeof b, "%s\"value\":505,\"samples\":[500,505,495,502,498,500,501,499]}]}", head);
    loaded_run runs[2];
    CHECK(load_text(&runs[0], a));
    CHECK(load_text(&runs[1], b));
    const char *names[] = {"a.json", "b.json"};
    report_model m;
    CHECK(report_model_build(&m, runs, names, 2));
    CHECK(report_model_add_baseline(&m));
    const line_chart *r = &m.lines[LINE_RATIO];
    CHECK_INT(r->nseries, 1);
    if (r->nseries == 1 && r->series[0].count == 1) {
        CHECK_NEAR(r->series[0].points[0].y, 0.5, 0.01);
        CHECK_STR(r->series[0].points[0].verdict, compare_verdict_text(VERDICT_SLOWER));
        CHECK(r->series[0].points[0].low <= 0.5 && r->series[0].points[0].high >= 0.5);
    }
    char *html = page(&m);
    CHECK_CONTAINS(html, "<h3>b.json: 0 faster, 1 slower,");
    CHECK_CONTAINS(html, "data-operation=\"read\" data-size=\"1048576\" data-verdict=\"slower\"");
    CHECK_CONTAINS(html, "data-chart=\"ratio\"");
    free(html);
    report_model_free(&m);
    run_free(&runs[0]);
    run_free(&runs[1]);
}
