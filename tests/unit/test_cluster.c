/* SPDX-License-Identifier: MIT */
/* membench-mpi's logic without MPI: outliers on synthetic per-node results, the
 * figures and signatures read off documents, the table and the cluster JSON,
 * the rank message, CPU splitting and the cluster flags. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/cluster_options.h"
#include "cluster/cluster_report.h"
#include "cluster/host_share.h"
#include "cluster/rank_message.h"
#include "test.h"
#include "util/json_parse.h"

/* A cluster of n succeeded nodes with one figure and the same signatures. */
static void synthetic(cluster *c, int n, const char *figure, bool higher, const double *values)
{
    CHECK(cluster_init(c, "sweep", n, 0.9));
    c->nfigures = 1;
    snprintf(c->figures[0].name, sizeof c->figures[0].name, "%s", figure);
    c->figures[0].higher_is_better = higher;
    for (int i = 0; i < n; i++) {
        char host[32];
        snprintf(host, sizeof host, "node%d", i);
        cluster_set_host(c, i, host);
        c->nodes[i].status = NODE_OK;
        c->nodes[i].exit_status = 0;
        c->nodes[i].values[0] = values[i];
        c->nodes[i].signature[SIG_KERNEL] = strdup("Linux 6.18");
        c->nodes[i].signature[SIG_PAGES] = strdup("normal (THP madvise)");
        c->nodes[i].signature[SIG_PLACEMENT] = strdup("spread, 2 threads, pinned");
    }
}

static void set_signature(cluster *c, int node, int sig, const char *v)
{
    free(c->nodes[node].signature[sig]);
    c->nodes[node].signature[sig] = strdup(v);
}

TEST(cluster_outlier_below_threshold_not_at_it)
{
    cluster c;
    synthetic(&c, 4, "read MB/s", true, (double[]){100, 100, 90, 110});
    cluster_analyse(&c);
    CHECK(c.figures[0].median == 100);
    CHECK(c.figures[0].min == 90 && c.figures[0].max == 110);
    CHECK(!c.nodes[2].outlier); /* exactly 90% of the median is not below it */
    CHECK(c.nodes[2].ratio[0] == 0.9);
    CHECK_INT(cluster_exit_status(&c), 0);
    c.nodes[2].values[0] = 89.9;
    cluster_analyse(&c);
    CHECK(c.nodes[2].outlier);
    CHECK(!c.nodes[0].outlier && !c.nodes[1].outlier && !c.nodes[3].outlier);
    CHECK(c.nodes[2].reasons && strstr(c.nodes[2].reasons, "read MB/s 90% of the median"));
    CHECK_INT(cluster_exit_status(&c), CLUSTER_EXIT_OUTLIER);
    cluster_free(&c);
}

TEST(cluster_outlier_ties_even_count_median)
{
    cluster c; /* two fast, two slow: the median is the middle two's mean, 75 */
    synthetic(&c, 4, "read MB/s", true, (double[]){100, 50, 100, 50});
    cluster_analyse(&c);
    CHECK(c.figures[0].median == 75);
    CHECK(!c.nodes[0].outlier && !c.nodes[2].outlier);
    CHECK(c.nodes[1].outlier && c.nodes[3].outlier);
    cluster_free(&c);
    synthetic(&c, 3, "read MB/s", true, (double[]){100, 100, 100}); /* all equal: nobody */
    cluster_analyse(&c);
    for (int i = 0; i < 3; i++)
        CHECK(!c.nodes[i].outlier && c.nodes[i].ratio[0] == 1);
    cluster_free(&c);
}

TEST(cluster_outlier_latency_lower_is_better)
{
    cluster c;
    synthetic(&c, 3, "latency ns", false, (double[]){100, 100, 112});
    cluster_analyse(&c);
    CHECK(c.figures[0].median == 100);
    CHECK(c.nodes[2].outlier); /* 12% slower: 100/112 = 89% of the median's performance */
    CHECK(c.nodes[2].reasons && strstr(c.nodes[2].reasons, "latency ns 1.12x the median"));
    c.nodes[2].values[0] = 80; /* faster than the others is no fault */
    cluster_analyse(&c);
    CHECK(!c.nodes[2].outlier);
    c.nodes[2].values[0] = 100 / 0.9; /* exactly at the threshold */
    cluster_analyse(&c);
    CHECK(!c.nodes[2].outlier);
    cluster_free(&c);
}

