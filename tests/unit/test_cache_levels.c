/* SPDX-License-Identifier: MIT */
/* measure/cache_levels on synthetic curves and hand-made steps: inner levels take
 * the nearest step, the last level the dominant one; checkable and disagrees at
 * their boundaries. */
#include <math.h>

#include "measure/cache_estimate.h"
#include "measure/cache_levels.h"
#include "fixtures.h"
#include "test.h"

#define KB 1024ULL
#define MB (1024ULL * 1024ULL)

/* Four points per octave from 4 KiB to 64 MiB (exact at each power of two); the
 * latency at size s is lat_at(s). */
static size_t curve(uint64_t *sizes, double *lat, double (*lat_at)(uint64_t))
{
    size_t n = 0;
    for (int k = 0; k <= 4 * 14; k++) {
        sizes[n] = (uint64_t)llround(4096.0 * pow(2.0, k / 4.0));
        lat[n] = lat_at(sizes[n]) * (1 + 0.02 * (double)(n % 3)); /* a little noise */
        n++;
    }
    return n;
}

/* A guest told it has a 32 MiB L3: it really gets 4 MiB (the big climb to DRAM);
 * the rest of the shared L3, kept full by other tenants, is only a small step. */
static double guest(uint64_t s)
{
    return s <= 32 * KB ? 1 : s <= 1 * MB ? 4 : s <= 4 * MB ? 14 : s <= 32 * MB ? 80 : 110;
}

/* Textbook: 32K / 1M / 8M, and DRAM. */
static double textbook(uint64_t s)
{
    return s <= 32 * KB ? 1 : s <= 1 * MB ? 4 : s <= 8 * MB ? 15 : 100;
}

static latency_step step(uint64_t before, uint64_t after, double lat_before, double lat_after)
{
    latency_step s = {before, after, lat_before, lat_after, after};
    return s;
}

TEST(cache_levels_textbook_curve_agrees)
{
    uint64_t sizes[64];
    double lat[64];
    latency_step steps[MAX_LATENCY_STEPS];
    size_t n = curve(sizes, lat, textbook);
    size_t nsteps = fixture_latency_steps(sizes, lat, n, steps);
    CHECK_INT(nsteps, 3);
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 1 * MB}, {3, 8 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, n, steps, nsteps, levels, 3, c), 3);
    for (int i = 0; i < 3; i++) {
        CHECK_INT(c[i].level, i + 1);
        CHECK_INT(c[i].reported, levels[i].size);
        CHECK(c[i].step == &steps[i]); /* the dominant step is the last one here */
        CHECK(c[i].checkable);
        CHECK(!c[i].disagrees);
    }
}

TEST(cache_levels_top_level_takes_the_dominant_step_not_the_nearest)
{
    uint64_t sizes[64];
    double lat[64];
    latency_step steps[MAX_LATENCY_STEPS];
    size_t n = curve(sizes, lat, guest);
    size_t nsteps = fixture_latency_steps(sizes, lat, n, steps);
    CHECK_INT(nsteps, 4);
    CHECK_INT(steps[2].last_size_before, 4 * MB);
    CHECK_INT(steps[3].last_size_before, 32 * MB);
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 1 * MB}, {3, 32 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, n, steps, nsteps, levels, 3, c), 3);
    CHECK(c[0].step == &steps[0]);
    CHECK(!c[0].disagrees);
    CHECK(c[1].step == &steps[1]); /* inner levels: nearest, not dominant */
    CHECK(!c[1].disagrees);
    CHECK(c[2].step == &steps[2]); /* nearest would be steps[3], at 32M */
    CHECK(c[2].checkable);
    CHECK(c[2].disagrees); /* 4M measured against 32M reported */
    CHECK(dominant_step(steps, nsteps) == &steps[2]);
}

