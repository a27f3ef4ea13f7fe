#include "util/stats.h"
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
