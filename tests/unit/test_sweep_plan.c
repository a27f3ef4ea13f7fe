/* SPDX-License-Identifier: MIT */
#include "fixtures.h"
#include "kernels/chase.h"
#include "plan/sweep_estimate.h"
#include "plan/sweep_plan.h"
#include "test.h"

#define KB 1024ULL
#define MB (1024ULL * 1024ULL)

static void check_sizes(const size_plan *p, const uint64_t *expect, size_t n)
{
    CHECK_INT(p->n, n);
    for (size_t i = 0; i < n && i < p->n; i++)
        if (p->points[i].bytes != expect[i])
            test_fail(__FILE__, __LINE__, "point %zu is %llu KB, expected %llu KB", i,
                      (unsigned long long)(p->points[i].bytes / KB), (unsigned long long)(expect[i] / KB));
}

TEST(plan_rounding)
{
    CHECK_INT(round_down_pow2(24 * KB), 16 * KB);
    CHECK_INT(round_down_pow2(32 * KB), 32 * KB);
    CHECK_INT(round_up_pow2(96 * KB), 128 * KB);
    CHECK_INT(round_up_pow2(64 * KB), 64 * KB);
    CHECK_INT(round_down_pow2(0), 0);
    CHECK_INT(round_up_pow2(1), 1);
}

TEST(plan_one_thread_per_socket_sees_whole_l3)
{
    topology t;
    topology_load(fixture_two_socket_smt(), NULL, &t);
    int cpus[] = {0, 4};
    size_plan p;
    sweep_plan_sizes(&t, cpus, 2, false, 64ULL << 30, 2, &p);
    /* L1 48K: 16K (24K down), 128K (96K up); L2 2M: 1M, 2M, 4M; L3 32M: 8M, 16M, 32M;
     * DRAM: the threads reach both sockets' L3s, 4 x 64M over 2 threads = 128M */
    uint64_t expect[] = {16 * KB, 128 * KB, 1 * MB, 2 * MB, 4 * MB, 8 * MB, 16 * MB, 32 * MB, 128 * MB};
    check_sizes(&p, expect, 9);
    CHECK_INT(p.sharers[3], 1);
    CHECK_CONTAINS(p.points[0].reason, "L1/2");
    CHECK_CONTAINS(p.points[8].reason, "DRAM: all threads together at least 4x L3 32 MiB x 2 (sysfs) = 256 MiB");
    CHECK(p.points[8].dram && !p.points[8].may_fit_cache && !p.points[7].dram);
    CHECK_INT(p.dram_point, 128 * MB);
    /* both threads on one socket reach one L3: 4 x 32M over 2 threads = 64M */
    int same[] = {0, 1};
    sweep_plan_sizes(&t, same, 2, false, 64ULL << 30, 2, &p);
    CHECK_INT(p.points[p.n - 1].bytes, 64 * MB);
    CHECK(p.points[p.n - 1].dram);
    topology_free(&t);
}

TEST(plan_l3_share_divides_by_threads_on_the_same_cache)
{
    topology t;
    topology_load(fixture_two_socket_smt(), NULL, &t);
    int cpus[16] = {0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15};
    size_plan p;
    sweep_plan_sizes(&t, cpus, 16, false, 1ULL << 40, 2, &p);
    /* 8 threads per L3: 32M/8 = 4M share; 2 threads per core: L1 24K, L2 1M */
    CHECK_INT(p.sharers[1], 2);
    CHECK_INT(p.sharers[3], 8);
    CHECK_INT(p.share[3], 4 * MB);
    uint64_t expect[] = {8 * KB, 64 * KB, 512 * KB, 1 * MB, 2 * MB, 4 * MB, 16 * MB};
    /* L1/2=12K->8K, 2xL1=48K->64K, L2/2=512K, L2=1M, 2xL2=2M, L3/4 skipped (4M !> 4M),
       L3/2=2M dup, L3=4M, DRAM: 4 x 2 x 32M over 16 threads = 16M */
    check_sizes(&p, expect, 7);
    CHECK_CONTAINS(p.points[5].reason, "L3 32 MiB (sysfs) / 8 threads = 4 MiB");
    topology_free(&t);
}

TEST(plan_memory_budget_drops_large_points)
{
    topology t;
    topology_load(fixture_two_socket_smt(), NULL, &t);
    int cpus[] = {0, 4};
    size_plan p;
    sweep_plan_sizes(&t, cpus, 2, false, 100 * MB, 2, &p); /* 25 MB per buffer */
    CHECK_INT(p.max_bytes, 25 * MB);
    CHECK_INT(p.n, 7);
    CHECK_INT(p.dropped, 1); /* L3 (32M); the DRAM point is capped instead (16M), not dropped */
    CHECK(p.points[p.n - 1].bytes <= p.max_bytes);
    CHECK(p.dram_capped);
    CHECK(p.points[p.n - 1].dram && p.points[p.n - 1].may_fit_cache); /* 2 x 16M < 4 x 64M */
    CHECK_CONTAINS(p.points[p.n - 1].reason, "DRAM, capped by the memory budget");
    topology_free(&t);
}

