/* SPDX-License-Identifier: MIT */
/* The sweep's rounds (plan/round_schedule): the visit order, and which points a
 * target interval sends back for another round. */
#include "plan/round_schedule.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

/* Runs the scheduler to the end, each visit adding one sample to the point (a
 * "sweep" with no measuring), and writes the visits as "r1:0,1 r2:0,1". reset
 * (point, round): that visit drops the point's samples (a series restart). */
static void simulate(round_point *pts, size_t n, double target, int reset_point, int reset_round, char *out,
                     size_t size)
{
    size_t visit[16];
    out[0] = '\0';
    for (int round = 1; round <= 20; round++) {
        size_t k = round_next(pts, n, target, visit);
        if (k == 0)
            return;
        snprintf(out + strlen(out), size - strlen(out), "%sr%d:", round > 1 ? " " : "", round);
        for (size_t v = 0; v < k; v++) {
            round_point *p = &pts[visit[v]];
            p->samples = (int)visit[v] == reset_point && round == reset_round ? 1 : p->samples + 1;
            snprintf(out + strlen(out), size - strlen(out), "%s%zu", v ? "," : "", visit[v]);
        }
    }
}

static round_point point(int needed)
{
    round_point p = {0, needed, 0, false, false, -1, 0};
    return p;
}

TEST(rounds_visit_every_point_once_per_round_in_plan_order)
{
    round_point pts[3] = {point(3), point(3), point(3)};
    char seq[256];
    simulate(pts, 3, 0, -1, 0, seq, sizeof seq);
    /* not 0,0,0,1,1,1,...: the samples of a point are spread over the run */
    CHECK_STR(seq, "r1:0,1,2 r2:0,1,2 r3:0,1,2");
    for (int i = 0; i < 3; i++)
        CHECK_INT(pts[i].samples, 3);
}

TEST(rounds_a_restarted_point_gets_rounds_of_its_own)
{
    round_point pts[3] = {point(2), point(2), point(2)};
    char seq[256];
    simulate(pts, 3, 0, 1, 2, seq, sizeof seq); /* point 1's round-2 sample restarts its series */
    CHECK_STR(seq, "r1:0,1,2 r2:0,1,2 r3:1");
    CHECK_INT(pts[1].samples, 2);
}

TEST(rounds_skip_finished_and_capped_points_and_follow_more)
{
    round_point pts[3] = {point(1), point(1), point(1)};
    pts[1].finished = true; /* skipped: no memory */
    pts[2].more = true;     /* latency's CV rule wants more ... */
    pts[2].cap = 3;         /* ... up to its maximum */
    char seq[256];
    simulate(pts, 3, 0, -1, 0, seq, sizeof seq);
    CHECK_STR(seq, "r1:0,2 r2:2 r3:2");
    CHECK_INT(pts[1].samples, 0);
}

TEST(rounds_target_sends_back_only_the_wide_points)
{
    round_point pts[4] = {point(3), point(3), point(3), point(3)};
    pts[0].samples = pts[1].samples = pts[2].samples = pts[3].samples = 3;
    pts[0].half_width = 0.01;  /* within 2% */
    pts[1].half_width = 0.05;  /* wider */
    pts[2].half_width = 0.02;  /* exactly on it: within */
    pts[3].half_width = -1;    /* no interval yet: not within */
    pts[0].level = pts[1].level = pts[2].level = 0.969; /* 6 batches */
    size_t visit[4];
    CHECK_INT(round_next(pts, 4, 0.02, visit), 2);
    CHECK_INT(visit[0], 1);
    CHECK_INT(visit[1], 3);
    CHECK(round_point_within(&pts[0], 0.02));
    CHECK(!round_point_within(&pts[1], 0.02));
    /* without a target the same points are done */
    CHECK_INT(round_next(pts, 4, 0, visit), 0);
    /* a point short of its -r samples is visited whatever its interval */
    pts[0].samples = 2;
    CHECK_INT(round_next(pts, 4, 0.02, visit), 3);
    CHECK_INT(visit[0], 0);
    /* one sample never counts as within, even with a (bogus) zero width */
    round_point one = point(1);
    one.samples = 1;
    one.half_width = 0;
    CHECK(!round_point_within(&one, 0.5));
    /* a narrow interval below 95% (3 batches: 75%; 5: 93.75%) is not within yet */
    pts[0].samples = 3;
    pts[0].level = 0.75;
    CHECK(!round_point_within(&pts[0], 0.02));
    pts[0].level = 0.9375;
    CHECK(!round_point_within(&pts[0], 0.02));
    CHECK_INT(round_next(pts, 4, 0.02, visit), 3);
    CHECK_INT(visit[0], 0);
    pts[0].level = ROUND_TARGET_LEVEL;
    CHECK(round_point_within(&pts[0], 0.02));
}

