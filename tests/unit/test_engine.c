/* SPDX-License-Identifier: MIT */
/* The measuring engine on this machine: buffers, the team, bandwidth and latency
 * measurements. Values are never timed against thresholds; only their structure
 * and correctness are checked. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "measure/bandwidth.h"
#include "measure/latency.h"
#include "measure/stop.h"
#include "memory/buffer.h"
#include "memory/memory_budget.h"
#include "platform/platform.h"
#include "team/team.h"
#include "test.h"

TEST(buffer_alloc_fill_inspect)
{
    buffer b;
    CHECK(buffer_alloc(&b, 1 << 20, PAGES_NORMAL, 2 << 20, -1));
    CHECK(((uintptr_t)b.ptr % KERNEL_ALIGN) == 0);
    CHECK_STR(b.method, "normal");
    buffer_fill(&b, 9);
    const uint64_t *w = b.ptr;
    CHECK(w[0] == pattern_word(9, 0));
    CHECK(w[1000] == pattern_word(9, 1000));
    CHECK(pattern_word(9, 0) != pattern_word(9, 1));
    buffer_inspect(&b);
    CHECK(b.huge_coverage >= 0 && b.huge_coverage <= 1); /* smaps was found and parsed */
    buffer_free(&b);
    CHECK(!buffer_alloc(&b, 0, PAGES_NORMAL, 2 << 20, -1));
}

TEST(buffer_huge_request_small_buffer_stays_normal)
{
    buffer b;
    CHECK(buffer_alloc(&b, 2 << 20, PAGES_HUGE_AUTO, 2 << 20, -1)); /* < 2x huge page */
    CHECK_STR(b.method, "normal");
    buffer_free(&b);
    CHECK(buffer_alloc(&b, 8 << 20, PAGES_HUGE_AUTO, 2 << 20, -1));
    /* madvise succeeds even with THP "never"; what was obtained is the coverage */
    CHECK(strcmp(b.method, "thp") == 0 || strcmp(b.method, "hugetlb") == 0);
    CHECK(((uintptr_t)b.ptr % (2 << 20)) == 0); /* aligned so whole huge pages fit */
    buffer_fill(&b, 1);
    buffer_inspect(&b);
    CHECK(b.huge_coverage >= 0 && b.huge_coverage <= 1);
    buffer_free(&b);
}

/* STREAM's chunks: the page a chunk shares with its neighbour (first touched by
 * whichever thread came first) is never sampled; only whole pages inside are. */
TEST(buffer_range_samples_whole_pages_inside_the_range)
{
    buffer b = {0};
    b.ptr = (void *)(uintptr_t)0x100000; /* never touched: addresses only */
    b.len = 64 << 20;
    const void *a[BUFFER_RANGE_SAMPLES];
    /* 3 pages and a bit, from mid-page: the whole pages are 1, 2 and 3 */
    size_t n = buffer_range_pages(&b, 100, 4 * 4096 - 100 + 10, a, BUFFER_RANGE_SAMPLES);
    CHECK_INT((long long)n, 3);
    CHECK(a[0] == (const void *)(uintptr_t)(0x100000 + 4096));
    CHECK(a[2] == (const void *)(uintptr_t)(0x100000 + 3 * 4096));
    /* a range inside one page: that page */
    n = buffer_range_pages(&b, 5000, 100, a, BUFFER_RANGE_SAMPLES);
    CHECK_INT((long long)n, 1);
    CHECK(a[0] == (const void *)(uintptr_t)(0x100000 + 4096));
    /* a big range: at most the maximum, spread to its last whole page, none outside */
    size_t off = 4096 * 10 + 8, len = 4096 * 1000;
    n = buffer_range_pages(&b, off, len, a, BUFFER_RANGE_SAMPLES);
    CHECK_INT((long long)n, BUFFER_RANGE_SAMPLES);
    uintptr_t lo = 0x100000 + off, hi = lo + len;
    for (size_t i = 0; i < n; i++)
        CHECK((uintptr_t)a[i] >= lo && (uintptr_t)a[i] + 4096 <= hi && (uintptr_t)a[i] % 4096 == 0);
    CHECK((uintptr_t)a[n - 1] > lo + len / 2); /* spread, not bunched at the start */
    CHECK_INT((long long)buffer_range_pages(&b, b.len, 10, a, BUFFER_RANGE_SAMPLES), 0);
}