TEST(cache_levels_dominant_step_first_or_last)
{
    latency_step s[] = {step(32 * KB, 40 * KB, 1, 10), step(1 * MB, 1200 * KB, 10, 20),
                        step(8 * MB, 10 * MB, 20, 400)};
    CHECK(dominant_step(s, 0) == NULL);
    CHECK(dominant_step(s, 1) == &s[0]);
    CHECK(dominant_step(s, 2) == &s[0]); /* x10 before x2: x2 is no candidate, though it adds 10 ns to 9 */
    CHECK(dominant_step(s, 3) == &s[2]); /* the last step is a candidate too */
    latency_step tie[] = {step(32 * KB, 40 * KB, 2, 8), step(1 * MB, 1200 * KB, 4, 10)};
    CHECK(dominant_step(tie, 2) == &tie[0]); /* the first of equals (6 ns each, x4 and x2.5) */
    /* A candidate at exactly half the steepest climb counts; just below, it does not. */
    latency_step half[] = {step(32 * KB, 40 * KB, 1, 6), step(1 * MB, 1200 * KB, 10, 30)};
    CHECK(dominant_step(half, 2) == &half[1]); /* x3 is half of x6: 20 ns beat 5 */
    half[1].latency_after_ns = 29.9;
    CHECK(dominant_step(half, 2) == &half[0]);

    /* The top level is L2 here: it takes steps[0] (the x10 climb), 32x off. Neither
     * the step into DRAM nor the one after it is an inner level's: L1 has none. */
    uint64_t sizes[] = {4 * KB, 16 * KB, 64 * KB, 256 * KB, 1 * MB, 4 * MB};
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 1 * MB}};
    level_check c[2];
    CHECK_INT(check_cache_levels(sizes, 6, s, 2, levels, 2, c), 2);
    CHECK(c[0].step == NULL);
    CHECK(c[0].checkable && c[0].disagrees);
    CHECK(c[1].step == &s[0]);
    CHECK(c[1].checkable);
    CHECK(c[1].disagrees);
}

/* The Zen 4 guest's curve (BENCHMARKS "A second host"): its chase gets about 2.4 MiB
 * of a reported 32 MiB L3. The step into DRAM, after 2436 KiB, is nearer the
 * reported 1 MiB L2 than the TLB-and-L2 climb after 216 KiB, but it is the L3's:
 * the L2 takes the other step. */
TEST(cache_levels_no_inner_level_takes_the_step_into_dram)
{
    latency_step s[] = {step(16 * KB, 40 * KB, 1.1, 3.8), step(216 * KB, 1724 * KB, 3.8, 14.8),
                        step(2436 * KB, 11584 * KB, 14.7, 143.6)};
    uint64_t sizes[] = {4 * KB, 64 * KB, 1 * MB, 64 * MB};
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 1 * MB}, {3, 32 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, 4, s, 3, levels, 3, c), 3);
    CHECK(c[0].step == &s[0] && !c[0].disagrees);
    CHECK(c[1].step == &s[1]); /* not s[2], though 1 MiB is nearer 2436 KiB than 216 KiB */
    CHECK(c[1].disagrees);     /* 216 KiB: the TLB's climb starts before the L2's edge on 4 KiB pages */
    CHECK(c[2].step == &s[2] && c[2].disagrees);
    /* A TLB climb past DRAM's (after 19 MiB, x1.3) is no inner level's either: the
     * L2 without a step of its own below DRAM's has none. */
    latency_step past[] = {step(16 * KB, 40 * KB, 1.1, 3.8), step(2436 * KB, 11584 * KB, 14.7, 143.6),
                           step(19484 * KB, 23172 * KB, 116.7, 149.1)};
    CHECK_INT(check_cache_levels(sizes, 4, past, 3, levels, 3, c), 3);
    CHECK(c[0].step == &past[0]);
    CHECK(c[1].step == NULL && c[1].disagrees);
    CHECK(c[2].step == &past[1]);
}

/* A curve that stops short of the last level (4 KiB to 256 KiB, a 32 MiB L3): its
 * dominant step is no step into DRAM but the L1's, and the L1 takes it. */
TEST(cache_levels_a_short_curve_gives_its_dominant_step_to_an_inner_level)
{
    latency_step s[] = {step(32 * KB, 44 * KB, 1.13, 4.09)};
    uint64_t sizes[] = {4 * KB, 16 * KB, 64 * KB, 256 * KB};
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 1 * MB}, {3, 32 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, 4, s, 1, levels, 3, c), 3);
    CHECK(c[0].step == &s[0] && c[0].checkable && !c[0].disagrees);
    CHECK(!c[1].checkable && !c[2].checkable);
    CHECK(c[2].step == &s[0]); /* the last level still names the dominant step, unchecked */
}

/* A noisy curve of the same guest found one step below DRAM's, at 16 KiB. It is the
 * L1's (1 octave from 32 KiB), not the L2's too (6 from 1 MiB): the L2 has none. A
 * step between two levels goes to the nearer. */
