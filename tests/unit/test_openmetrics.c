/* SPDX-License-Identifier: MIT */
/* The OpenMetrics text: label values escaped so that any command line leaves the
 * file readable, numbers that read back exactly, one series per record in base
 * units, no two series alike, families whole, and "# EOF" last. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/run_info.h"
#include "output/openmetrics.h"
#include "output/openmetrics_sink.h"
#include "test.h"

#define CAPTURE(text, call)                                                                                           \
    do {                                                                                                              \
        size_t _len;                                                                                                  \
        FILE *f = open_memstream(&(text), &_len);                                                                     \
        call;                                                                                                         \
        fclose(f);                                                                                                    \
    } while (0)

static char *label_value(const char *s)
{
    char *text = NULL;
    CAPTURE(text, om_write_label_value(f, s));
    return text;
}

TEST(openmetrics_label_values_escape_backslash_quote_and_newline)
{
    char *t = label_value("a\"b\\c\nd");
    CHECK_STR(t, "a\\\"b\\\\c\\nd");
    free(t);
    t = label_value("\\n"); /* a backslash then n: two characters, not a newline */
    CHECK_STR(t, "\\\\n");
    free(t);
    t = label_value("caf\xc3\xa9 \xe2\x82\xac"); /* UTF-8 stays as it is */
    CHECK_STR(t, "caf\xc3\xa9 \xe2\x82\xac");
    free(t);
    /* not UTF-8 (a Latin-1 path), a lone continuation byte, a tab, DEL: U+FFFD each */
    t = label_value("x\xe9y\x80z\t\x7f");
    CHECK_STR(t, "x\xef\xbf\xbdy\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd");
    free(t);
    t = label_value("\xe2\x82"); /* a sequence cut short by the end of the string */
    CHECK_STR(t, "\xef\xbf\xbd\xef\xbf\xbd");
    free(t);
}

TEST(openmetrics_labels_leave_out_empty_values_and_samples_read_back)
{
    om_label l[] = {{"a", "1"}, {"b", NULL}, {"c", ""}, {"d", "x\"y"}};
    char *t = NULL;
    CAPTURE(t, om_write_labels(f, l, 4));
    CHECK_STR(t, "a=\"1\",d=\"x\\\"y\"");
    free(t);
    char *plus = om_labels_plus("a=\"1\"", "quantile", "0.5");
    CHECK_STR(plus, "a=\"1\",quantile=\"0.5\"");
    free(plus);
    plus = om_labels_plus("", "repeat", "2");
    CHECK_STR(plus, "repeat=\"2\"");
    free(plus);
    CAPTURE(t, om_sample(f, "m_seconds", "", 1.5e-9));
    CHECK_STR(t, "m_seconds 1.5e-09\n");
    free(t);
    CAPTURE(t, om_sample(f, "m", NULL, NAN); om_sample(f, "m", "a=\"1\"", INFINITY); om_sample(f, "m", "", -INFINITY));
    CHECK_STR(t, "m NaN\nm{a=\"1\"} +Inf\nm -Inf\n");
    free(t);
    double values[] = {0.1 * 1e6, 123456.789e6, 1.0 / 3 * 1e-9, 5e-324, 1.7976931348623157e308, 0};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        CAPTURE(t, om_write_number(f, values[i]));
        CHECK(strtod(t, NULL) == values[i]);
        free(t);
    }
    CAPTURE(t, om_family(f, "m_seconds", "gauge", "seconds", "help"));
    CHECK_STR(t, "# TYPE m_seconds gauge\n# UNIT m_seconds seconds\n# HELP m_seconds help\n");
    free(t);
}

static result_record bw(const char *op, uint64_t bytes, int threads, const double *samples, int n)
{
    result_record r;
    result_init(&r, "sweep", op, METRIC_BANDWIDTH);
    result_set_samples(&r, samples, n);
    r.size_bytes = bytes;
    r.threads = threads;
    r.kernel_isa = "avx2";
    r.kernel_store = "loads";
    result_thread th[2] = {{2, 0, 0}, {3, 1, 0}};
    result_set_placement(&r, th, threads);
    return r;
}

/* A run of three records: 64 KiB read on two threads, the same figure again
 * (equal labels), and a latency record of a matrix cell. */
