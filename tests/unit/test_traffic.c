/* SPDX-License-Identifier: MIT */
/* The traffic mixes (bytes per stream, write-allocate accounting, what one step
 * moves), the spin-delay calibration, the max-bandwidth delay search, the knee of a
 * loaded-latency curve, and the traffic planning against recorded machines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "kernels/traffic_mix.h"
#include "measure/curve_knee.h"
#include "measure/loaded_curve.h"
#include "measure/delay_search.h"
#include "measure/spin_delay.h"
#include "plan/traffic_plan.h"
#include "plan/dram_size.h"
#include "test.h"

static const traffic_mix *mix(const char *name)
{
    const traffic_mix *m = traffic_mix_find(name);
    if (!m)
        test_fail(__FILE__, __LINE__, "no mix %s", name);
    return m;
}

TEST(traffic_mix_names_follow_mlc)
{
    CHECK(traffic_mix_find("R") == mix("R"));
    CHECK(traffic_mix_find("w5") == mix("W5"));
    CHECK(traffic_mix_find("5") == mix("W5")); /* MLC's -W 5 */
    CHECK(traffic_mix_find("W1") == NULL);      /* MLC has no W1 */
    CHECK(traffic_mix_find("W18") == NULL);
    CHECK(traffic_mix_find("") == NULL);
    CHECK(traffic_mix_find("W5x") == NULL);
    size_t n;
    const traffic_mix *t = traffic_mix_table(&n);
    CHECK_INT(n, 17);
    CHECK_STR(t[0].name, "R");
    CHECK_CONTAINS(traffic_mix_names(), "W17");
}

/* Every mix's application reads:writes is the ratio it is named by. */
TEST(traffic_mix_units_match_each_ratio)
{
    size_t n;
    const traffic_mix *t = traffic_mix_table(&n);
    for (size_t i = 0; i < n; i++) {
        unsigned r, w;
        CHECK(sscanf(t[i].ratio, "%u:%u", &r, &w) == 2);
        unsigned rd = traffic_mix_read_units(&t[i]), wr = traffic_mix_write_units(&t[i]);
        if (rd * w != wr * r)
            test_fail(__FILE__, __LINE__, "%s: %u read : %u written units is not %s", t[i].name, rd, wr, t[i].ratio);
    }
    CHECK_INT(traffic_mix_read_units(mix("W3")), 3);
    CHECK_INT(traffic_mix_write_units(mix("W3")), 1);
    CHECK_INT(traffic_mix_read_units(mix("W4")), 3);
    CHECK_INT(traffic_mix_write_units(mix("W4")), 2);
    CHECK_INT(traffic_mix_read_units(mix("W17")), 9);
    CHECK_INT(traffic_mix_write_units(mix("W6")), 1);
    CHECK_INT(traffic_mix_read_units(mix("W6")), 0);
}

TEST(traffic_mix_counts_write_allocate_reads_for_regular_stores_only)
{
    CHECK_INT(traffic_mix_rfo_units(mix("R")), 0);
    CHECK_INT(traffic_mix_rfo_units(mix("W5")), 1);
    CHECK_INT(traffic_mix_rfo_units(mix("W4")), 2);
    CHECK_INT(traffic_mix_rfo_units(mix("W8")), 0);  /* non-temporal: no allocate */
    CHECK_INT(traffic_mix_rfo_units(mix("W10")), 0);
    CHECK_INT(traffic_mix_rfo_units(mix("W11")), 1); /* the triad with RFO: 3:1 in DRAM */
    CHECK_NEAR(traffic_mix_dram_bytes(mix("R"), 1000), 1000, 1e-9);
    CHECK_NEAR(traffic_mix_dram_bytes(mix("W5"), 1000), 1500, 1e-9);  /* copy: 2 units + 1 RFO */
    CHECK_NEAR(traffic_mix_dram_bytes(mix("W8"), 1000), 1000, 1e-9);
    CHECK_NEAR(traffic_mix_dram_bytes(mix("W3"), 1000), 1250, 1e-9);  /* 3+1 units + 1 */
    CHECK_NEAR(traffic_mix_dram_bytes(mix("W11"), 900), 1200, 1e-9); /* 2+1 units + 1 */
    CHECK_NEAR(traffic_mix_dram_bytes(mix("W6"), 1000), 1000, 1e-9);
}