TEST(cache_levels_a_step_is_one_levels_edge)
{
    latency_step s[] = {step(16 * KB, 40 * KB, 1.2, 4.1), step(180 * KB, 46340 * KB, 4.0, 187.2)};
    uint64_t sizes[] = {4 * KB, 64 * KB, 1 * MB, 64 * MB};
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 1 * MB}, {3, 16 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, 4, s, 2, levels, 3, c), 3);
    CHECK(c[0].step == &s[0] && !c[0].disagrees);
    CHECK(c[1].step == NULL && c[1].checkable && c[1].disagrees); /* no step found */
    CHECK(c[2].step == &s[1]);
    /* A step after 182 KiB is nearer 1 MiB (2.49 octaves) than 32 KiB (2.51): the
     * L2's. After 180 KiB it is nearer the L1 (2.49 against 2.51), which keeps its
     * nearer 16 KiB step, and the L2 has none. */
    latency_step mid[] = {step(16 * KB, 40 * KB, 1.2, 4.1), step(182 * KB, 300 * KB, 4.1, 15),
                          step(8 * MB, 16 * MB, 15, 150)};
    CHECK_INT(check_cache_levels(sizes, 4, mid, 3, levels, 3, c), 3);
    CHECK(c[0].step == &mid[0]);
    CHECK(c[1].step == &mid[1]);
    mid[1].last_size_before = 180 * KB;
    CHECK_INT(check_cache_levels(sizes, 4, mid, 3, levels, 3, c), 3);
    CHECK(c[0].step == &mid[0]); /* the L1's nearest of its two */
    CHECK(c[1].step == NULL);
}

/* The step is compared by its capacity (last_size_before), at exactly the factor. */
TEST(cache_levels_disagreement_factor_boundaries)
{
    uint64_t sizes[] = {4 * KB, 64 * MB};
    reported_cache_level at_factor[] = {{1, 64 * KB}, {2, 1 * MB}};
    /* L1's step at 128K = 2x (its climb ends at 192K); the top's at 512K = 1/2x. */
    latency_step s[] = {step(128 * KB, 192 * KB, 1, 3), step(512 * KB, 600 * KB, 3, 30)};
    level_check c[2];
    CHECK_INT(check_cache_levels(sizes, 2, s, 2, at_factor, 2, c), 2);
    CHECK(c[0].step == &s[0] && !c[0].disagrees);
    CHECK(c[1].step == &s[1] && !c[1].disagrees);

    /* One byte further out on either side is more than the factor off. */
    reported_cache_level beyond[] = {{1, 64 * KB - 1}, {2, 1 * MB + 1}};
    CHECK_INT(check_cache_levels(sizes, 2, s, 2, beyond, 2, c), 2);
    CHECK(c[0].step == &s[0] && c[0].disagrees);
    CHECK(c[1].step == &s[1] && c[1].disagrees);
    CHECK(CACHE_LEVEL_FACTOR == 2.0);
}

/* Checkable: the measured sizes reach the factor below and above the reported size. */
TEST(cache_levels_checkable_needs_the_curve_around_the_size)
{
    uint64_t sizes[] = {16 * KB, 32 * KB, 48 * KB, 64 * KB};
    const latency_step *none = NULL;
    reported_cache_level l32[] = {{1, 32 * KB}};
    reported_cache_level l33[] = {{1, 33 * KB}}; /* 66K: beyond the end */
    reported_cache_level l31[] = {{1, 31 * KB}}; /* 15.5K: before the start */
    level_check c[1];
    CHECK_INT(check_cache_levels(sizes, 4, none, 0, l32, 1, c), 1);
    CHECK(c[0].checkable);
    CHECK(c[0].step == NULL);
    CHECK(c[0].disagrees); /* checkable and no step at all */
    CHECK_INT(check_cache_levels(sizes, 4, none, 0, l33, 1, c), 1);
    CHECK(!c[0].checkable);
    CHECK(!c[0].disagrees); /* not checkable never disagrees */
    CHECK_INT(check_cache_levels(sizes, 4, none, 0, l31, 1, c), 1);
    CHECK(!c[0].checkable);
    CHECK(!c[0].disagrees);
    CHECK_INT(check_cache_levels(sizes, 0, none, 0, l32, 1, c), 1); /* no curve at all */
    CHECK(!c[0].checkable);
    CHECK(!c[0].disagrees);
}

/* A level of size 0 gets no check; the others keep their level numbers and order. */
TEST(cache_levels_unreported_levels_are_skipped)
{
    uint64_t sizes[] = {4 * KB, 64 * MB};
    latency_step s[] = {step(32 * KB, 40 * KB, 1, 4), step(8 * MB, 10 * MB, 4, 100)};
    reported_cache_level levels[] = {{1, 32 * KB}, {2, 0}, {3, 8 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, 2, s, 2, levels, 3, c), 2);
    CHECK_INT(c[0].level, 1);
    CHECK(c[0].step == &s[0]);
    CHECK_INT(c[1].level, 3);
    CHECK_INT(c[1].reported, 8 * MB);
    CHECK(c[1].step == &s[1]);
    CHECK(!c[0].disagrees && !c[1].disagrees);
    CHECK_INT(check_cache_levels(sizes, 2, s, 2, levels, 0, c), 0);
    /* The level numbers are the caller's, not positions. */
    CHECK_INT(check_cache_levels(sizes, 2, s, 2, levels + 2, 1, c), 1);
    CHECK_INT(c[0].level, 3);
    CHECK(c[0].step == &s[1]); /* alone, it is the top level: the dominant step */
}