static char *render_run(bool complete, char **argv, int argc)
{
    run_info info;
    memset(&info, 0, sizeof info);
    info.mode = "sweep";
    info.argc = argc;
    info.argv = argv;
    snprintf(info.hostname, sizeof info.hostname, "box");
    snprintf(info.cpu_model, sizeof info.cpu_model, "CPU \"X\"");
    snprintf(info.os_kernel, sizeof info.os_kernel, "Linux 6");
    info.arch = "x86_64";
    info.complete = complete;
    info.elapsed_s = 2.5;
    result_list list = {0};
    info.results = &list;
    double s1[] = {1000, 3000, 2000}, s2[] = {10, 20};
    result_record r = bw("read", 65536, 2, s1, 3);
    result_list_add(&list, &r);
    r = bw("read", 65536, 2, s2, 2);
    result_list_add(&list, &r);
    result_init(&r, "latency-matrix", "latency", METRIC_LATENCY);
    double ns[] = {100, 80, 90};
    result_set_samples(&r, ns, 3);
    r.size_bytes = 1 << 20;
    r.threads = 1;
    result_set_placement(&r, &(result_thread){5, 0, 0}, 1);
    params_int(&r.params, "cpu_node", 1);
    params_int(&r.params, "mem_node", 3);
    result_list_add(&list, &r);
    char *text = NULL;
    CAPTURE(text, openmetrics_write_run(f, &info));
    result_list_free(&list);
    return text;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

TEST(openmetrics_run_has_one_series_per_record_in_base_units)
{
    char *argv[] = {"membench", "--openmetrics", "a\"b\\c\nd.prom"};
    char *t = render_run(true, argv, 3);
    const char *labels = "mode=\"sweep\",operation=\"read\",size_bytes=\"65536\",threads=\"2\",isa=\"avx2\","
                         "stores=\"loads\",cpus=\"2-3\",node=\"0-1\",memory_node=\"0\"";
    char want[1024];
    /* the headline is the best sample, MB/s x 10^6 */
    snprintf(want, sizeof want, "\nmembench_bandwidth_bytes_per_second{%s} 3000000000\n", labels);
    CHECK_CONTAINS(t, want);
    /* the same labels again: told apart, never written twice */
    snprintf(want, sizeof want, "\nmembench_bandwidth_bytes_per_second{%s,repeat=\"2\"} 20000000\n", labels);
    CHECK_CONTAINS(t, want);
    snprintf(want, sizeof want, "\nmembench_bandwidth_samples_bytes_per_second{%s,quantile=\"0\"} 1000000000\n",
             labels);
    CHECK_CONTAINS(t, want);
    snprintf(want, sizeof want, "\nmembench_bandwidth_samples_bytes_per_second{%s,quantile=\"0.5\"} 2000000000\n",
             labels);
    CHECK_CONTAINS(t, want);
    snprintf(want, sizeof want, "\nmembench_bandwidth_samples_bytes_per_second_sum{%s} 6000000000\n", labels);
    CHECK_CONTAINS(t, want);
    snprintf(want, sizeof want, "\nmembench_bandwidth_samples_bytes_per_second_count{%s,repeat=\"2\"} 2\n", labels);
    CHECK_CONTAINS(t, want);
    /* latency: the median, ns x 10^-9; a matrix cell's nodes are its row's and column's */
    CHECK_CONTAINS(t, "\nmembench_latency_seconds{mode=\"latency-matrix\",operation=\"latency\","
                      "size_bytes=\"1048576\",threads=\"1\",cpus=\"5\",node=\"1\",memory_node=\"3\"} 9.000000000000001e-08\n");
    CHECK_CONTAINS(t, "quantile=\"1\"} 1.0000000000000001e-07\n"); /* 90 x 1e-9, 100 x 1e-9 as doubles */
    /* the run: escaped labels, complete */
    CHECK_CONTAINS(t, "cpu=\"CPU \\\"X\\\"\"");
    CHECK_CONTAINS(t, "command=\"membench --openmetrics a\\\"b\\\\c\\nd.prom\"");
    CHECK_CONTAINS(t, "\nmembench_run_complete{mode=\"sweep\"} 1\n");
    CHECK_CONTAINS(t, "\nmembench_run_elapsed_seconds{mode=\"sweep\"} 2.5\n");
    /* every family once, whole; # EOF last */
    CHECK_INT(count(t, "# TYPE membench_bandwidth_bytes_per_second gauge\n"), 1);
    CHECK_INT(count(t, "# TYPE membench_bandwidth_samples_bytes_per_second summary\n"), 1);
    CHECK_INT(count(t, "# TYPE membench_latency_seconds gauge\n"), 1);
    CHECK_INT(count(t, "\nmembench_bandwidth_bytes_per_second{"), 2);
    CHECK_INT(count(t, "\nmembench_latency_seconds{"), 1);
    CHECK(strstr(t, "membench_latency_seconds{") > strstr(t, "membench_bandwidth_samples_bytes_per_second_count"));
    size_t len = strlen(t);
    CHECK(len > 6 && strcmp(t + len - 6, "# EOF\n") == 0);
    CHECK_INT(count(t, "# EOF"), 1);
    free(t);
    t = render_run(false, argv, 3);
    CHECK_CONTAINS(t, "\nmembench_run_complete{mode=\"sweep\"} 0\n");
    free(t);
}

TEST(openmetrics_run_without_results_is_a_whole_document)
{
    run_info info;
    memset(&info, 0, sizeof info);
    info.mode = "latency";
    char *t = NULL;
    CAPTURE(t, openmetrics_write_run(f, &info));
    CHECK_CONTAINS(t, "\nmembench_run_complete{mode=\"latency\"} 0\n");
    CHECK(!strstr(t, "membench_latency_seconds"));
    size_t len = strlen(t);
    CHECK(len > 6 && strcmp(t + len - 6, "# EOF\n") == 0);
    free(t);
}