/* Three buffers of 8 units of 256 bytes, the read ones holding known doubles. */
typedef struct {
    double r[256], r2[256], w[256];
} bufs3;

static traffic_cursor cursor(bufs3 *b)
{
    for (int i = 0; i < 256; i++) {
        b->r[i] = i + 1;
        b->r2[i] = 1000 + i;
        b->w[i] = -1;
    }
    return (traffic_cursor){.read = (char *)b->r, .read2 = (char *)b->r2, .write = (char *)b->w, .bytes = 2048};
}

static traffic_program program(const char *name)
{
    traffic_program p;
    char why[200] = "";
    if (!traffic_program_make(&p, mix(name), "c", 256, why, sizeof why))
        test_fail(__FILE__, __LINE__, "%s: %s", name, why);
    return p;
}

TEST(traffic_step_w3_copies_one_unit_and_reads_two_more)
{
    static bufs3 b;
    traffic_cursor c = cursor(&b);
    traffic_program p = program("W3");
    CHECK_INT(traffic_step(&p, &c), 4 * 256); /* 3 units read, 1 written */
    CHECK_INT(c.rpos, 3 * 256);
    CHECK_INT(c.wpos, 256);
    CHECK(memcmp(b.w, b.r, 256) == 0);      /* the copied unit */
    CHECK(b.w[32] == -1);                   /* nothing written past it */
    uint64_t x = 0;                         /* the two units only read were XORed */
    for (int i = 32; i < 96; i++) {
        uint64_t v;
        memcpy(&v, &b.r[i], 8);
        x ^= v;
    }
    CHECK(c.xor_sink == x);
}

TEST(traffic_step_wraps_each_stream_at_the_end_of_its_buffer)
{
    static bufs3 b;
    traffic_cursor c = cursor(&b);
    traffic_program p = program("W3");
    traffic_step(&p, &c);
    traffic_step(&p, &c); /* reads units 3-5, writes unit 1 */
    CHECK_INT(c.rpos, 6 * 256);
    traffic_step(&p, &c); /* 3 units no longer fit after 6 of 8: from the top */
    CHECK_INT(c.rpos, 3 * 256);
    CHECK_INT(c.wpos, 3 * 256);
    CHECK(memcmp((char *)b.w + 512, b.r, 256) == 0); /* third copy: read unit 0 into write unit 2 */
}

TEST(traffic_step_triad_and_write_only_mixes)
{
    static bufs3 b;
    traffic_cursor c = cursor(&b);
    traffic_program p = program("W11");
    CHECK_INT(traffic_step(&p, &c), 3 * 256);
    CHECK(b.w[0] == 1 + 3.0 * 1000 && b.w[31] == 32 + 3.0 * 1031); /* a = b + 3c */
    CHECK(b.w[32] == -1);
    CHECK_INT(c.r2pos, 256);
    traffic_program r = program("R");
    c = cursor(&b);
    CHECK_INT(traffic_step(&r, &c), 256);
    CHECK(b.w[0] == -1); /* reads write nothing */
    char why[200];
    traffic_program nt;
    CHECK(!traffic_program_make(&nt, mix("W6"), "c", 256, why, sizeof why)); /* portable C has no NT stores */
    CHECK_CONTAINS(why, "W6");
    CHECK_CONTAINS(why, "non-temporal");
}