/* A few pages that answered cannot speak for a range most of whose pages did not
 * (NUMA balancing unmaps pages and 6.1's move_pages then says nothing). */
TEST(page_nodes_verdict_needs_most_pages_known)
{
    double share;
    int half[8] = {1, 1, 0, 1, -1, -1, -1, -1};
    CHECK_INT(page_nodes_verdict(half, 8, &share), 1);
    CHECK(share == 3.0 / 8); /* of the samples, not of the known ones */
    int few[8] = {0, 0, -1, -1, -1, -1, -1, 1};
    CHECK_INT(page_nodes_verdict(few, 8, &share), -1);
    CHECK(share == -1);
    int none[3] = {-1, -1, -1};
    CHECK_INT(page_nodes_verdict(none, 3, &share), -1);
    CHECK_INT(page_nodes_verdict(none, 0, &share), -1);
    int node3[4] = {3, 3, 3, 2};
    CHECK_INT(page_nodes_verdict(node3, 4, &share), 3);
    CHECK(share == 0.75);
}

/* A copy's destination 2 KiB into its page: the start moves, the mapping, the
 * huge-page advice and the whole length stay; offsets that are not a multiple of
 * 64 under 4096 are refused. */
TEST(buffer_alloc_offset_starts_inside_the_page)
{
    buffer b;
    CHECK(buffer_alloc_offset(&b, 1 << 20, PAGES_NORMAL, 2 << 20, -1, 2048));
    CHECK_INT((long long)((uintptr_t)b.ptr % 4096), 2048);
    CHECK_INT((long long)b.len, 1 << 20);
    CHECK((char *)b.ptr + b.len <= (char *)b.map + b.map_len);
    memset(b.ptr, 1, b.len); /* all of it is mapped */
    buffer_free(&b);
    CHECK(buffer_alloc_offset(&b, 8 << 20, PAGES_THP, 2 << 20, -1, 2048));
    CHECK_STR(b.method, "thp"); /* madvise took the page-aligned start */
    CHECK_INT((long long)((uintptr_t)b.ptr % (2 << 20)), 2048);
    memset(b.ptr, 1, b.len);
    buffer_free(&b);
    CHECK(buffer_alloc_offset(&b, 4096, PAGES_NORMAL, 2 << 20, -1, 0));
    CHECK_INT((long long)((uintptr_t)b.ptr % 4096), 0);
    buffer_free(&b);
    CHECK(!buffer_alloc_offset(&b, 4096, PAGES_NORMAL, 2 << 20, -1, 4096));
    CHECK(!buffer_alloc_offset(&b, 4096, PAGES_NORMAL, 2 << 20, -1, 100));
}

TEST(node_margin_is_an_eighth_of_the_node_between_16_and_64_mib)
{
    CHECK_INT(node_margin_bytes(0), 64ULL << 20);           /* size unknown: the full margin */
    CHECK_INT(node_margin_bytes(64ULL << 20), 16ULL << 20); /* small node: the floor */
    CHECK_INT(node_margin_bytes(128ULL << 20), 16ULL << 20);
    CHECK_INT(node_margin_bytes(256ULL << 20), 32ULL << 20);
    CHECK_INT(node_margin_bytes(768ULL << 20), 64ULL << 20); /* large node: the cap */
    CHECK_INT(node_margin_bytes(64ULL << 30), 64ULL << 20);
}

