/* SPDX-License-Identifier: MIT */
/* llc_probe_analyse on synthetic curves (known edges, noise, no DRAM, one level,
 * an adaptive climb), and one tiny live run. No timing is asserted. */
#include <stdint.h>
#include <string.h>

#include "measure/llc_probe.h"
#include "measure/stop.h"
#include "test.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)

/* The probe's ladder from 256 KiB: 256K 384K 512K 768K 1M 1.5M 2M 3M 4M 6M 8M
 * 12M 16M 24M 32M 48M 64M 96M 128M 192M 256M ... */
static uint64_t ladder_size(size_t i)
{
    uint64_t p = 256 * KIB << (i / 2);
    return i % 2 ? p + p / 2 : p;
}

/* A curve of n medians from 256 KiB, every batch within +-spread of its median. */
static void curve(llc_probe_result *r, const double *median, size_t n, double spread)
{
    memset(r, 0, sizeof *r);
    r->npoints = n;
    r->batches = 5;
    for (size_t i = 0; i < n; i++) {
        r->points[i].bytes = ladder_size(i);
        r->points[i].median_ns = median[i];
        r->points[i].low_ns = median[i] * (1 - spread);
        r->points[i].high_ns = median[i] * (1 + spread);
    }
}

/* The curve of medians m (batches within 3%) has its edge at llc and DRAM from dram. */
static void expect_edge_at(const char *file, int line, const double *m, size_t n, uint64_t llc, uint64_t dram)
{
    llc_probe_result r;
    curve(&r, m, n, 0.03);
    llc_probe_analyse(&r);
    if (!r.edge_found || r.llc_bytes != llc || r.dram_from_bytes != dram)
        test_fail(file, line, "edge %d at %llu, DRAM from %llu; expected %llu and %llu", r.edge_found,
                  (unsigned long long)r.llc_bytes, (unsigned long long)r.dram_from_bytes, (unsigned long long)llc,
                  (unsigned long long)dram);
}
#define expect_edge(m, n, llc, dram) expect_edge_at(__FILE__, __LINE__, m, n, llc, dram)

/* L2 (5 ns) to 1 MiB, L3 (15 ns, creeping to 18) to 32 MiB, one climb point at
 * 48 MiB, DRAM (100 ns) from 64 MiB. */
static const double three_levels[] = {5,  5,  5.1, 5.2, 5.3, 14, 14.5, 15,  15.5, 16,  16.2,
                                      16.5, 17, 17.5, 18, 60, 100, 101, 99, 100, 102};
#define N_THREE (sizeof three_levels / sizeof three_levels[0])

TEST(llc_probe_three_levels_edge_is_the_top_step)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.03);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.llc_low_bytes, 32 * MIB);
    CHECK_INT(r.llc_high_bytes, 48 * MIB);
    CHECK(r.dram_found);
    CHECK_INT(r.dram_from_bytes, 64 * MIB);
    CHECK_NEAR(r.dram_ns, 100, 1e-9);
    CHECK_NEAR(r.llc_ns, 16.2, 1e-9); /* median of the plateau's medians (14 ns is outside its band) */
    CHECK(r.sure);
    CHECK_CONTAINS(r.why, "LLC 32 MiB");
    CHECK_CONTAINS(r.why, "sure");
}

/* A sharp step: the last L3 point is followed at once by DRAM. */
TEST(llc_probe_sharp_step_brackets_the_edge)
{
    static const double m[] = {4, 4, 4, 4, 30, 30, 31, 32, 33, 34, 110, 112, 111, 110};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.05);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 6 * MIB);
    CHECK_INT(r.llc_low_bytes, 6 * MIB);
    CHECK_INT(r.llc_high_bytes, 8 * MIB);
    CHECK_INT(r.dram_from_bytes, 8 * MIB);
    CHECK(r.sure);
}

/* The plateau's top point rises more than a plateau's neighbours do (41 -> 48)
 * but stays within its band: still served by the cache, so it is the edge. */
TEST(llc_probe_plateau_top_within_band_is_kept)
{
    static const double m[] = {4, 4, 4, 4, 40, 40, 40.5, 41, 48, 110, 112, 111, 110};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 4 * MIB);
    CHECK_INT(r.llc_high_bytes, 6 * MIB);
    CHECK_INT(r.dram_from_bytes, 6 * MIB);
}