TEST(traffic_step_random_copies_whole_units_to_random_places)
{
    static bufs3 b;
    traffic_cursor c = cursor(&b);
    c.rng = 7;
    traffic_program p = program("W5");
    p.random = true;
    int written[8] = {0};
    for (int step = 0; step < 32; step++) {
        CHECK_INT(traffic_step(&p, &c), 2 * 256);
        for (int u = 0; u < 8; u++) /* a written unit holds a whole read unit (W5 copies) */
            if (b.w[32 * u] != -1) {
                written[u] = 1;
                CHECK(b.w[32 * u] >= 1 && ((int)b.w[32 * u] - 1) % 32 == 0);
                CHECK(memcmp(&b.w[32 * u], &b.r[(int)b.w[32 * u] - 1], 256) == 0);
            }
    }
    CHECK_INT(c.rpos, 0); /* no stream advanced: every place drawn at random */
    CHECK_INT(c.wpos, 0);
    int n = 0, far = 0;
    for (int u = 0; u < 8; u++) {
        n += written[u];
        far |= u > 0 && written[u];
    }
    CHECK(n >= 6 && far); /* 32 random steps reach most of the 8 units, not only the first */
}

/* A timer with a fixed cost of 1 us per call and 0.5 ns per iteration, noisier in
 * the first rounds: the calibration must see through both. */
static double fake_timer(uint64_t n, void *ctx)
{
    int *calls = ctx;
    double noise = (*calls)++ < 4 ? 5e-6 : 0;
    return 1e-6 + (double)n * 0.5e-9 + noise;
}

TEST(spin_calibration_takes_the_slope_not_the_ratio)
{
    int calls = 0;
    CHECK_NEAR(spin_calibrate(fake_timer, &calls, 1000), 0.5, 1e-6);
    double real = spin_ns_per_iteration();
    CHECK(real > 0.01 && real < 100); /* one add and a branch: a core clock, give or take */
}

static double peaked(uint64_t d, void *ctx)
{
    (void)ctx;
    return d == 40 ? 120 : d < 40 ? 100 + (double)d / 4 : 119 - (double)d / 10;
}

static double falling(uint64_t d, void *ctx)
{
    (void)ctx;
    return 100 - (double)d;
}

static double stops_third(uint64_t d, void *ctx)
{
    int *calls = ctx;
    (void)d;
    return ++*calls >= 3 ? -1 : 50;
}

TEST(delay_search_finds_the_best_delay_and_stops_past_it)
{
    delay_point tried[DELAY_SEARCH_MAX];
    int n;
    int best = delay_search(peaked, NULL, delay_search_ladder, delay_search_ladder_len, 0.10, tried, &n);
    CHECK(best >= 0 && tried[best].delay == 40);
    CHECK_NEAR(tried[best].mb_s, 120, 1e-9);
    /* falling from delay 0: 5 (95) and 10 (90) stay within 10%, 20 (80) and 40 (60) do not */
    best = delay_search(falling, NULL, delay_search_ladder, delay_search_ladder_len, 0.10, tried, &n);
    CHECK_INT(best, 0);
    CHECK_INT(n, 5);
    CHECK(tried[4].delay == 40);
    int calls = 0;
    best = delay_search(stops_third, &calls, delay_search_ladder, delay_search_ladder_len, 0.10, tried, &n);
    CHECK_INT(n, 2); /* a stop ends the search with what was measured */
    CHECK_INT(best, 0);
}

/* Seed 004's published MLC loaded-latency curve (96 threads, 2 sockets): latency
 * holds near idle up to ~133 GB/s (delay 300), then jumps to 294+ ns. */
TEST(curve_knee_is_where_latency_leaves_idle_on_mlcs_curve)
{
    const double bw[] = {159154.0, 159225.6, 159201.7, 159040.5, 159171.9, 158992.6, 158637.6,
                         132998.9, 102244.7, 83217.0,  60426.1,  42927.2,  33361.5,  25747.4,
                         17829.5,  13006.8,  9351.6,   5555.4,   2932.1};
    const double lat[] = {329.26, 330.68, 330.86, 329.26, 326.68, 325.98, 293.81, 127.88, 110.64, 101.15,
                          96.70,  91.30,  89.38,  88.10,  86.39,  84.41,  83.80,  82.63,  82.30};
    CHECK_INT(curve_knee(bw, lat, 19), 7);
    const double flat[] = {80, 80, 80};
    CHECK_INT(curve_knee(bw, flat, 3), -1);
    CHECK_INT(curve_knee(bw, lat, 2), -1);
}