TEST(memory_budget_leaves_a_margin)
{
    CHECK_INT(memory_budget_from(0), 0);
    CHECK_INT(memory_budget_from(16ULL << 20), 0);
    CHECK_INT(memory_budget_from(1000ULL << 20), (1000ULL << 20) - (100ULL << 20) - (64ULL << 20));
    /* on this machine both are known, and the budget is what is available less the margin */
    /* other processes move MemAvailable between two reads: take a budget read
     * between two equal readings (a few tries), else between two readings */
    uint64_t budget = 1, before = 1, after = 0;
    char why[256] = "";
    for (int i = 0; i < 20 && before != after; i++) {
        CHECK(platform_memory_available(&before, why, sizeof why));
        CHECK(memory_budget(&budget, why, sizeof why));
        CHECK(platform_memory_available(&after, why, sizeof why));
    }
    CHECK_STR(why, "");
    uint64_t lo = before < after ? before : after, hi = before < after ? after : before;
    CHECK(budget >= memory_budget_from(lo) && budget <= memory_budget_from(hi));
    CHECK(lo > 0);
}

static atomic_int job_hits;
static atomic_int after_barrier_seen_all;
static atomic_uint barriers_passed; /* the watchdog's progress */

static void count_job(team *t, int tid, void *arg)
{
    (void)arg;
    (void)tid;
    atomic_fetch_add(&job_hits, 1);
    team_barrier(t);
    atomic_fetch_add(&barriers_passed, 1);
    if (atomic_load(&job_hits) == team_size(t))
        atomic_fetch_add(&after_barrier_seen_all, 1);
    team_barrier(t);
}

TEST(team_runs_job_on_every_thread_with_barrier)
{
    cpu_list usable;
    CHECK(platform_usable_cpus(&usable));
    team_place places[3];
    for (int i = 0; i < 3; i++)
        places[i].cpus = (cpu_list){&usable.ids[(size_t)i % usable.count], 1};
    test_watchdog_progress(60, 600, "a team of 3 threads' barriers", &barriers_passed); /* a lost wake-up hangs */
    team *t = team_create(places, 3, NULL);
    CHECK(t != NULL);
    for (int round = 0; round < 5; round++) {
        atomic_store(&job_hits, 0);
        atomic_store(&after_barrier_seen_all, 0);
        team_run(t, count_job, NULL);
        CHECK_INT(atomic_load(&job_hits), 3);
        CHECK_INT(atomic_load(&after_barrier_seen_all), 3);
    }
    for (int i = 0; i < 3; i++) {
        CHECK(team_pin_verified(t, i));
        CHECK_INT(team_observed_cpu(t, i), usable.ids[(size_t)i % usable.count]);
    }
    team_destroy(t);
    cpu_list_free(&usable);
}

TEST(an_oversubscribed_team_passes_its_barriers)
{
    /* 64 threads on one CPU: barrier waiters sleep rather than spin, and none is
     * left behind (a lost wake-up hangs here) */
    cpu_list usable;
    CHECK(platform_usable_cpus(&usable));
    enum { N = 64 };
    team_place places[N];
    for (int i = 0; i < N; i++)
        places[i].cpus = (cpu_list){usable.ids, 1};
    test_watchdog_progress(60, 600, "a team of 64 threads on one CPU", &barriers_passed);
    team *t = team_create(places, N, NULL);
    CHECK(t != NULL);
    for (int round = 0; t && round < 50; round++) {
        atomic_store(&job_hits, 0);
        atomic_store(&after_barrier_seen_all, 0);
        team_run(t, count_job, NULL);
        CHECK_INT(atomic_load(&job_hits), N);
        CHECK_INT(atomic_load(&after_barrier_seen_all), N);
    }
    team_destroy(t);
    cpu_list_free(&usable);
}