/* A shelf just below DRAM (within LLC_PROBE_STEP of it: page walks, a far
 * node) is no cache: the LLC is the plateau below it. */
TEST(llc_probe_shelf_just_below_dram_is_not_a_cache)
{
    static const double m[] = {5, 5, 5, 5, 40, 40, 41, 41, 81, 82, 100, 101, 100};
    expect_edge(m, sizeof m / sizeof m[0], 3 * MIB, 8 * MIB);
}

/* Two sizes at 85 ns, well below a 130 ns DRAM but over the floor no cache
 * reaches (a climb that paused, a slow phase): not the LLC. */
TEST(llc_probe_no_cache_plateau_over_the_floor)
{
    static const double m[] = {5, 5, 5, 5, 40, 40, 41, 41, 85, 86, 130, 131, 130};
    expect_edge(m, sizeof m / sizeof m[0], 3 * MIB, 8 * MIB);
}

/* A fast machine (L3 10 ns, DRAM 62 ns) whose climb stays under the floor: the
 * climb's points rise more than a plateau's neighbours do, so none is the LLC. */
TEST(llc_probe_climb_under_the_floor_is_not_a_plateau)
{
    static const double m[] = {2, 2, 2, 2, 10, 10, 10.5, 11, 14, 17, 21, 30, 62, 63, 62};
    expect_edge(m, sizeof m / sizeof m[0], 3 * MIB, 16 * MIB);
}

/* The same machine with a shelf at 50 ns: under the floor, but within
 * LLC_PROBE_STEP of DRAM, so no cache. */
TEST(llc_probe_shelf_within_step_of_a_fast_dram)
{
    static const double m[] = {2, 2, 2, 2, 10, 10, 10.5, 11, 50, 51, 62, 63, 62};
    expect_edge(m, sizeof m / sizeof m[0], 3 * MIB, 8 * MIB);
}

/* The whole range fits a cache (this host's L3 with a small max): no DRAM plateau
 * may be claimed, and the L2 step must not be taken for the LLC. */
TEST(llc_probe_no_dram_plateau_when_the_top_is_a_cache)
{
    static const double m[] = {5, 5, 5, 5, 5, 30, 38, 40, 40, 41, 41, 42, 42, 42, 43, 43};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(!r.edge_found);
    CHECK(!r.dram_found);
    CHECK(!r.sure);
    CHECK_INT(r.llc_bytes, 0);
    CHECK_CONTAINS(r.why, "no DRAM plateau up to 48 MiB");
}

TEST(llc_probe_no_dram_plateau_while_still_climbing)
{
    static const double m[] = {5, 5, 5, 5, 20, 20, 21, 21, 22, 40, 70};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(!r.edge_found);
    CHECK(!r.dram_found);
    CHECK_CONTAINS(r.why, "still climbing");
}

/* The edge point's slowest batch overlaps its neighbour's fastest: the step is
 * placed by the fastest batches, but the bracket widens and sure is false. */
TEST(llc_probe_noisy_edge_is_unsure)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.03);
    r.points[14].high_ns = 70; /* 32 MiB: one slow batch, above 48 MiB's fastest (58.2) */
    r.points[14].median_ns = 19;
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.llc_high_bytes, 64 * MIB); /* the first size wholly above 70 ns */
    CHECK_INT(r.llc_low_bytes, 32 * MIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "unsure: batches overlap at the edge");

    /* One batch of the edge point as slow as DRAM: no size above is told apart
     * from it (the bracket's top is the largest size), and the last size told
     * apart from that one is 24 MiB. */
    curve(&r, three_levels, N_THREE, 0.03);
    r.points[14].high_ns = 99.5;
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.llc_low_bytes, 24 * MIB);
    CHECK_INT(r.llc_high_bytes, 256 * MIB);
    CHECK(!r.sure);

    /* A batch inside the plateau as slow as DRAM: the edge is clean, but one
     * plateau size was not always served by the cache. */
    curve(&r, three_levels, N_THREE, 0.03);
    r.points[9].high_ns = 99.5;
    llc_probe_analyse(&r);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.llc_high_bytes, 48 * MIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "cache and DRAM batches overlap");
}

/* A slow phase lifts the median of the plateau's top size; its fastest batch
 * still says the cache served it, so the edge stays at 32 MiB. */