TEST(traffic_cpus_keep_the_chasers_core_free)
{
    topology t;
    CHECK(topology_load(fixture_two_socket_smt(), NULL, &t)); /* CPU c and c+8 share a core */
    int out[16];
    size_t n = traffic_cpus(&t, NULL, false, 1, false, out, 16);
    CHECK_INT(n, 14);
    for (size_t i = 0; i < n; i++)
        CHECK(out[i] != 1 && out[i] != 9);
    n = traffic_cpus(&t, NULL, false, 1, true, out, 16); /* --share-core: the sibling works */
    CHECK_INT(n, 15);
    n = traffic_cpus(&t, NULL, true, -1, false, out, 16); /* one per core */
    CHECK_INT(n, 8);
    for (size_t i = 0; i < n; i++)
        CHECK_INT(out[i], (int)i);
    cpu_list only;
    CHECK(cpu_list_parse("8-10", &only));
    n = traffic_cpus(&t, &only, false, 0, false, out, 16); /* 8 is CPU 0's sibling */
    CHECK_INT(n, 2);
    CHECK_INT(out[0], 9);
    CHECK_INT(out[1], 10);
    cpu_list_free(&only);
    CHECK(dram_basis_for(&t, NULL, 0).bytes == 2 * topology_cache_level(&t, 3).size); /* both sockets' L3 */
    int one_socket[] = {1, 2, 3};
    dram_basis b = dram_basis_for(&t, one_socket, 3);
    CHECK(b.instances == 1 && b.bytes == topology_cache_level(&t, 3).size); /* threads on one socket: its L3 */
    topology_free(&t);
}

TEST(traffic_buffers_outgrow_the_llc_within_the_budget)
{
    const uint64_t mib = 1 << 20;
    bool capped = true;
    CHECK(traffic_buffer_default(4 * 32 * mib, 2, 3, 64 * 1024 * mib, &capped) == 64 * mib); /* the floor */
    CHECK(!capped);
    CHECK(traffic_buffer_default(4 * 256 * mib, 1, 1, 64 * 1024 * mib, &capped) == 1024 * mib); /* 4x the LLC */
    /* whole MiB, rounded up: 3 x 342 MiB reach the rule, 3 x 341 would not */
    CHECK(traffic_buffer_default(4 * 256 * mib, 3, 1, 64 * 1024 * mib, &capped) == 342 * mib);
    CHECK(traffic_buffer_default(2032 * mib, 2, 1, 64 * 1024 * mib, &capped) == 1016 * mib);
    CHECK(!capped);
    CHECK(traffic_buffer_default(4 * 32 * mib, 2, 3, 600 * mib, &capped) == 50 * mib); /* half the budget over 6 buffers */
    CHECK(capped);
    CHECK(traffic_buffer_default(4 * 32 * mib, 2, 3, 10 * mib, &capped) == 0);
    CHECK(traffic_unit(0, 0) == TRAFFIC_UNIT_FAST && traffic_unit(1, 0) == TRAFFIC_UNIT_PACED);
    CHECK(traffic_unit(0, 64 * mib) == TRAFFIC_UNIT_FAST);
    /* a step of W17 (9 units through the read buffer) must fit a 1 MiB buffer */
    CHECK(traffic_unit(0, mib) == 64 << 10);
    CHECK(traffic_unit(0, mib) * 9 <= mib);
    CHECK(traffic_unit(7, mib) == TRAFFIC_UNIT_PACED);
}