TEST(a_sample_lasts_from_the_first_start_to_the_last_end)
{
    /* two threads that took turns on one CPU: each took 1 s, the sample 2.5 s */
    const thread_time turns[] = {{10.0, 1.0}, {11.5, 1.0}};
    double fastest, slowest;
    CHECK_NEAR(sample_span(turns, 2, &fastest, &slowest), 2.5, 1e-12);
    CHECK_NEAR(fastest, 1.0, 0);
    CHECK_NEAR(slowest, 1.0, 0);
    /* started together: the slowest thread's time */
    const thread_time together[] = {{5.0, 2.0}, {5.0, 3.0}, {5.0, 1.0}};
    CHECK_NEAR(sample_span(together, 3, &fastest, &slowest), 3.0, 1e-12);
    CHECK_NEAR(fastest, 1.0, 0);
    CHECK_NEAR(slowest, 3.0, 0);
}

static team *one_thread_team(void)
{
    cpu_list usable;
    platform_usable_cpus(&usable);
    team_place p = {{usable.ids, 1}};
    team *t = team_create(&p, 1, NULL);
    cpu_list_free(&usable);
    return t;
}

TEST(measure_bandwidth_fills_a_verified_record)
{
    stop_reset();
    team *t = one_thread_team();
    const mb_op ops[] = {OP_READ, OP_WRITE, OP_COPY, OP_MEMCPY};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        bandwidth_request rq = {kernel_choose(KERNEL_SWEEP, ops[i], STORE_ANY, NULL, false), 64 * 1024, 3, 0.002,
                                PAGES_NORMAL, 2 << 20, NULL, NULL};
        CHECK(rq.k != NULL);
        if (!rq.k)
            continue;
        result_record r;
        result_init(&r, "test", op_name(ops[i]), METRIC_BANDWIDTH);
        CHECK_INT(measure_bandwidth(t, &rq, &r), MEASURE_OK);
        CHECK_STR(r.operation, op_name(ops[i]));
        CHECK_INT(r.nsamples, 3);
        CHECK_INT(r.summary.n, 3);
        CHECK(r.complete);
        CHECK(result_value(&r) > 0);
        CHECK_NEAR(result_value(&r), r.summary.max, 0); /* bandwidth reports the best sample */
        CHECK(r.summary.max >= r.summary.median && r.summary.median >= r.summary.min);
        CHECK(r.iterations >= 1);
        CHECK(r.elapsed_s > 0);
        CHECK_INT(r.threads, 1);
        CHECK_INT(r.pins_verified, 1);
        /* bandwidth is bytes counted over the sample's time (one thread: its own),
         * in every sample */
        double slowest = params_get_number(&r.params, "thread_time_max_s", -1);
        CHECK_NEAR(r.bytes_per_sample, 64.0 * 1024 * (double)r.iterations, 0);
        CHECK_NEAR(slowest, r.elapsed_s, 0);
        CHECK_NEAR(result_value(&r), r.bytes_per_sample / r.elapsed_s / 1e6, result_value(&r) * 1e-9);
        for (int k = 0; k < r.nsamples; k++)
            CHECK_NEAR(result_sample_seconds(&r, k) * r.samples[k] * 1e6, r.bytes_per_sample, r.bytes_per_sample * 1e-9);
        result_free(&r);
    }
    team_destroy(t);
}

/* The sweep's pool: a point takes the first bytes of it, in every visit the same,
 * and its record names that part; a point the pool cannot serve is refused. */
