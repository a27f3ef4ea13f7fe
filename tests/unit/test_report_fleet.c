/* SPDX-License-Identifier: MIT */
/* membench report's fleet table (core/report_fleet.c): each headline figure in
 * its own column, DRAM read per thread over the read record's threads, a missing
 * figure an empty cell with why (never 0), the page's text escaped and the CSV's
 * neutralised against spreadsheet formulas (output/report_fleet_html.c,
 * output/report_csv.c). */
#include <math.h>
#include <stdlib.h>

#include "core/report_fleet.h"
#include "core/report_model.h"
#include "output/report_csv.h"
#include "output/report_html.h"
#include "report_page.h"
#include "test.h"

/* A sweep on a 16-vCPU, 2-node host: DRAM read and write at 1 GiB (past the L3's
 * 4 MiB per-thread share) by 4 threads, no copy, latency by 1 thread, a quiet
 * verdict. HOST and CPU are put in as given (JSON-escaped by the caller). */
static char *fleet_doc(const char *host, const char *cpu)
{
    static const char fmt[] =
        "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
        "\"host\":{\"hostname\":\"%s\",\"cpu_model\":\"%s\",\"kernel\":\"K\"},\"warnings\":[],\"options\":{},"
        "\"plan\":{\"L3_share_bytes\":4194304},"
        "\"host_noise\":{\"varied_pct\":1.5,\"meaningful_difference_pct\":3,\"flagged\":false,\"probes\":25},"
        "\"topology\":{\"cpus_online\":16,\"numa_nodes\":[{\"id\":0,\"cpus\":\"0-7\",\"memory_bytes\":1048576},"
        "{\"id\":1,\"cpus\":\"8-15\",\"memory_bytes\":1048576}],"
        "\"levels_used\":{\"L3\":{\"size_bytes\":8388608,\"source\":\"cpuid_leaf4\"}}},\"results\":["
        "{\"mode\":\"sweep\",\"operation\":\"read\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"value\":27000,"
        "\"size_bytes\":1073741824,\"threads\":4,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],"
        "\"samples\":[27000,26000]},"
        "{\"mode\":\"sweep\",\"operation\":\"write\",\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"value\":15000,"
        "\"size_bytes\":1073741824,\"threads\":4,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],"
        "\"samples\":[15000,14000]},"
        "{\"mode\":\"sweep\",\"operation\":\"latency\",\"metric\":\"latency\",\"unit\":\"ns\",\"value\":90,"
        "\"size_bytes\":1073741824,\"threads\":1,\"placement\":[{\"cpu\":0,\"node\":0,\"memory_node\":0}],"
        "\"samples\":[90,91]}]}";
    size_t len = sizeof fmt + strlen(host) + strlen(cpu);
    char *d = malloc(len);
    snprintf(d, len, fmt, host, cpu);
    return d;
}

static bool load_fleet(loaded_run *r, const char *host, const char *cpu)
{
    char *d = fleet_doc(host, cpu), err[256];
    bool ok = run_load_text(d, strlen(d), r, err, sizeof err);
    if (!ok)
        printf("    %s\n", err);
    free(d);
    return ok;
}

/* A model of two of those runs, the second's host and CPU given. */
static bool two_runs(report_model *m, loaded_run *runs, const char *host, const char *cpu, const char *const *names)
{
    return load_fleet(&runs[0], "h", "C") && load_fleet(&runs[1], host, cpu) && report_model_build(m, runs, names, 2);
}