/* membench latency's rounds: the minimum of 7 samples spread over --rounds visits,
 * so N rounds always give at least 7 and each round visits every point. */
TEST(rounds_samples_per_visit_spread_the_minimum)
{
    CHECK_INT(round_samples_per_visit(7, 1), 7);
    CHECK_INT(round_samples_per_visit(7, 2), 4);
    CHECK_INT(round_samples_per_visit(7, 3), 3); /* 9 after 3 rounds, not 6 */
    CHECK_INT(round_samples_per_visit(7, 7), 1);
    CHECK_INT(round_samples_per_visit(7, 21), 1);
    for (int n = 1; n <= 21; n++)
        CHECK(n * round_samples_per_visit(7, n) >= 7 && round_samples_per_visit(7, n) <= 7);
}

/* A visit takes its share, trimmed to what the cap leaves (never below one). */
TEST(rounds_visit_samples_stop_at_the_cap)
{
    CHECK_INT(round_visit_samples(3, 9, 21), 3);
    CHECK_INT(round_visit_samples(3, 18, 21), 3);
    CHECK_INT(round_visit_samples(3, 19, 21), 2);
    CHECK_INT(round_visit_samples(3, 21, 21), 1);
    CHECK_INT(round_visit_samples(3, 40, 0), 3); /* no cap (--target-ci) */
    CHECK_INT(round_visit_samples(7, 14, 21), 7);
}

TEST(rounds_half_width_is_the_larger_side_over_the_median)
{
    sample_stats s = {0};
    s.median = 10;
    s.median_low = 9;
    s.median_high = 12.5;
    s.median_level = 0.95;
    CHECK_NEAR(round_half_width(&s), 0.25, 1e-12);
    s.median_low = 7;
    CHECK_NEAR(round_half_width(&s), 0.3, 1e-12);
    s.median_level = 0; /* one sample: no interval */
    CHECK_NEAR(round_half_width(&s), -1, 0);
}

/* The scheduler's view of a point: samples, half width and level from its statistics,
 * none without them. */
TEST(rounds_point_takes_samples_width_and_level)
{
    sample_stats s = {0};
    s.median = 10;
    s.median_low = 9;
    s.median_high = 10.5;
    s.median_level = 0.969;
    round_point p = {0};
    round_point_take_samples(&p, 6, &s);
    CHECK_INT(p.samples, 6);
    CHECK_NEAR(p.half_width, 0.1, 1e-12);
    CHECK_NEAR(p.level, 0.969, 0);
    CHECK(round_point_within(&p, 0.1));
    round_point_take_samples(&p, 6, NULL);
    CHECK_INT(p.samples, 0);
    CHECK_NEAR(p.half_width, -1, 0);
    CHECK_NEAR(p.level, 0, 0);
}

TEST(rounds_keep_limit_is_128_mib_or_an_eighth_of_the_budget)
{
    CHECK_INT((long long)round_keep_limit(8ULL << 30), (long long)(128ULL << 20));
    CHECK_INT((long long)round_keep_limit(512ULL << 20), (long long)(64ULL << 20));
}

/* The sweep's time budget: a round that owes samples (-r's, a restart's retakes)
 * always runs; a further round (the CV rule's) only when it is expected to end
 * within the budget; no budget, no bound. */