TEST(cluster_single_node_is_its_own_median)
{
    cluster c;
    synthetic(&c, 1, "triad MB/s", true, (double[]){12345});
    cluster_analyse(&c);
    CHECK(c.figures[0].median == 12345 && c.figures[0].n == 1);
    CHECK(!c.nodes[0].outlier);
    CHECK_STR(c.majority[SIG_KERNEL], "Linux 6.18");
    CHECK_INT(cluster_exit_status(&c), 0);
    cluster_free(&c);
}

TEST(cluster_all_nodes_failing)
{
    cluster c;
    CHECK(cluster_init(&c, "stream", 3, 0.9));
    for (int i = 0; i < 3; i++)
        cluster_set_missing(&c, i, i == 2 ? NODE_NO_ANSWER : NODE_FAILED, i == 2 ? "no record" : "cannot pin");
    cluster_analyse(&c);
    CHECK_INT(c.nfigures, 0);
    CHECK(c.majority[SIG_KERNEL] == NULL);
    CHECK_INT(cluster_exit_status(&c), CLUSTER_EXIT_OUTLIER);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cluster_run run = {0, NULL, "2026-01-01T00:00:00Z", false, "refuse", 60, false, NULL, 3, 0, 0, 0, 0};
    cluster_table_write(f, &c, &run);
    fclose(f);
    CHECK(strstr(text, "0 succeeded"));
    CHECK(strstr(text, "rank 0 ?: failed: cannot pin"));
    CHECK(strstr(text, "rank 2 ?: no answer: no record"));
    CHECK(strstr(text, "3 outliers"));
    free(text);
    cluster_free(&c);
}

TEST(cluster_failed_nodes_stay_out_of_the_median)
{
    cluster c;
    synthetic(&c, 3, "read MB/s", true, (double[]){100, 100, 1});
    c.nodes[2].status = NODE_FAILED;
    cluster_analyse(&c);
    CHECK(c.figures[0].median == 100 && c.figures[0].min == 100 && c.figures[0].n == 2);
    CHECK(!c.nodes[2].outlier); /* failed, not an outlier by figures */
    CHECK_INT(cluster_exit_status(&c), CLUSTER_EXIT_OUTLIER);
    cluster_free(&c);
}

TEST(cluster_majority_of_kernel_pages_placement)
{
    cluster c;
    synthetic(&c, 4, "read MB/s", true, (double[]){100, 100, 100, 100});
    set_signature(&c, 3, SIG_KERNEL, "Linux 6.1");
    set_signature(&c, 1, SIG_PAGES, "thp (THP always)");
    cluster_analyse(&c);
    CHECK(!c.nodes[0].outlier && !c.nodes[2].outlier);
    CHECK(c.nodes[3].outlier && strstr(c.nodes[3].reasons, "kernel Linux 6.1 (the majority: Linux 6.18)"));
    CHECK(c.nodes[1].outlier && strstr(c.nodes[1].reasons, "huge pages thp (THP always)"));
    CHECK_STR(c.majority[SIG_KERNEL], "Linux 6.18");
    /* two against two: no majority, every node is flagged */
    set_signature(&c, 2, SIG_KERNEL, "Linux 6.1");
    cluster_analyse(&c);
    CHECK(c.majority[SIG_KERNEL] == NULL);
    for (int i = 0; i < 4; i++)
        CHECK(c.nodes[i].outlier && strstr(c.nodes[i].reasons, "no majority among 2 kinds"));
    /* a failed node's kernel neither makes nor breaks the majority */
    set_signature(&c, 2, SIG_KERNEL, "Linux 6.18");
    set_signature(&c, 0, SIG_KERNEL, "Linux 5.4");
    c.nodes[0].status = NODE_FAILED;
    cluster_analyse(&c);
    CHECK(c.majority[SIG_KERNEL] && !strcmp(c.majority[SIG_KERNEL], "Linux 6.18"));
    CHECK(!c.nodes[1].reasons || !strstr(c.nodes[1].reasons, "kernel"));
    cluster_free(&c);
}

/* --- documents ---------------------------------------------------------------- */

