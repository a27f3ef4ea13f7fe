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
