#include <string.h>

#include "measure/host_load.h"
#include "measure/noise_probe.h"
#include "test.h"

TEST(host_load_reads_steal_and_pressure_totals)
{
    uint64_t steal = 0, total = 0, us = 0;
    CHECK(host_load_parse_stat("cpu  100 2 30 800 5 0 3 60 40 0\ncpu0 50 1 15 400 2 0 1 30 20 0\n", &steal, &total));
    CHECK_INT(steal, 60);
    CHECK_INT(total, 1000); /* user..steal; guest (40) is already inside user */
    CHECK(!host_load_parse_stat("cpu0 1 2 3 4 5 6 7 8\n", &steal, &total)); /* not the aggregate line */
    CHECK(!host_load_parse_stat("cpu  1 2 3 4 5 6 7\n", &steal, &total)); /* a kernel without steal */
    CHECK(!host_load_parse_stat("", &steal, &total));
    CHECK(host_load_parse_psi_some("some avg10=1.00 avg60=0.50 avg300=0.10 total=123456\n"
                                   "full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n",
                                   &us));
    CHECK_INT(us, 123456);
    CHECK(!host_load_parse_psi_some("full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n", &us));
    CHECK(!host_load_parse_psi_some("some avg10=1.00\nfull avg10=0.00 total=99\n", &us)); /* not the some line's */
    CHECK(!host_load_parse_psi_some("some total=x\n", &us));
}

TEST(host_load_shares_between_two_readings)
{
    host_load a = {.at_s = 10, .have_stat = true, .have_psi_cpu = true, .have_psi_memory = true,
                   .steal_ticks = 100, .total_ticks = 1000, .psi_cpu_some_us = 0, .psi_memory_some_us = 500};
    host_load b = a;
    b.at_s = 12; /* 2 s later */
    b.steal_ticks = 150;
    b.total_ticks = 1400;    /* 50 of 400 ticks stolen */
    b.psi_cpu_some_us = 500000; /* 0.5 s of 2 s */
    b.psi_memory_some_us = 500;  /* none */
    host_load_delta d = host_load_between(&a, &b);
    CHECK_NEAR(d.steal_pct, 12.5, 1e-12);
    CHECK_NEAR(d.cpu_pressure_pct, 25, 1e-12);
    CHECK_NEAR(d.memory_pressure_pct, 0, 0);
    b.have_psi_memory = false; /* a kernel without PSI: unknown, not 0 */
    b.steal_ticks = 90;        /* a counter that went back: unknown */
    d = host_load_between(&a, &b);
    CHECK_NEAR(d.memory_pressure_pct, -1, 0);
    CHECK_NEAR(d.steal_pct, -1, 0);
    b.steal_ticks = 100; /* shorter than one tick: no steal figure, not 0% */
    b.total_ticks = 1000;
    d = host_load_between(&a, &b);
    CHECK_NEAR(d.steal_pct, -1, 0);
}

TEST(noise_verdict_from_probe_percentiles)
{
    /* 11 probes: 10th percentile 1.0, median 1.0, 90th 1.2 (type-7 quantiles) */
    double t[] = {1.0, 1.3, 1.0, 1.0, 1.0, 1.2, 1.0, 1.0, 1.0, 1.0, 1.0};
    noise_verdict v = noise_judge(t, 11);
    CHECK(v.known);
    CHECK_INT(v.probes, 11);
    CHECK_NEAR(v.median_s, 1.0, 0);
    CHECK_NEAR(v.varied_pct, 10, 1e-9); /* (1.2 - 1.0) / 2 / 1.0 */
    CHECK_NEAR(v.meaningful_pct, 20, 1e-9);
    CHECK(v.flagged);
    CHECK(t[1] == 1.3); /* input untouched */
    double calm[] = {1.00, 1.01, 1.02, 1.00, 1.01};
    v = noise_judge(calm, 5);
    CHECK(v.known && !v.flagged);
    CHECK_NEAR(v.varied_pct, 100 * (1.016 - 1.0) / 2 / 1.01, 1e-9); /* 90th: 1.01 + 0.6 * (1.02 - 1.01) */
    v = noise_judge(calm, 4); /* too few to say */
    CHECK(!v.known && !v.flagged);
    CHECK_INT(v.probes, 4);
}