static void result(char *out, size_t len, const char *mode, const char *op, const char *metric, int size,
                   double value, const char *pages)
{
    snprintf(out, len,
             "{\"mode\":\"%s\",\"operation\":\"%s\",\"metric\":\"%s\",\"unit\":\"%s\",\"value\":%g,"
             "\"size_bytes\":%d,\"threads\":1,\"placement\":[{\"thread\":0,\"cpu\":0,\"node\":0,\"memory_node\":0}],"
             "\"pages\":{\"method\":\"%s\"},\"samples\":[%g,%g,%g],\"complete\":true}",
             mode, op, metric, metric[0] == 'b' ? "MB/s" : "ns", value, size, pages, value, value, value);
}

static char *document(const char *mode, const char *host, const char *results, const char *errors)
{
    char *text = malloc(16384);
    snprintf(text, 16384,
             "{\"tool\":\"membench\",\"version\":\"0.1.0\",\"schema\":2,\"mode\":\"%s\",\"complete\":true,"
             "\"started_at\":\"2026-01-01T00:00:00Z\",\"host\":{\"hostname\":\"%s\",\"cpu_model\":\"EPYC\","
             "\"kernel\":\"Linux 6.18\"},\"topology\":{\"thp_mode\":\"madvise\"},\"errors\":[%s],"
             "\"placement\":{\"policy\":\"spread\",\"pinned\":true,\"threads\":[{\"thread\":0,\"cpus\":\"0\"},"
             "{\"thread\":1,\"cpus\":\"1\"}]},\"options\":{},\"results\":[%s]}",
             mode, host, errors ? errors : "", results);
    return text;
}

TEST(cluster_figures_from_a_sweep_document)
{
    char r[6][512], all[4096];
    result(r[0], sizeof r[0], "sweep", "read", "bandwidth", 65536, 100, "normal");
    result(r[1], sizeof r[1], "sweep", "read", "bandwidth", 1048576, 300, "normal");
    result(r[2], sizeof r[2], "sweep", "read", "bandwidth", 4194304, 200, "thp");
    result(r[3], sizeof r[3], "sweep", "latency", "latency", 65536, 5, "normal");
    result(r[4], sizeof r[4], "sweep", "latency", "latency", 4194304, 80, "normal");
    result(r[5], sizeof r[5], "sweep", "latency", "latency", 4194304, 90, "normal");
    snprintf(all, sizeof all, "%s,%s,%s,%s,%s,%s", r[0], r[1], r[2], r[3], r[4], r[5]);
    char *doc = document("sweep", "n1", all, NULL);
    cluster c;
    CHECK(cluster_init(&c, "sweep", 1, 0.9));
    cluster_set_record(&c, 0, 0, doc, strlen(doc), NULL);
    CHECK_INT(c.nodes[0].status, NODE_OK);
    CHECK_INT(c.nfigures, 2);
    CHECK_STR(c.figures[0].name, "read MB/s");
    CHECK(c.figures[0].higher_is_better);
    CHECK(c.nodes[0].values[0] == 300); /* the best bandwidth, not the first or the last */
    CHECK_STR(c.figures[1].name, "latency ns");
    CHECK(!c.figures[1].higher_is_better);
    CHECK(c.nodes[0].values[1] == 85); /* the largest size, the median of its cells */
    CHECK_STR(c.nodes[0].signature[SIG_KERNEL], "Linux 6.18");
    CHECK_STR(c.nodes[0].signature[SIG_PAGES], "normal,thp (THP madvise)");
    CHECK_STR(c.nodes[0].signature[SIG_PLACEMENT], "spread, 2 threads, pinned");
    cluster_free(&c);
    free(doc);
}

TEST(cluster_figures_from_a_stream_document_triad_only)
{
    char r[3][512], all[2048];
    result(r[0], sizeof r[0], "stream", "copy", "bandwidth", 8000000, 500, "normal");
    result(r[1], sizeof r[1], "stream", "triad", "bandwidth", 8000000, 400, "normal");
    result(r[2], sizeof r[2], "stream", "triad", "bandwidth", 8000000, 450, "normal");
    snprintf(all, sizeof all, "%s,%s,%s", r[0], r[1], r[2]);
    char *doc = document("stream", "n1", all, NULL);
    cluster c;
    CHECK(cluster_init(&c, "stream", 1, 0.9));
    cluster_set_record(&c, 0, 0, doc, strlen(doc), NULL);
    CHECK_INT(c.nfigures, 1);
    CHECK_STR(c.figures[0].name, "triad MB/s");
    CHECK(c.nodes[0].values[0] == 450);
    cluster_free(&c);
    free(doc);
}