TEST(rounds_budget_never_cuts_owed_samples)
{
    CHECK(round_budget_allows(true, 40, 10, 15)); /* round 3 of -r 3 runs however late */
    CHECK(round_budget_allows(false, 10, 4.9, 15));
    CHECK(round_budget_allows(false, 10, 5, 15)); /* ends on the budget: allowed */
    CHECK(!round_budget_allows(false, 10, 5.1, 15));
    CHECK(!round_budget_allows(false, 16, 0, 15));
    CHECK(round_budget_allows(false, 1000, 1000, 0)); /* --time-budget 0: none */
    round_point pts[3] = {{.samples = 9, .needed = 9, .more = true}, {.samples = 1, .needed = 3},
                          {.samples = 3, .needed = 3}};
    size_t cv_only[] = {0, 2}, retake[] = {0, 1};
    CHECK(round_owes_samples(3, 3, pts, cv_only, 2)); /* -r 3's third round */
    CHECK(!round_owes_samples(4, 3, pts, cv_only, 2));
    CHECK(round_owes_samples(4, 3, pts, retake, 2)); /* a restarted point's retakes */
}

/* membench latency's pace: a visit's time split into what follows the sample's
 * length (its chases) and a fixed rest, what no later visit repeats left out. */
TEST(rounds_pace_splits_a_visit)
{
    round_pace_cost c = round_pace_cost_of(0.100, 0.060, 0.030, 0.020);
    CHECK_NEAR(c.fixed_s, 0.010, 1e-12); /* 100 ms less 60 chased, less 30 of linking and calibration */
    CHECK_NEAR(c.units, 3.0, 1e-12);     /* 60 ms of chases at 20 ms samples: 3 s per s of length */
    CHECK(!c.gone);
    c = round_pace_cost_of(0.050, 0.050, 0, 0); /* no length known: no units */
    CHECK_NEAR(c.units, 0, 0);
}

/* The visits left: from the current point to the end of this round, then every
 * point in each later planned round; a point gone (done, failed) never again; a
 * negative fixed part (a clock step) as none. */
TEST(rounds_pace_counts_the_visits_left)
{
    round_pace_cost pts[4] = {{0.010, 1, false}, {0.020, 2, false}, {0.040, 4, true}, {-0.5, 8, false}};
    double fixed, units;
    round_pace_left(pts, 4, 1, 0, &fixed, &units); /* the last round, at point 1: points 1 and 3 */
    CHECK_NEAR(fixed, 0.020, 1e-12);
    CHECK_NEAR(units, 10, 1e-12);
    round_pace_left(pts, 4, 1, 2, &fixed, &units); /* two rounds more: point 0 twice, 1 and 3 three times */
    CHECK_NEAR(fixed, 2 * 0.010 + 3 * 0.020, 1e-12);
    CHECK_NEAR(units, 2 * 1 + 3 * 2 + 3 * 8, 1e-12);
    round_pace_left(pts, 4, 4, 0, &fixed, &units); /* past the last point: nothing */
    CHECK_NEAR(fixed + units, 0, 0);
}

/* The length: the longest that ends in time, within [min, the plan's]. */
TEST(rounds_pace_length_fits_the_time_left)
{
    CHECK_NEAR(round_pace_length(3.0, 1.0, 200, 0.005, 0.020), 0.010, 1e-12); /* (3 - 1) / 200 */
    CHECK_NEAR(round_pace_length(30, 1.0, 200, 0.005, 0.020), 0.020, 0);      /* never past the plan's */
    CHECK_NEAR(round_pace_length(1.5, 1.0, 200, 0.005, 0.020), 0.005, 0);     /* never below the minimum */
    CHECK_NEAR(round_pace_length(-2, 1.0, 200, 0.005, 0.020), 0.005, 0);      /* the budget already passed */
    CHECK_NEAR(round_pace_length(0.1, 1.0, 0, 0.005, 0.020), 0.020, 0);       /* nothing known yet */
}