TEST(bw_pool_lends_the_first_bytes_to_each_point)
{
    stop_reset();
    team *t = one_thread_team();
    bw_pool_request prq = {256 * 1024, true, true, PAGES_NORMAL, 2 << 20, NULL};
    bw_pool *pool = NULL;
    CHECK_INT(bw_pool_create(t, &prq, &pool), MEASURE_OK);
    CHECK(pool != NULL);
    const kernel *copy = kernel_choose(KERNEL_SWEEP, OP_COPY, STORE_ANY, NULL, false);
    const kernel *write = kernel_choose(KERNEL_SWEEP, OP_WRITE, STORE_ANY, NULL, false);
    /* A minimum no sample falls short of: a short sample in the second visit would
     * restart the series and drop the first visit's sample (qemu-user did, 1 run in 30). */
    bandwidth_request rq = {copy, 64 * 1024, 2, 1e-9, PAGES_NORMAL, 2 << 20, NULL, pool};
    CHECK(bw_pool_fits(pool, &rq, 1));
    CHECK(!bw_pool_fits(pool, &rq, 2)); /* one thread's buffers only */
    bandwidth_request big = rq;
    big.bytes = 512 * 1024;
    CHECK(!bw_pool_fits(pool, &big, 1));
    bw_point *p = bw_point_create(&rq, 1);
    CHECK(p != NULL && bw_point_lent(p));
    CHECK_INT(bw_point_visit(p, t, 1, 1, true), MEASURE_OK); /* kept or not: a pool's part is lent per visit */
    CHECK_INT(bw_point_visit(p, t, 1, 2, true), MEASURE_OK);
    result_record r;
    result_init(&r, "test", "copy", METRIC_BANDWIDTH);
    CHECK(bw_point_fill(p, 0, &r));
    CHECK_INT(r.nsamples, 2);
    CHECK_INT(r.npages, 1);
    CHECK_INT(r.pages[0].buffers, 2);
    CHECK_NEAR(r.pages[0].bytes, 2 * 64 * 1024, 0); /* source and destination: the part used */
    CHECK_INT((long long)params_get_number(&r.params, "dst_page_offset", -1), 2048);
    result_free(&r);
    bw_point_destroy(p);
    bandwidth_request wq = {write, 128 * 1024, 1, 0.002, PAGES_NORMAL, 2 << 20, NULL, pool};
    p = bw_point_create(&wq, 1);
    CHECK_INT(bw_point_visit(p, t, 1, 1, false), MEASURE_OK);
    result_init(&r, "test", "write", METRIC_BANDWIDTH);
    CHECK(bw_point_fill(p, 0, &r));
    CHECK_NEAR(r.pages[0].bytes, 128 * 1024, 0);
    CHECK_INT((long long)params_get_number(&r.params, "dst_page_offset", -1), 0); /* at its page, as its own */
    result_free(&r);
    bw_point_destroy(p);
    buffer scratch;
    CHECK(bw_pool_scratch(pool, 0, 256 * 1024, &scratch));
    CHECK(scratch.map == NULL && (uintptr_t)scratch.ptr % 4096 == 0 && scratch.len == 256 * 1024);
    CHECK(!bw_pool_scratch(pool, 0, 512 * 1024, &scratch));
    CHECK(!bw_pool_scratch(pool, 1, 4096, &scratch));
    bw_pool_destroy(pool);
    team_destroy(t);
}

/* A latency chain's home (the sweep's home_chains): parts of a source, each lent
 * once, one after the other, only on the node asked for. */