TEST(cluster_failed_and_unreadable_records)
{
    char r[512];
    result(r, sizeof r, "sweep", "read", "bandwidth", 65536, 100, "normal");
    char *doc = document("sweep", "n1", r, "\"cannot pin thread 0\"");
    cluster c;
    CHECK(cluster_init(&c, "sweep", 3, 0.9));
    cluster_set_record(&c, 0, 1, doc, strlen(doc), NULL); /* failed: the document's first error */
    CHECK_INT(c.nodes[0].status, NODE_FAILED);
    CHECK_STR(c.nodes[0].error, "cannot pin thread 0");
    CHECK(c.nodes[0].document != NULL); /* kept for the JSON */
    CHECK(isnan(c.nodes[0].values[0]));
    cluster_set_record(&c, 1, 0, "{\"tool\":", 8, NULL);
    CHECK_INT(c.nodes[1].status, NODE_FAILED);
    CHECK(strstr(c.nodes[1].error, "its document cannot be read"));
    CHECK(c.nodes[1].document == NULL);
    /* stopped by a signal, no error line: said so, not as a bare exit status */
    char *stopped = document("sweep", "n1", r, NULL);
    char *patched = malloc(strlen(stopped) + 64);
    char *at = strstr(stopped, "\"complete\":true");
    snprintf(patched, strlen(stopped) + 64, "%.*s\"complete\":false,\"stopped_by\":\"SIGTERM\"%s",
             (int)(at - stopped), stopped, at + strlen("\"complete\":true"));
    cluster_set_record(&c, 2, 143, patched, strlen(patched), NULL);
    CHECK_INT(c.nodes[2].status, NODE_FAILED);
    CHECK_STR(c.nodes[2].error, "stopped by SIGTERM (exit status 143)");
    free(stopped);
    free(patched);
    cluster_set_record(&c, 2, 1, NULL, 0, "the memory budget is unknown");
    CHECK_INT(c.nodes[2].status, NODE_FAILED);
    CHECK_STR(c.nodes[2].error, "the memory budget is unknown");
    cluster_free(&c);
    free(doc);
}