TEST(llc_probe_edge_read_from_fastest_batches)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.03);
    r.points[14].median_ns = 50;
    r.points[14].high_ns = 57;
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.dram_from_bytes, 64 * MIB);
}

/* The largest sizes are slower in every batch (far memory, or a slow phase that
 * caught them all): they do not move the DRAM plateau's start, but leave its
 * spread too wide to be sure. */
TEST(llc_probe_slow_top_sizes_stay_on_the_dram_plateau)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.01);
    for (size_t i = N_THREE - 2; i < N_THREE; i++) {
        r.points[i].median_ns = 150;
        r.points[i].low_ns = 148;
        r.points[i].high_ns = 152;
    }
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.dram_from_bytes, 64 * MIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "unsure: DRAM plateau spread");
}

/* A long climb and a short DRAM plateau: the climb points (over 50 ns, so no
 * cache's) must not pull the DRAM level down into the climb. */
TEST(llc_probe_climb_points_do_not_set_the_dram_level)
{
    static const double m[] = {5, 5, 5, 5, 40, 40, 41, 41, 57, 67, 80, 96, 113, 113};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 3 * MIB);
    CHECK_INT(r.dram_from_bytes, 12 * MIB);
    CHECK(!r.sure);
}

/* As many sizes at 100 ns as at 150: the faster band is DRAM, the slower its
 * slow part, and the plateau starts at the first 100 ns size. */
TEST(llc_probe_dram_level_tie_goes_to_the_faster_band)
{
    static const double m[] = {5, 5, 5, 5, 40, 40, 41, 41, 100, 100, 150, 150};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK_INT(r.llc_bytes, 3 * MIB);
    CHECK_INT(r.dram_from_bytes, 4 * MIB);
    CHECK_NEAR(r.dram_ns, 125, 1e-9);
}

/* L2, then three sizes between it and DRAM (this Xeon guest: an L3 of one or two
 * ladder sizes, 27 and 40 ns): the L2 is the last plateau the ladder shows, but a
 * level may hide in the climb, so not sure. */
TEST(llc_probe_long_climb_is_unsure)
{
    static const double m[] = {5, 5, 5, 5, 9, 27, 40, 130, 139, 139, 140};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.02);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 768 * KIB);
    CHECK_INT(r.llc_high_bytes, 1 * MIB);
    CHECK_INT(r.dram_from_bytes, 3 * MIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "unsure: long climb to DRAM");
}

/* Just DRAM over the whole range. */
TEST(llc_probe_single_plateau_is_one_level)
{
    static const double m[] = {100, 102, 101, 99, 100, 103, 101, 100};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(!r.edge_found);
    CHECK(r.dram_found);
    CHECK_INT(r.dram_from_bytes, 256 * KIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "one level");
}

/* One flat cache level over the whole range: a cache, not DRAM. */
TEST(llc_probe_single_fast_plateau_is_a_cache)
{
    static const double m[] = {12, 12, 12.5, 12, 13, 12.5, 13, 13};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(!r.edge_found);
    CHECK(!r.dram_found);
    CHECK_CONTAINS(r.why, "are a cache's");
}

/* An adaptive replacement policy: past 32 MiB a share of the lines still hits,
 * so latency climbs over several sizes. The edge is the plateau's last point, not
 * a point of the climb; the DRAM plateau starts where the climb has flattened
 * within the band, and the long climb leaves the result unsure. */
TEST(llc_probe_adaptive_climb_edge_is_the_plateau_end)
{
    static const double m[] = {5, 5, 5, 5, 5, 38, 39, 39, 40, 40, 40, 40, 41, 41, 41,
                               68, 82, 96, 103, 110, 110};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.03);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.llc_high_bytes, 48 * MIB);
    CHECK_INT(r.dram_from_bytes, 96 * MIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "unsure: long climb to DRAM");
}

/* DRAM plateau sizes whose medians differ by 12%: within the band, not sure. */
TEST(llc_probe_dram_spread_is_unsure)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.03);
    r.points[17].median_ns = 112;
    r.points[17].low_ns = 108.6;
    r.points[17].high_ns = 115;
    llc_probe_analyse(&r);
    CHECK_INT(r.llc_bytes, 32 * MIB);
    CHECK_INT(r.dram_from_bytes, 64 * MIB);
    CHECK(!r.sure);
    CHECK_CONTAINS(r.why, "unsure: DRAM plateau spread");
}

