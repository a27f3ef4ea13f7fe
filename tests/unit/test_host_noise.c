/* SPDX-License-Identifier: MIT */
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
    CHECK_NEAR(d.span_s, 2, 1e-12);
}

/* A point measured in rounds: its visits' intervals summed, the time between them
 * (other points' visits) left out. */
TEST(host_load_span_sums_its_intervals_only)
{
    host_load a = {.at_s = 10, .have_stat = true, .have_psi_cpu = true, .have_psi_memory = true,
                   .steal_ticks = 100, .total_ticks = 1000, .psi_cpu_some_us = 0, .psi_memory_some_us = 0};
    host_load b = a, c = a, e = a;
    b.at_s = 11; /* visit 1: 1 s, 10 of 200 ticks stolen, 0.2 s CPU pressure */
    b.steal_ticks = 110;
    b.total_ticks = 1200;
    b.psi_cpu_some_us = 200000;
    c.at_s = 20; /* between the visits: all stolen, all pressure; not the point's */
    c.steal_ticks = 2000;
    c.total_ticks = 3000;
    c.psi_cpu_some_us = 9200000;
    c.psi_memory_some_us = 9000000;
    e = c; /* visit 2: 3 s, 30 of 600 ticks stolen, 0.6 s CPU pressure */
    e.at_s = 23;
    e.steal_ticks = 2030;
    e.total_ticks = 3600;
    e.psi_cpu_some_us = 9800000;
    host_load_span s = {0};
    host_load_span_add(&s, &a, &b);
    host_load_span_add(&s, &c, &e);
    host_load_delta d = host_load_span_shares(&s);
    CHECK_NEAR(d.span_s, 4, 1e-12);
    CHECK_NEAR(d.steal_pct, 5, 1e-12);         /* 40 of 800 */
    CHECK_NEAR(d.cpu_pressure_pct, 20, 1e-9);  /* 0.8 s of 4 s */
    CHECK_NEAR(d.memory_pressure_pct, 0, 0);
    e.have_psi_memory = false; /* one visit without a source: unknown for the span */
    host_load_span_add(&s, &c, &e);
    CHECK_NEAR(host_load_span_shares(&s).memory_pressure_pct, -1, 0);
    host_load_span none = {0};
    CHECK_NEAR(host_load_span_shares(&none).steal_pct, -1, 0);
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

/* The memory probe's times are judged as the CPU probe's are; the run's verdict is
 * the larger variation: a host whose memory moves and CPU does not is noisy. */
TEST(noise_verdict_memory_probe_counts_too)
{
    double cpu_t[] = {1.00, 1.01, 1.02, 1.00, 1.01};         /* about ±0.8% */
    double mem_t[] = {2.0, 2.0, 2.4, 2.0, 2.0, 2.0, 2.6, 2.0, 2.0, 2.0, 2.0}; /* 10th 2.0, median 2.0, 90th 2.4 */
    noise_verdict cpu = noise_judge(cpu_t, 5), mem = noise_judge(mem_t, 11);
    CHECK(mem.known);
    CHECK_NEAR(mem.median_s, 2.0, 0);
    CHECK_NEAR(mem.varied_pct, 10, 1e-9); /* (2.4 - 2.0) / 2 / 2.0 */
    noise_verdict v = noise_combine(cpu, mem);
    CHECK(v.known && v.flagged);
    CHECK_NEAR(v.varied_pct, 10, 1e-9);
    CHECK_NEAR(v.meaningful_pct, 20, 1e-9);
    CHECK_NEAR(v.median_s, 1.01, 1e-12); /* the CPU probe's */
    CHECK_INT(v.probes, 5);
    v = noise_combine(mem, cpu); /* the larger wins either way round */
    CHECK_NEAR(v.varied_pct, 10, 1e-9);
    noise_verdict none = noise_judge(mem_t, 3); /* too few memory probes: the CPU's verdict */
    v = noise_combine(cpu, none);
    CHECK(v.known && !v.flagged);
    CHECK_NEAR(v.varied_pct, cpu.varied_pct, 0);
    v = noise_combine(noise_judge(cpu_t, 2), mem); /* the memory probe's alone */
    CHECK(v.known && v.flagged);
    CHECK_NEAR(v.varied_pct, 10, 1e-9);
    v = noise_combine(noise_judge(cpu_t, 2), none);
    CHECK(!v.known && !v.flagged);
}

/* Twice the last level, within the bounds a run may spend; a part read each time. */
TEST(noise_memory_probe_size_and_reads)
{
    uint64_t gib = 1ull << 30;
    CHECK_INT(noise_mem_probe_bytes(0, gib), NOISE_MEM_MIN_BYTES);          /* unknown */
    CHECK_INT(noise_mem_probe_bytes(4u << 20, gib), NOISE_MEM_MIN_BYTES);   /* 8 MiB: below the floor */
    CHECK_INT(noise_mem_probe_bytes(16u << 20, gib), 32u << 20);
    CHECK_INT(noise_mem_probe_bytes(300ull << 20, gib), NOISE_MEM_MAX_BYTES); /* a 300 MiB L3: bounded */
    CHECK_INT(noise_mem_probe_bytes(16u << 20, 256u << 20), 0); /* 32 MiB of a 256 MiB budget: none */
    CHECK_INT(noise_mem_probe_bytes(4u << 20, 256u << 20), NOISE_MEM_MIN_BYTES); /* a 16th: allowed */
    CHECK_INT(noise_mem_probe_bytes(4u << 20, 0), 0);           /* budget unknown: none */
    CHECK(noise_mem_probe_counts(64u << 20, 32u << 20));            /* Zen 4's 32 MiB L3: twice it */
    CHECK(!noise_mem_probe_counts(NOISE_MEM_MAX_BYTES, 300ull << 20)); /* fits the cache: not counted */
    CHECK(!noise_mem_probe_counts(NOISE_MEM_MAX_BYTES, 33u << 20));
    CHECK(!noise_mem_probe_counts(NOISE_MEM_MIN_BYTES, 0));             /* unknown: not counted */
    noise_mem_probe p;
    CHECK(noise_mem_probe_open(&p, 1 << 16, -1));
    CHECK_INT(p.words, (1 << 16) / 8);
    for (int i = 0; i < NOISE_MEM_PARTS + 1; i++)
        CHECK(noise_mem_probe_run(&p) >= 0);
    CHECK_INT(p.next, 1); /* round the parts and on */
    noise_mem_probe_close(&p);
    CHECK(p.buf == NULL);
}