TEST(plan_full_sweep_adds_ram_sizes_up_to_budget)
{
    topology t;
    topology_load(fixture_arm_no_l3(), NULL, &t);
    int cpus[] = {0};
    size_plan p;
    sweep_plan_sizes(&t, cpus, 1, true, 6ULL << 30, 2, &p); /* 3 GiB per buffer */
    /* default L3 8M: ... 8M, DRAM at the 1G floor (no source), then -f's 512M, 2G */
    CHECK_INT(p.points[p.n - 1].bytes, 2ULL << 30);
    CHECK_INT(p.points[p.n - 3].bytes, 512 * MB);
    CHECK_INT(p.points[p.n - 2].bytes, 1ULL << 30);
    CHECK_CONTAINS(p.points[p.n - 2].reason, "no source describes L3: the 1 GiB floor");
    CHECK_CONTAINS(p.points[p.n - 1].reason, "-f");
    CHECK_CONTAINS(p.points[0].reason, "L1 64 KiB");
    for (size_t i = 1; i < p.n; i++)
        CHECK(p.points[i].bytes > p.points[i - 1].bytes);
    CHECK_INT(p.full_points, 2);
    /* A budget below where -f starts (a small cgroup): -f adds nothing, and says so. */
    sweep_plan_sizes(&t, cpus, 1, true, 300 * MB, 1, &p);
    CHECK_INT(p.full_points, 0);
    CHECK(p.points[p.n - 1].bytes <= 300 * MB);
    topology_free(&t);
}

TEST(plan_max_size_leaves_out_the_larger_points_in_order)
{
    topology t;
    topology_load(fixture_two_socket_smt(), NULL, &t);
    int cpus[] = {0, 4};
    size_plan p;
    sweep_plan_sizes(&t, cpus, 2, false, 64ULL << 30, 2, &p);
    /* --max-size 8M: 16K .. 8M stay (8M itself included), 16M, 32M and the DRAM point go */
    CHECK_INT(sweep_plan_cap(&p, 8 * MB), 3);
    uint64_t expect[] = {16 * KB, 128 * KB, 1 * MB, 2 * MB, 4 * MB, 8 * MB};
    check_sizes(&p, expect, 6);
    CHECK_CONTAINS(p.points[5].reason, "L3/4");
    for (size_t i = 0; i < p.n; i++)
        CHECK(!p.points[i].dram);
    /* a cap at or above every point leaves the plan as it was */
    sweep_plan_sizes(&t, cpus, 2, false, 64ULL << 30, 2, &p);
    CHECK_INT(sweep_plan_cap(&p, 128 * MB), 0);
    CHECK_INT(p.n, 9);
    CHECK(p.points[8].dram);
    /* below the smallest point: nothing left */
    CHECK_INT(sweep_plan_cap(&p, 8 * KB), 9);
    CHECK_INT(p.n, 0);
    topology_free(&t);
}

TEST(plan_tiny_budget_still_has_a_point_or_none)
{
    topology t;
    topology_load(fixture_arm_no_l3(), NULL, &t);
    int cpus[] = {0};
    size_plan p;
    sweep_plan_sizes(&t, cpus, 1, false, 64 * KB, 1, &p);
    CHECK(p.n >= 1);
    CHECK(p.points[p.n - 1].bytes <= 64 * KB);
    sweep_plan_sizes(&t, cpus, 1, false, 0, 1, &p);
    CHECK_INT(p.n, 0);
    topology_free(&t);
}

/* The estimate's chains: a latency chain is linked by the chasing thread and the
 * touch threads beside it, in parts of at least CHASE_LINK_MIN_PART
 * (measure/latency.c), a DRAM point's full random chain too. */
static double chains_s(uint64_t bytes, int touch_threads, bool random)
{
    estimate_point p = {.bytes = bytes, .streams = 0, .keep = true, .random = random};
    estimate_request rq = {.points = &p, .n = 1, .threads = 1, .packages = 1, .rounds = 3, .latency_rounds = 3,
                           .latency_per_visit = 1, .latency_sample_s = 0.01, .line_size = 64,
                           .touch_threads = touch_threads};
    sweep_estimate e;
    sweep_estimate_time(&rq, &e);
    return e.chains_s;
}

TEST(estimate_links_a_chain_on_the_touch_threads_in_parts)
{
    double one = (double)(1024 * MB) / EST_LINK_BYTES_S;
    CHECK_NEAR(chains_s(1024 * MB, 0, false), one, 1e-9); /* kept: linked once, in round 1 */
    CHECK_NEAR(chains_s(1024 * MB, 1, false), one, 1e-9);
    CHECK_NEAR(chains_s(1024 * MB, 2, false), one / 2, 1e-9);
    CHECK_NEAR(chains_s(1024 * MB, 2, true), one, 1e-9); /* two chains, each in two parts */
    CHECK_NEAR(chains_s(1024 * MB, 8, false), one / 8, 1e-9);
    /* parts of at least CHASE_LINK_MIN_PART */
    CHECK_NEAR(chains_s(3 * CHASE_LINK_MIN_PART, 8, false), (double)CHASE_LINK_MIN_PART / EST_LINK_BYTES_S, 1e-12);
    CHECK_NEAR(chains_s(CHASE_LINK_MIN_PART, 8, false), (double)CHASE_LINK_MIN_PART / EST_LINK_BYTES_S, 1e-12);
    CHECK_NEAR(chains_s(4 * MB, 8, false), (double)(4 * MB) / EST_LINK_BYTES_S, 1e-12);
}