TEST(cluster_json_holds_every_node_and_its_document)
{
    char r[512];
    cluster c;
    CHECK(cluster_init(&c, "sweep", 3, 0.9));
    for (int i = 0; i < 2; i++) {
        char host[16];
        snprintf(host, sizeof host, "node%d", i);
        result(r, sizeof r, "sweep", "read", "bandwidth", 65536, i == 0 ? 100 : 50, "normal");
        char *doc = document("sweep", host, r, NULL);
        cluster_set_host(&c, i, host);
        cluster_set_record(&c, i, 0, doc, strlen(doc), NULL);
        free(doc);
    }
    cluster_set_host(&c, 2, "node\"2");
    cluster_set_missing(&c, 2, NODE_NO_ANSWER, "no record within --rank-timeout 5 s");
    cluster_analyse(&c);
    char *argv[] = {"membench-mpi", "-s", "64"};
    cluster_set_steps(&c, 0, 4, -1);
    cluster_set_steps(&c, 1, 2, 2); /* its third step's common start timed out */
    cluster_run run = {3, argv, "2026-01-01T00:00:00Z", true, "split", 5, false, NULL, 3, 1, 4096, 0.25, 0.125};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cluster_json_write(f, &c, &run);
    fclose(f);
    json_value v;
    char err[256];
    CHECK(json_parse(text, len, &v, err, sizeof err));
    CHECK_STR(json_get_text(&v, "mode"), "cluster");
    CHECK_STR(json_get_text(&v, "measured_mode"), "sweep");
    CHECK_STR(json_get_text(&v, "share_host"), "split");
    double g = 0;
    const json_value *gather = json_get_object(&v, "gather");
    CHECK(json_get_number(gather, "records", &g) && g == 1);
    CHECK(json_get_number(gather, "bytes", &g) && g == 4096);
    CHECK(json_get_number(gather, "seconds", &g) && g == 0.25);
    CHECK(json_get_number(gather, "json_write_seconds", &g) && g == 0.125);
    const json_value *nodes = json_get_array(&v, "nodes");
    CHECK(nodes && nodes->count == 3);
    if (nodes && nodes->count == 3) {
        CHECK(json_get_number(&nodes->items[0], "steps_started_together", &g) && g == 4);
        CHECK(json_get(&nodes->items[0], "steps_together_lost_at")->type == JV_NULL);
        CHECK(json_get_number(&nodes->items[1], "steps_together_lost_at", &g) && g == 2);
        CHECK(json_get(&nodes->items[2], "steps_started_together") == NULL); /* silent: unknown */
        CHECK_STR(json_get_text(json_get_object(json_get_object(&nodes->items[1], "document"), "host"), "hostname"),
                  "node1");
        CHECK_STR(json_get_text(&nodes->items[0], "status"), "ok");
        CHECK_STR(json_get_text(&nodes->items[2], "status"), "no answer");
        CHECK_STR(json_get_text(&nodes->items[2], "host"), "node\"2");
        CHECK(json_get(&nodes->items[2], "document")->type == JV_NULL);
        double of = 0;
        CHECK(json_get_number(json_get_object(json_get_object(&nodes->items[1], "figures"), "read MB/s"),
                              "of_median", &of));
        CHECK(fabs(of - 50 / 75.0) < 1e-9);
    }
    const json_value *outliers = json_get_array(&v, "outliers");
    CHECK(outliers && outliers->count == 2); /* node 1 (67%) and the silent node 2 */
    double median = 0;
    const json_value *figs = json_get_array(&v, "figures");
    CHECK(figs && figs->count == 1 && json_get_number(&figs->items[0], "median", &median) && median == 75);
    json_value_free(&v);
    free(text);

    text = NULL;
    f = open_memstream(&text, &len);
    cluster_table_write(f, &c, &run);
    fclose(f);
    CHECK(strstr(text, "measured one at a time"));
    CHECK(strstr(text, "read MB/s"));
    CHECK(strstr(text, "75.0"));   /* the median row */
    CHECK(strstr(text, "rank 1 node1: read MB/s 67% of the median"));
    CHECK(strstr(text, "rank 2 node\"2: no answer: no record within --rank-timeout 5 s"));
    CHECK(!strstr(text, "steps together")); /* in turn: no common starts to speak of */
    free(text);
    run.one_at_a_time = false;
    text = NULL;
    f = open_memstream(&text, &len);
    cluster_table_write(f, &c, &run);
    fclose(f);
    CHECK(strstr(text, "rank 1 node1: 2 steps together, then alone from step 3"));
    CHECK(!strstr(text, "rank 0 node0: 4 steps"));
    CHECK(!strstr(text, "Every measured step"));
    free(text);
    cluster_set_steps(&c, 1, 4, -1);
    text = NULL;
    f = open_memstream(&text, &len);
    cluster_table_write(f, &c, &run);
    fclose(f);
    CHECK(strstr(text, "Every measured step started on every node at once (4 steps, a barrier before each)"));
    free(text);
    cluster_free(&c);
}

/* --- the rank message, CPU shares, flags ------------------------------------------ */

TEST(rank_message_round_trip)
{
    const char doc[] = "{\"a\": \"line\\n\"}\nMBR2 0 0 0 0 0 0 -1 -1\n";
    rank_message m = {1, "node 7", "cannot pin\nthread 3", (char *)doc, sizeof doc - 1, 12.5, 14.25, 7, 5};
    size_t len;
    char *bytes = rank_message_encode(&m, &len);
    rank_message back;
    CHECK(rank_message_decode(bytes, len, &back));
    CHECK_INT(back.exit_status, 1);
    CHECK_STR(back.host, "node 7");
    CHECK_STR(back.error, "cannot pin\nthread 3");
    CHECK(back.document_len == sizeof doc - 1 && !memcmp(back.document, doc, sizeof doc - 1));
    CHECK(back.started == 12.5 && back.ended == 14.25);
    CHECK(back.steps_together == 7 && back.steps_lost_at == 5);
    rank_message_free(&back);
    CHECK(!rank_message_decode(bytes, len - 1, &back)); /* cut short */
    rank_message_free(&back);
    free(bytes);
    rank_message none = {2, "h", NULL, NULL, 0, 0, 0, 0, -1};
    bytes = rank_message_encode(&none, &len);
    CHECK(rank_message_decode(bytes, len, &back));
    CHECK(back.error == NULL && back.document == NULL && back.exit_status == 2 && back.steps_lost_at == -1);
    rank_message_free(&back);
    free(bytes);
    CHECK(!rank_message_decode("XXXX 0\n", 7, &back));
    rank_message_free(&back);
}