TEST(report_fleet_row_gives_each_figure_its_column)
{
    loaded_run run;
    CHECK(load_fleet(&run, "h", "C"));
    fleet_row row;
    report_fleet_row_of(&run, "a.json", &row);
    char buf[32];
    fleet_cell c = report_fleet_cell(&row, FLEET_READ, buf, sizeof buf);
    CHECK(!c.missing && c.value == 27000);
    c = report_fleet_cell(&row, FLEET_WRITE, buf, sizeof buf);
    CHECK(!c.missing && c.value == 15000);
    c = report_fleet_cell(&row, FLEET_COPY, buf, sizeof buf);
    CHECK(c.missing && c.value == 0);
    CHECK_STR(c.why, "not measured");
    c = report_fleet_cell(&row, FLEET_LATENCY, buf, sizeof buf);
    CHECK(!c.missing && c.value == 90);
    c = report_fleet_cell(&row, FLEET_TRIAD, buf, sizeof buf);
    CHECK(c.missing);
    /* per thread: the DRAM read figure over the 4 threads of its record (not the
     * 16 vCPUs, not the latency's 1 thread) */
    c = report_fleet_cell(&row, FLEET_PER_THREAD, buf, sizeof buf);
    CHECK(!c.missing);
    CHECK_NEAR(c.value, 6750, 1e-9);
    CHECK_NEAR(report_fleet_cell(&row, FLEET_THREADS, buf, sizeof buf).value, 4, 0);
    CHECK_NEAR(report_fleet_cell(&row, FLEET_VCPUS, buf, sizeof buf).value, 16, 0);
    CHECK_NEAR(report_fleet_cell(&row, FLEET_NODES, buf, sizeof buf).value, 2, 0);
    c = report_fleet_cell(&row, FLEET_LLC_BYTES, buf, sizeof buf);
    CHECK_NEAR(c.value, 8388608, 0);
    CHECK_STR(c.text, "8 MiB");
    CHECK_STR(report_fleet_cell(&row, FLEET_LLC_SOURCE, buf, sizeof buf).text, "CPUID leaf 4");
    CHECK_STR(report_fleet_cell(&row, FLEET_NOISE, buf, sizeof buf).text, "quiet");
    CHECK_NEAR(report_fleet_cell(&row, FLEET_VARIED, buf, sizeof buf).value, 1.5, 0);
    CHECK_STR(report_fleet_cell(&row, FLEET_HOST, buf, sizeof buf).text, "h");
    run_free(&run);
}

/* The page's table: each figure in its own column with its value, a missing one
 * empty with why, hostile text escaped; one script, the table's sort. */
TEST(report_fleet_table_in_the_page)
{
    loaded_run runs[2];
    const char *names[] = {"a.json", "b<i>.json"};
    report_model m;
    CHECK(two_runs(&m, runs, "<script>alert(1)</script>", "\\\"><img src=x onerror=alert(2)>", names));
    char *html = report_written(report_html_write, &m);
    CHECK_CONTAINS(html, "<tr class=\"fleet-run\" data-run=\"a.json\"><td class=\"text\" data-col=\"run\">a.json</td>");
    CHECK_CONTAINS(html, "<td class=\"num\" data-col=\"dram-read\" data-value=\"27000\" title=\"best of 2 samples at "
                         "1 GiB\">27.00</td><td class=\"num\" data-col=\"dram-write\" data-value=\"15000\"");
    CHECK_CONTAINS(html, "<td class=\"num missing\" data-col=\"dram-copy\" title=\"not measured\"></td>");
    CHECK_CONTAINS(html, "data-col=\"read-per-thread\" data-value=\"6750\"");
    CHECK_CONTAINS(html, "<th data-col=\"dram-read\" data-type=\"number\">DRAM read GB/s</th>");
    CHECK_CONTAINS(html, "<td class=\"text\" data-col=\"host\">&lt;script&gt;alert(1)&lt;/script&gt;</td>");
    CHECK_CONTAINS(html, "data-run=\"b&lt;i&gt;.json\"");
    CHECK(!strstr(html, "<img") && !strstr(html, "b<i>"));
    /* the one script is the sort, inline */
    const char *script = strstr(html, "<script");
    CHECK(script && strncmp(script, "<script>(function(){var t=document.getElementById('fleet')", 58) == 0 &&
          !strstr(script + 1, "<script"));
    /* a few runs keep their charts and headline blocks */
    CHECK_CONTAINS(html, "data-chart=\"bandwidth\"");
    CHECK_CONTAINS(html, "class=\"headline\"");
    CHECK(!strstr(html, "class=\"fleet-note\""));
    free(html);
    report_model_free(&m);
    /* one run: its headline, no table, no script */
    CHECK(report_model_build(&m, runs, names, 1));
    html = report_written(report_html_write, &m);
    CHECK(!strstr(html, "class=\"fleet\"") && !strstr(html, "<script"));
    free(html);
    report_model_free(&m);
    run_free(&runs[0]);
    run_free(&runs[1]);
}