TEST(latency_steps_need_intervals_apart_and_say_where_the_rise_starts)
{
    /* 1 ns up to 32 KiB, 4 ns from 40 KiB: the capacity is in [32 KiB, 40 KiB). */
    latency_point p[] = {{16 * KB, 1.0, 0.9, 1.1}, {24 * KB, 1.0, 0.9, 1.1}, {32 * KB, 1.0, 0.9, 1.1},
                         {40 * KB, 4.0, 3.8, 4.2},  {48 * KB, 4.1, 3.9, 4.3},  {64 * KB, 4.1, 3.9, 4.3}};
    latency_step steps[MAX_LATENCY_STEPS];
    CHECK_INT(find_latency_steps(p, 6, steps), 1);
    CHECK_INT(steps[0].last_size_before, 32 * KB);
    CHECK_INT(steps[0].first_size_above, 40 * KB);
    CHECK_INT(steps[0].first_size_after, 40 * KB);
    /* The same medians, but the risen points' intervals reach down into the
     * plateau's: the points do not disagree enough to place a step. */
    for (int i = 3; i < 6; i++)
        p[i].low = 1.05;
    CHECK_INT(find_latency_steps(p, 6, steps), 0);
    p[3].low = 1.11; /* just above the plateau point's high (1.1) */
    CHECK_INT(find_latency_steps(p, 6, steps), 1);
}

/* The 2-vCPU Intel Xeon guest (family 6 model 207, 48 KiB L1d, 2 MiB L2, reported
 * 260 MiB L3), `membench latency` on 4 KiB pages, 2026-11-27: the converged points'
 * medians (ns), up to the 520 MiB that makes the L3 checkable. The L2-to-L3 climb
 * (6.7 to 34 ns, x5) is steeper than L3 to DRAM (34 to 126 ns, x3.7), and a TLB
 * climb follows at 256 MiB; the last-level cache this CPU gets is the 5.7 MiB
 * before DRAM, not the 1.2 MiB before the L3 (which the steepest climb alone said)
 * nor the 256 MiB of the TLB step. */
TEST(cache_levels_intel_mesh_l3_guest_llc_is_the_step_into_dram)
{
    static const uint64_t kb[] = {4, 8, 12, 16, 20, 24, 28, 32, 44, 52, 64, 76, 92, 108, 128, 152, 180, 216,
                                  256, 304, 364, 432, 512, 608, 724, 860, 1024, 1216, 1448, 1724, 2048, 2436,
                                  2896, 3444, 4096, 4872, 5792, 11584, 13776, 16384, 19484, 23172, 27556, 32768,
                                  38968, 46340, 55108, 65536, 77936, 92680, 110216, 131072, 155872, 185364,
                                  220436, 262144, 311744, 370728, 440872, 524288, 532480};
    static const double ns[] = {1.7, 1.7, 1.7, 1.7, 1.7, 1.7, 1.7, 1.7, 1.7, 5.4, 5.4, 5.4, 5.4, 5.4, 5.4,
                                5.4, 5.4, 5.4, 5.4, 5.4, 5.4, 5.7, 6.0, 6.3, 6.5, 6.7, 7.4, 7.1, 9.4, 11.8,
                                16.2, 23.3, 30.2, 34.0, 35.2, 35.5, 35.6, 126.4, 129.7, 131.5, 132.2, 132.6,
                                134.0, 134.3, 135.4, 137.1, 137.9, 138.8, 140.3, 141.4, 143.2, 144.0, 147.4,
                                148.2, 150.4, 155.3, 159.3, 165.1, 168.8, 177.6, 174.5};
    size_t n = sizeof kb / sizeof kb[0];
    uint64_t sizes[64];
    for (size_t i = 0; i < n; i++)
        sizes[i] = kb[i] * KB;
    latency_step steps[MAX_LATENCY_STEPS];
    size_t nsteps = fixture_latency_steps(sizes, ns, n, steps);
    CHECK(nsteps >= 3);
    reported_cache_level levels[] = {{1, 48 * KB}, {2, 2 * MB}, {3, 260 * MB}};
    level_check c[3];
    CHECK_INT(check_cache_levels(sizes, n, steps, nsteps, levels, 3, c), 3);
    CHECK(c[2].step != NULL);
    CHECK_INT(c[2].step->last_size_before, 5792 * KB);
    CHECK_INT(c[2].step->first_size_above, 11584 * KB);
    CHECK(c[2].checkable);
    CHECK(c[2].disagrees); /* 5.7 MiB measured, 260 MiB reported */
    CHECK(!c[0].disagrees);
    CHECK(!c[1].disagrees); /* the 1.2 MiB step, within 2x of the 2 MiB L2 */
}
