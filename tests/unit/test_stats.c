/* SPDX-License-Identifier: MIT */
#include "util/stats.h"
#include "core/result.h"
#include "test.h"

TEST(stats_odd_and_even_median)
{
    double odd[] = {5, 1, 3};
    sample_stats s = stats_compute(odd, 3);
    CHECK_NEAR(s.median, 3, 0);
    CHECK_NEAR(s.min, 1, 0);
    CHECK_NEAR(s.max, 5, 0);
    double even[] = {4, 1, 3, 2};
    s = stats_compute(even, 4);
    CHECK_NEAR(s.median, 2.5, 1e-12);
    CHECK(even[0] == 4); /* input untouched */
}

TEST(stats_sample_stddev_and_cv)
{
    double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    sample_stats s = stats_compute(v, 8);
    CHECK_NEAR(s.mean, 5, 1e-12);
    CHECK_NEAR(s.stddev, 2.138089935, 1e-8); /* sqrt(32/7) */
    CHECK_NEAR(s.cv, 2.138089935 / 5, 1e-8);
}

TEST(stats_degenerate_inputs)
{
    sample_stats s = stats_compute(NULL, 0);
    CHECK_INT(s.n, 0);
    double one[] = {3};
    s = stats_compute(one, 1);
    CHECK_NEAR(s.stddev, 0, 0);
    CHECK_NEAR(s.median, 3, 0);
    double zeros[] = {0, 0};
    s = stats_compute(zeros, 2);
    CHECK_NEAR(s.cv, 0, 0);
}

/* Samples 1..n in a scrambled order: x(k) == k, so the interval's ends are ranks. */
static sample_stats ranks(size_t n)
{
    double v[200];
    for (size_t i = 0; i < n; i++)
        v[i] = (double)((i * 37) % n + 1); /* 37 is prime to every n used here */
    return stats_compute(v, n);
}

TEST(stats_median_interval_from_order_statistics)
{
    /* The textbook ranks of the 95% distribution-free interval of the median,
     * with their exact binomial coverage. */
    struct {
        size_t n, low, high;
        double level;
    } want[] = {
        {6, 1, 6, 0.96875},           /* 1 - 2/64 */
        {10, 2, 9, 0.978515625},      /* 1 - 2 * 11/1024 */
        {21, 6, 16, 0.9733963012695312}, /* 1 - 2 * P(B <= 5), n = 21 */
        {100, 40, 61, 0.9647997997822952},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        sample_stats s = ranks(want[i].n);
        CHECK_NEAR(s.median_low, (double)want[i].low, 0);
        CHECK_NEAR(s.median_high, (double)want[i].high, 0);
        CHECK_NEAR(s.median_level, want[i].level, 1e-9);
        CHECK(s.median_level >= STATS_MEDIAN_LEVEL);
        CHECK(stats_median_coverage(want[i].n, want[i].low + 1) < STATS_MEDIAN_LEVEL); /* the narrowest */
    }
    /* Too few samples for 95%: [min, max], with the coverage it really has. */
    sample_stats s = ranks(5);
    CHECK_NEAR(s.median_low, 1, 0);
    CHECK_NEAR(s.median_high, 5, 0);
    CHECK_NEAR(s.median_level, 0.9375, 1e-12);
    s = ranks(2);
    CHECK_NEAR(s.median_level, 0.5, 1e-12);
    s = ranks(1);
    CHECK_NEAR(s.median_level, 0, 0); /* one sample: no interval */
}

TEST(stats_time_batches_follow_rounds_and_merge_evenly)
{
    size_t end[STATS_MAX_BATCHES];
    int rounds[] = {1, 1, 2, 2, 2, 3};
    CHECK_INT(stats_time_batches(6, rounds, STATS_MAX_BATCHES, end), 3);
    CHECK_INT(end[0], 2);
    CHECK_INT(end[1], 5);
    CHECK_INT(end[2], 6);
    /* 25 rounds of one sample, at most 10 batches: round g goes to batch g*10/25 */
    int many[25];
    for (int i = 0; i < 25; i++)
        many[i] = i + 1;
    CHECK_INT(stats_time_batches(25, many, STATS_MAX_BATCHES, end), 10);
    const size_t want[] = {3, 5, 8, 10, 13, 15, 18, 20, 23, 25};
    for (int b = 0; b < 10; b++)
        CHECK_INT(end[b], want[b]);
    /* no rounds: near-equal runs of consecutive samples; one a batch up to the cap */
    CHECK_INT(stats_time_batches(21, NULL, STATS_MAX_BATCHES, end), 10);
    CHECK_INT(end[0], 3);
    CHECK_INT(end[9], 21);
    CHECK_INT(stats_time_batches(3, NULL, STATS_MAX_BATCHES, end), 3);
    CHECK_INT(end[0], 1);
    CHECK_INT(stats_time_batches(0, NULL, STATS_MAX_BATCHES, end), 0);
}

/* A host that drifts during the run: 100 samples rising 1..100. As independent
 * samples their median interval is the 40th to the 61st (+-10%); the medians of
 * ten time batches say what the drift really leaves known: 15.5 to 85.5. */