/* A climb of one sharp point then a slow rise: still only the top plateau counts. */
TEST(llc_probe_gradual_climb_points_are_not_a_plateau)
{
    static const double m[] = {5, 5, 5, 5, 40, 40, 41, 41, 55, 66, 80, 97, 110, 112, 111};
    llc_probe_result r;
    curve(&r, m, sizeof m / sizeof m[0], 0.02);
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 3 * MIB);
    CHECK_INT(r.llc_high_bytes, 4 * MIB);
    CHECK_INT(r.dram_from_bytes, 12 * MIB);
}

TEST(llc_probe_too_few_points)
{
    static const double m[] = {5, 100};
    llc_probe_result r;
    curve(&r, m, 2, 0.01);
    llc_probe_analyse(&r);
    CHECK(!r.edge_found);
    CHECK(!r.dram_found);
    CHECK_CONTAINS(r.why, "too few sizes");
}

TEST(llc_probe_two_batches_are_never_sure)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.03);
    r.batches = 2;
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK(!r.sure);
}

/* Live: a tiny range, only the shape of the answer. */
TEST(llc_probe_live_smoke)
{
    llc_probe_config cfg = {4 * KIB, 4 * MIB, 0.05, 1};
    static llc_probe_result r;
    char err[200] = "";
    CHECK(llc_probe_run(&cfg, &r, err, sizeof err));
    CHECK(r.npoints >= 3);
    /* Under an emulator the hard limit may end the batches early: at least the
     * second batch always runs, and fewer than 3 are never "sure". */
    CHECK(r.batches >= 2);
    if (r.batches < 3)
        CHECK(!r.sure);
    for (size_t i = 0; i < r.npoints; i++) {
        CHECK(r.points[i].bytes > 0);
        CHECK(r.points[i].median_ns > 0);
        CHECK(r.points[i].low_ns > 0 && r.points[i].low_ns <= r.points[i].median_ns);
        CHECK(r.points[i].high_ns >= r.points[i].median_ns);
        if (i > 0)
            CHECK(r.points[i].bytes > r.points[i - 1].bytes);
    }
    CHECK(r.points[r.npoints - 1].bytes <= 4 * MIB);
}

TEST(llc_probe_stop_returns_false)
{
    llc_probe_config cfg = {4 * KIB, 4 * MIB, 0.05, 1};
    static llc_probe_result r;
    char err[200] = "";
    stop_request(0);
    bool ok = llc_probe_run(&cfg, &r, err, sizeof err);
    stop_reset();
    CHECK(!ok);
    CHECK_CONTAINS(err, "stopped");
}

/* This Xeon guest's curve (fastest batches of a probe to 96 MiB, 2026-11-28): L2 to
 * 768 KiB, a climb through 1-3 MiB, the L3 only at 4 MiB (39 ns: too short on the
 * ladder for a plateau), DRAM (~122 ns) from 6 MiB. The plateau rule names the L2;
 * served_bytes still says a cache served 4 MiB, so DRAM buffers pass it. */
TEST(llc_probe_served_bytes_passes_a_level_too_short_for_a_plateau)
{
    static const double xeon[] = {5.37, 5.43, 6.01, 5.42, 6.87, 8.69, 17.6, 32.9, 39.1,
                                  120.6, 119.0, 122.8, 124.0, 123.2, 121.9, 124.4, 121.5, 125.0};
    llc_probe_result r;
    curve(&r, xeon, sizeof xeon / sizeof xeon[0], 0);
    for (size_t i = 0; i < r.npoints; i++) /* the batches' medians lie above their fastest */
        r.points[i].median_ns = r.points[i].high_ns = r.points[i].low_ns * 1.05;
    llc_probe_analyse(&r);
    CHECK(r.edge_found);
    CHECK_INT(r.llc_bytes, 768 * KIB);
    CHECK(r.dram_found);
    CHECK_INT(r.dram_from_bytes, 6 * MIB);
    CHECK_INT(r.served_bytes, 4 * MIB);
}

/* On a clean curve the largest size served is the plateau's edge. */
TEST(llc_probe_served_bytes_is_the_edge_on_a_clean_curve)
{
    llc_probe_result r;
    curve(&r, three_levels, N_THREE, 0.03);
    llc_probe_analyse(&r);
    CHECK_INT(r.served_bytes, 32 * MIB); /* the climb point (60 ns) is over the floor no cache reaches */
}