TEST(bw_pool_lends_each_part_of_a_source_once)
{
    stop_reset();
    team *t = one_thread_team();
    bw_pool_request prq = {256 * 1024, true, true, PAGES_NORMAL, 2 << 20, NULL};
    bw_pool *pool = NULL;
    CHECK_INT(bw_pool_create(t, &prq, &pool), MEASURE_OK);
    buffer a, b, c, scratch;
    CHECK(!bw_pool_lend_source(pool, 4096, 0, &a)); /* a pool not bound to nodes: only node -1 */
    CHECK(bw_pool_lend_source(pool, 128 * 1024, -1, &a));
    CHECK(bw_pool_lend_source(pool, 64 * 1024, -1, &b));
    CHECK(!bw_pool_lend_source(pool, 128 * 1024, -1, &c)); /* 64 KiB left */
    CHECK(bw_pool_lend_source(pool, 64 * 1024, -1, &c));
    CHECK(!bw_pool_lend_source(pool, 4096, -1, &scratch));
    CHECK(a.map == NULL && a.len == 128 * 1024 && (uintptr_t)a.ptr % 4096 == 0);
    CHECK((char *)b.ptr == (char *)a.ptr + 128 * 1024 && b.len == 64 * 1024);
    CHECK((char *)c.ptr == (char *)b.ptr + 64 * 1024 && c.map == NULL);
    CHECK(bw_pool_scratch(pool, 0, 4096, &scratch) && scratch.ptr != a.ptr); /* the destination, not the source */
    bw_pool_destroy(pool);
    int node0 = 0;
    bw_pool_request bound = {64 * 1024, true, false, PAGES_NORMAL, 2 << 20, &node0};
    CHECK_INT(bw_pool_create(t, &bound, &pool), MEASURE_OK);
    CHECK(!bw_pool_lend_source(pool, 4096, 1, &a));
    CHECK(!bw_pool_lend_source(pool, 4096, -1, &a));
    CHECK(bw_pool_lend_source(pool, 4096, 0, &a) && a.len == 4096);
    bw_pool_destroy(pool);
    bw_pool_request no_src = {64 * 1024, false, true, PAGES_NORMAL, 2 << 20, NULL};
    CHECK_INT(bw_pool_create(t, &no_src, &pool), MEASURE_OK);
    CHECK(!bw_pool_lend_source(pool, 4096, -1, &a)); /* write only: no source to lend */
    bw_pool_destroy(pool);
    team_destroy(t);
}

TEST(measure_bandwidth_stops_when_asked)
{
    stop_reset();
    team *t = one_thread_team();
    bandwidth_request rq = {kernel_choose(KERNEL_SWEEP, OP_READ, STORE_ANY, "c", false), 64 * 1024, 3, 0.002,
                            PAGES_NORMAL, 2 << 20, NULL, NULL};
    CHECK(rq.k != NULL);
    if (!rq.k)
        return;
    result_record r;
    result_init(&r, "test", "read", METRIC_BANDWIDTH);
    stop_request(0);
    CHECK_INT(measure_bandwidth(t, &rq, &r), MEASURE_STOPPED);
    CHECK_INT(r.nsamples, 0);
    result_free(&r);
    stop_reset();
    team_destroy(t);
}

/* The sweep's rounds: one point visited three times keeps one calibration and
 * tags each sample with its round; kept buffers or not, the record is the same. */
TEST(bandwidth_point_spreads_samples_over_visits)
{
    stop_reset();
    team *t = one_thread_team();
    for (int keep = 0; keep <= 1; keep++) {
        bandwidth_request rq = {kernel_choose(KERNEL_SWEEP, OP_COPY, STORE_ANY, NULL, false), 64 * 1024, 3, 0.002,
                                PAGES_NORMAL, 2 << 20, NULL, NULL};
        bw_point *p = bw_point_create(&rq, 1);
        CHECK(p != NULL);
        if (!p)
            continue;
        for (int round = 1; round <= 3; round++) {
            CHECK_INT(bw_point_visit(p, t, 1, round * 10, keep), MEASURE_OK);
            CHECK(bw_point_samples(p) >= 1); /* a restart may have dropped earlier ones */
        }
        result_record r;
        result_init(&r, "test", "copy", METRIC_BANDWIDTH);
        CHECK(bw_point_fill(p, 0, &r));
        CHECK(r.sample_rounds != NULL);
        int restarts = (int)params_get_number(&r.params, "series_restarts", -1);
        if (r.sample_rounds && restarts == 0) {
            CHECK_INT(r.nsamples, 3);
            CHECK_INT(r.sample_rounds[0], 10);
            CHECK_INT(r.sample_rounds[1], 20);
            CHECK_INT(r.sample_rounds[2], 30);
            CHECK(r.complete);
        }
        for (int k = 0; k < r.nsamples && restarts < 5; k++) /* every sample lasts the minimum (restarts left) */
            CHECK(result_sample_seconds(&r, k) >= 0.002);
        for (int k = 1; k < r.nsamples && r.sample_times; k++) /* in the order taken, each after the last */
            CHECK(r.sample_times[k] >= r.sample_times[k - 1] + result_sample_seconds(&r, k) * 0.999);
        CHECK_NEAR(result_value(&r), r.summary.max, 0);
        CHECK_INT(r.pins_verified, 1);
        CHECK(r.npages >= 1);
        result_free(&r);
        bw_point_destroy(p);
    }
    team_destroy(t);
}