TEST(host_share_split_is_disjoint_and_covers_every_cpu)
{
    int ids[] = {4, 0, 3, 1, 2};
    cpu_list all = {ids, 5};
    int seen[5] = {0};
    size_t sizes[2];
    char err[128];
    for (int i = 0; i < 2; i++) {
        cpu_list share;
        CHECK(host_share_split(&all, i, 2, &share, err, sizeof err));
        sizes[i] = share.count;
        for (size_t k = 0; k < share.count; k++) {
            seen[share.ids[k]]++;
            if (k)
                CHECK(share.ids[k] == share.ids[k - 1] + 1); /* consecutive CPUs */
        }
        cpu_list_free(&share);
    }
    CHECK(sizes[0] == 3 && sizes[1] == 2);
    for (int c = 0; c < 5; c++)
        CHECK_INT(seen[c], 1);
    cpu_list one = {ids, 1}, share;
    CHECK(!host_share_split(&one, 0, 2, &share, err, sizeof err));
    CHECK(strstr(err, "2 ranks share this host but it has only 1 usable CPU"));
    const char *hosts[] = {"a", "b", "a", "c"};
    char buf[32];
    CHECK_INT(host_share_ranks(hosts, 4, 2, buf, sizeof buf), 2);
    CHECK_STR(buf, "0,2");
    CHECK_INT(host_share_ranks(hosts, 4, 3, buf, sizeof buf), 1);
}

static bool parse(cluster_options *o, char *err, size_t errlen, int argc, ...)
{
    char *argv[16];
    va_list ap;
    va_start(ap, argc);
    for (int i = 0; i < argc; i++)
        argv[i] = va_arg(ap, char *);
    va_end(ap);
    return cluster_options_parse(argc, argv, o, err, errlen);
}

TEST(cluster_options_taken_out_of_the_mode_line)
{
    cluster_options o;
    char err[256];
    CHECK(parse(&o, err, sizeof err, 10, "membench-mpi", "stream", "--json", "c.json", "-n", "1000",
                "--outlier-threshold=80", "--share-host", "split", "--one-at-a-time"));
    CHECK_STR(o.json_path, "c.json");
    CHECK(o.threshold == 0.8 && o.split && o.one_at_a_time && !o.help);
    CHECK(o.rank_timeout_s == CLUSTER_DEFAULT_RANK_TIMEOUT_S);
    CHECK_INT(o.argc, 4);
    CHECK_STR(o.argv[1], "stream");
    CHECK_STR(o.argv[2], "-n");
    CHECK_STR(o.argv[3], "1000");
    CHECK(o.argv[4] == NULL);
    cluster_options_free(&o);
    CHECK(parse(&o, err, sizeof err, 3, "membench-mpi", "latency", "--help")); /* the mode's help */
    CHECK(!o.help && o.argc == 3);
    cluster_options_free(&o);
    CHECK(parse(&o, err, sizeof err, 2, "membench-mpi", "-h"));
    CHECK(o.help);
    cluster_options_free(&o);
    static const char *const bad[][3] = {
        {"--outlier-threshold", "0", "--outlier-threshold '0'"},
        {"--outlier-threshold", "101", "--outlier-threshold '101'"},
        {"--outlier-threshold", "9x", "--outlier-threshold '9x'"},
        {"--rank-timeout", "-1", "--rank-timeout '-1'"},
        {"--rank-timeout", "0", "--rank-timeout '0'"},
        {"--share-host", "both", "--share-host 'both'"},
        {"--json", "", "--json: a file name is needed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(!parse(&o, err, sizeof err, 3, "membench-mpi", bad[i][0], bad[i][1]));
        if (!strstr(err, bad[i][2]))
            test_fail(__FILE__, __LINE__, "%s %s: '%s'", bad[i][0], bad[i][1], err);
        cluster_options_free(&o);
    }
    CHECK(!parse(&o, err, sizeof err, 2, "membench-mpi", "--rank-timeout")); /* no value */
    cluster_options_free(&o);
}

TEST(cluster_rank_argument_makes_paths_node_local)
{
    char *a = cluster_rank_argument("/tmp/mb-%h-%r.prom", "node7", 12);
    CHECK_STR(a, "/tmp/mb-node7-12.prom");
    free(a);
    a = cluster_rank_argument("%h%h%%r%x%", "h", 3); /* %% is a %; other % stay */
    CHECK_STR(a, "hh%r%x%");
    free(a);
    a = cluster_rank_argument("--cpus=0-3", "h", 3);
    CHECK_STR(a, "--cpus=0-3");
    free(a);
}