TEST(loaded_curve_back_to_idle_when_the_intervals_meet)
{
    loaded_point near = {20000, 10, 322, 318, 330};
    loaded_point far = {20000, 10, 890, 850, 930};
    CHECK(loaded_back_to_idle(&near, 316, 310, 325));
    CHECK(!loaded_back_to_idle(&far, 316, 310, 325));
    loaded_point below = {20000, 10, 300, 290, 309}; /* wholly below idle: not idle either */
    CHECK(!loaded_back_to_idle(&below, 316, 310, 325));
    /* issue 45: two wide intervals that meet are not enough; the median within 10% */
    loaded_point wide = {20000, 10, 204.8, 150, 260};
    CHECK(!loaded_back_to_idle(&wide, 158.2, 120, 200)); /* +29% */
    loaded_point within = {20000, 10, 173, 150, 260};
    CHECK(loaded_back_to_idle(&within, 158.2, 120, 200)); /* +9.4% */
    loaded_point lower = {20000, 10, 143, 120, 160};
    CHECK(loaded_back_to_idle(&lower, 158.2, 120, 200)); /* -9.6% */
    CHECK(!loaded_back_to_idle(&lower, 160, 150, 200)); /* 143 against 160: -10.6%, the intervals meeting */
    loaded_point apart = {20000, 10, 108, 106, 110}; /* +8%, but both intervals tight and apart */
    CHECK(!loaded_back_to_idle(&apart, 100, 98, 102));
}

TEST(loaded_curve_says_latency_below_idle)
{
    loaded_point p = {0, 20000, 153, 140, 160}; /* issue 45: 153 ns under load, 179 idle */
    CHECK(loaded_below_idle(&p, 179));
    CHECK(!loaded_below_idle(&p, 169)); /* -9.5%: within the tolerance */
    CHECK(!loaded_below_idle(&p, 150));
}

TEST(loaded_curve_flags_bandwidth_gains_and_latency_rises_as_the_delay_grows)
{
    /* delay, MB/s, latency and its interval */
    const loaded_point pts[] = {
        {0, 30000, 500, 480, 520},
        {100, 25000, 400, 390, 410},
        {200, 28000, 380, 370, 390},  /* +12% bandwidth: flagged */
        {500, 10000, 450, 420, 470},  /* latency interval above the one before: flagged */
        {1000, 5200, 455, 440, 480},  /* less bandwidth, latency overlapping the one before: fine */
        {20000, 10, 320, 300, 470},
    };
    int flags[6];
    CHECK_INT(loaded_out_of_order(pts, 6, flags), 2);
    CHECK_INT(flags[0], 0);
    CHECK_INT(flags[1], 0);
    CHECK_INT(flags[2], 1);
    CHECK_INT(flags[3], 2);
    CHECK_INT(flags[4], 0);
    CHECK_INT(flags[5], 0);
}

TEST(loaded_curve_knee_needs_a_rise_beyond_the_intervals)
{
    const loaded_point bends[] = {
        {20000, 10, 100, 98, 102}, {1000, 5000, 102, 99, 105}, {200, 15000, 110, 106, 114}, {0, 20000, 300, 280, 320}};
    CHECK(loaded_knee_significant(bends, 4, 2, 102));
    const loaded_point flat[] = {
        {20000, 10, 100, 90, 130}, {1000, 5000, 105, 95, 128}, {200, 15000, 110, 100, 125}, {0, 20000, 120, 100, 126}};
    CHECK(!loaded_knee_significant(flat, 4, 2, 130)); /* every rise inside the knee's interval */
    CHECK(!loaded_knee_significant(bends, 4, 2, 400)); /* above the knee, but not above idle's interval */
    const loaded_point wide[] = {{20000, 10, 100, 98, 102}, {200, 15000, 110, 100, 200}, {0, 20000, 180, 150, 210}};
    CHECK(!loaded_knee_significant(wide, 3, 1, 120)); /* above idle's, but inside the knee's own interval */
    CHECK(!loaded_knee_significant(bends, 4, -1, 102));
}