TEST(chase_point_takes_the_asked_samples_per_visit)
{
    stop_reset();
    team *t = one_thread_team();
    latency_request rq = {256 * 1024, {CHASE_RANDOM, 64, 0, 1, 0}, 0.001, 7, 21, 0.05, PAGES_NORMAL, 2 << 20, -1, false, NULL, false, NULL, false, NULL, 0};
    chase_point *p = chase_point_create(&rq);
    CHECK(p != NULL);
    if (!p) {
        team_destroy(t);
        return;
    }
    CHECK_INT(chase_point_visit(p, t, 3, 1, true), MEASURE_OK);
    CHECK_INT(chase_point_visit(p, t, 3, 2, false), MEASURE_OK); /* chain freed after this one */
    CHECK_INT(chase_point_visit(p, t, 3, 3, false), MEASURE_OK); /* ... and built again */
    CHECK_INT(chase_point_samples(p), 9);
    result_record r;
    result_init(&r, "test", "latency", METRIC_LATENCY);
    CHECK(chase_point_fill(p, t, &r) && chase_point_fill_rounds(p, 0, &r));
    CHECK_INT(r.nsamples, 9);
    for (int k = 0; k < 9 && r.sample_rounds; k++)
        CHECK_INT(r.sample_rounds[k], 1 + k / 3);
    CHECK_NEAR(result_value(&r), r.summary.median, 0);
    CHECK_INT(params_get_number(&r.params, "chased_bytes", 0), 256 * 1024);
    CHECK_STR(r.page_method, "normal");
    result_free(&r);
    chase_point_destroy(p);
    team_destroy(t);
}

TEST(measure_latency_median_within_sample_range)
{
    stop_reset();
    team *t = one_thread_team();
    latency_request rq = {256 * 1024, {CHASE_RANDOM, 64, 0, 1, 0}, 0.002, 7, 21, 0.05, PAGES_NORMAL, 2 << 20, -1, false, NULL, false, NULL, false, NULL, 0};
    result_record r;
    result_init(&r, "test", "latency", METRIC_LATENCY);
    CHECK_INT(measure_latency(t, &rq, &r), MEASURE_OK);
    CHECK(r.nsamples >= 7 && r.nsamples <= 21);
    CHECK(r.summary.median > 0);
    CHECK_NEAR(result_value(&r), r.summary.median, 0); /* latency reports the median */
    CHECK(r.summary.stddev >= 0);
    CHECK_INT(r.iterations, r.nsamples);
    CHECK(r.has_cv_target);
    CHECK_NEAR(r.cv_target, 0.05, 0);
    CHECK(r.converged == (r.summary.cv < 0.05)); /* at least 7 samples were taken */
    CHECK_STR(r.kernel_isa, "chase");
    CHECK_INT(params_get_number(&r.params, "chased_bytes", 0), 256 * 1024);
    result_free(&r);
    team_destroy(t);
}

TEST(result_headline_is_the_median_for_traffic_windows_and_the_best_otherwise)
{
    const double windows[] = {9000, 20000, 10000, 11000}; /* one fast window: an idle moment of the host */
    result_record r;
    result_init(&r, "peak", "R", METRIC_BANDWIDTH);
    CHECK(result_set_samples(&r, windows, 4));
    CHECK_NEAR(result_value(&r), 20000, 0); /* the sweep's and STREAM's: the best */
    CHECK_STR(result_statistic(&r), "best");
    r.median_headline = true; /* the traffic modes' windows */
    CHECK_NEAR(result_value(&r), 10500, 0);
    CHECK_STR(result_statistic(&r), "median");
    result_free(&r);
}