/* Past REPORT_CHART_RUNS runs the page is the table: no charts, and it says so. */
TEST(report_fleet_of_many_runs_leaves_the_charts_out)
{
    enum { N = REPORT_CHART_RUNS + 1 };
    loaded_run runs[N];
    const char *names[N];
    char name[N][32]; /* room for any int: -O1 builds check the format */
    for (int i = 0; i < N; i++) {
        CHECK(load_fleet(&runs[i], "h", "C"));
        snprintf(name[i], sizeof name[i], "r%d.json", i);
        names[i] = name[i];
    }
    report_model m;
    CHECK(report_model_build(&m, runs, names, N));
    CHECK_INT(m.lines[LINE_BANDWIDTH].nseries, 0);
    char *html = report_written(report_html_write, &m);
    size_t rows = 0;
    for (const char *p = html; (p = strstr(p, "<tr class=\"fleet-run\"")); p++)
        rows++;
    CHECK_INT(rows, N);
    CHECK_CONTAINS(html, "class=\"fleet-note\">9 runs, more than 8:");
    CHECK(strstr(html, "class=\"fleet-note\">") < strstr(html, "<table class=\"fleet\"")); /* said first */
    CHECK(!strstr(html, "data-chart=") && !strstr(html, "class=\"headline\"") && !strstr(html, "class=\"runs\""));
    CHECK_CONTAINS(html, "<title>membench report: 9 runs</title>");
    free(html);
    report_model_free(&m);
    m = (report_model){0};
    CHECK(report_model_build(&m, runs, names, REPORT_CHART_RUNS));
    CHECK(m.lines[LINE_BANDWIDTH].nseries > 0);
    report_model_free(&m);
    for (int i = 0; i < N; i++)
        run_free(&runs[i]);
}

/* The CSV: the columns with units in their names, numbers plain, missing ones
 * empty, text quoted and never a formula. */
TEST(report_fleet_csv_is_plain_quoted_and_never_a_formula)
{
    loaded_run runs[2];
    const char *names[] = {"a.json", "-b.json"};
    report_model m;
    CHECK(two_runs(&m, runs, "=HYPERLINK(\\\"http://x\\\")", "@SUM(1), \\\"big\\\"\\nsecond line", names));
    char *csv = report_written(report_csv_write, &m);
    CHECK_STR(csv,
              "run,hostname,cpu_model,vcpus,numa_nodes,mode,dram_read_gb_s,dram_write_gb_s,dram_copy_gb_s,"
              "idle_latency_ns,random_latency_ns,llc_level,llc_bytes,llc_source,stream_triad_gb_s,dram_read_per_thread_gb_s,"
              "dram_read_threads,noise,host_varied_pct\n"
              "\"a.json\",\"h\",\"C\",16,2,\"sweep\",27.0000,15.0000,,90.000,,\"L3\",8388608,\"CPUID leaf 4\",,6.7500,4,"
              "\"quiet\",1.500\n"
              "\"'-b.json\",\"'=HYPERLINK(\"\"http://x\"\")\",\"'@SUM(1), \"\"big\"\" second line\",16,2,\"sweep\","
              "27.0000,15.0000,,90.000,,\"L3\",8388608,\"CPUID leaf 4\",,6.7500,4,\"quiet\",1.500\n");
    free(csv);
    report_model_free(&m);
    run_free(&runs[0]);
    run_free(&runs[1]);
}