TEST(stats_batch_interval_widens_for_a_drifting_host)
{
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i + 1;
    sample_stats s = stats_compute(v, 100);
    CHECK_NEAR(s.median_low, 40, 0);
    CHECK_NEAR(s.median_high, 61, 0);
    size_t end[STATS_MAX_BATCHES];
    size_t k = stats_time_batches(100, NULL, STATS_MAX_BATCHES, end);
    CHECK_INT(k, 10);
    stats_batch_interval(v, end, k, &s);
    CHECK_NEAR(s.median_low, 15.5, 0);
    CHECK_NEAR(s.median_high, 85.5, 0);
    CHECK_NEAR(s.median_level, 0.978515625, 1e-12); /* 10 batch medians: the 2nd to the 9th */
    CHECK_INT(s.median_batches, 10);
    CHECK_NEAR(s.median, 50.5, 0); /* the headline stays all samples' median */
    /* one batch: no interval */
    size_t all = 100;
    stats_batch_interval(v, &all, 1, &s);
    CHECK_NEAR(s.median_level, 0, 0);
}

/* A record's interval is over its rounds when it has them: a point visited in
 * three rounds has three batch medians, whatever the samples per visit. */
TEST(result_interval_batches_by_round)
{
    result_record r;
    result_init(&r, "sweep", "latency", METRIC_LATENCY);
    const double samples[] = {10, 11, 30, 31, 12, 13};
    CHECK(result_set_samples(&r, samples, 6));
    CHECK_NEAR(r.summary.median_low, 10, 0); /* six batches of one: [min, max] */
    CHECK_NEAR(r.summary.median_high, 31, 0);
    CHECK_NEAR(r.summary.median_level, 0.96875, 1e-12);
    const int rounds[] = {1, 1, 2, 2, 3, 3};
    const double ends[] = {1, 2, 3, 4, 5, 6};
    CHECK(result_set_sample_rounds(&r, rounds, ends, 0, 6));
    CHECK_INT(r.summary.median_batches, 3);
    CHECK_NEAR(r.summary.median_low, 10.5, 0);
    CHECK_NEAR(r.summary.median_high, 30.5, 0);
    CHECK_NEAR(r.summary.median_level, 0.75, 1e-12);
    CHECK_NEAR(r.summary.median, 12.5, 0);
    result_free(&r);
}

/* Every sample from one round (-r 1): runs of consecutive samples, as without rounds. */
TEST(stats_time_batches_one_round_is_no_rounds)
{
    size_t end[STATS_MAX_BATCHES];
    int same[] = {1, 1, 1, 1};
    CHECK_INT(stats_time_batches(4, same, STATS_MAX_BATCHES, end), 4);
    CHECK_INT(end[0], 1);
    CHECK_INT(end[3], 4);
}

/* A point that moved between levels: the Zen 4 guest's 4 MiB chase had 3 samples
 * in its L3 and the rest in DRAM (BENCHMARKS "Calibration", batch 13, run 10). */
TEST(stats_two_levels_split_at_the_largest_jump)
{
    const double l3_then_dram[] = {131.7, 16.3, 129.3, 16.3, 120.5, 15.8, 128.4};
    sample_stats s = stats_compute(l3_then_dram, 7);
    CHECK_INT(s.low_level_n, 3);
    CHECK_INT(s.high_level_n, 4);
    CHECK_NEAR(s.low_level_median, 16.3, 0);
    CHECK_NEAR(s.high_level_median, (128.4 + 129.3) / 2, 1e-12);
    CHECK_NEAR(s.level_jump, 120.5 / 16.3, 1e-12);
    CHECK_NEAR(s.median, 120.5, 0); /* the median: neither level */

    /* the largest jump with 2 on each side, past a larger one with a single sample above */
    const double outlier_above[] = {16, 16, 40, 41, 42, 200};
    s = stats_compute(outlier_above, 6);
    CHECK_INT(s.low_level_n, 2);
    CHECK_INT(s.high_level_n, 4);
    CHECK_NEAR(s.low_level_median, 16, 0);
    CHECK_NEAR(s.high_level_median, 41.5, 0);
    CHECK_NEAR(s.level_jump, 2.5, 1e-12);
}

TEST(stats_two_levels_need_a_jump_of_half_and_two_on_each_side)
{
    const double at_the_jump[] = {10, 10, 15, 15};
    CHECK_INT(stats_compute(at_the_jump, 4).low_level_n, 2); /* 1.5: two levels */
    const double under_it[] = {10, 10, 14.99, 15};
    CHECK_INT(stats_compute(under_it, 4).low_level_n, 0);
    const double one_above[] = {10, 10, 10, 100};
    CHECK_INT(stats_compute(one_above, 4).low_level_n, 0); /* an outlier is not a level */
    const double one_below[] = {1, 100, 100, 100};
    CHECK_INT(stats_compute(one_below, 4).low_level_n, 0);
    const double three[] = {1, 10, 100};
    CHECK_INT(stats_compute(three, 3).low_level_n, 0); /* three samples cannot have two levels of two */
    /* a slow drift doubles the samples by steps of 1.2: one level */
    const double drift[] = {100, 120, 144, 172.8, 207.4};
    sample_stats s = stats_compute(drift, 5);
    CHECK_INT(s.low_level_n, 0);
    CHECK_INT(s.high_level_n, 0);
    CHECK_NEAR(s.level_jump, 0, 0);
    const double zeros[] = {0, 0, 5, 5}; /* no ratio over a zero */
    CHECK_INT(stats_compute(zeros, 4).low_level_n, 0);
}
