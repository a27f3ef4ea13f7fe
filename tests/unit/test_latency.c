/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <string.h>

#include "cli/latency_options.h"
#include "measure/cache_estimate.h"
#include "measure/latency.h"
#include "memory/page_policy.h"
#include "modes/latency_mode.h"
#include "fixtures.h"
#include "test.h"
#include "test_parse.h"
#include "util/parse_size.h"

#define KB 1024ULL
#define MB (1024ULL * 1024ULL)

TEST(parse_size_units)
{
    uint64_t v;
    CHECK(parse_size("4K", 0, UINT64_MAX, &v));
    CHECK_INT(v, 4 * KB);
    CHECK(parse_size("64m", 0, UINT64_MAX, &v));
    CHECK_INT(v, 64 * MB);
    CHECK(parse_size("2G", 0, UINT64_MAX, &v));
    CHECK_INT(v, 2048 * MB);
    CHECK(parse_size("16", 0, UINT64_MAX, &v)); /* bare number: KiB, like -s */
    CHECK_INT(v, 16 * KB);
    const char *bad[] = {"", "K", "4KB", "-4K", "4.5M", "abc", "99999999999999999999G", "4T"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!parse_size(bad[i], 0, UINT64_MAX, &v));
    CHECK(!parse_size("2K", 4096, UINT64_MAX, &v));
}

/* A synthetic curve: L1 32K at 1 ns, L2 1M at 4 ns, L3 8M at 15 ns, DRAM 100 ns,
 * four points per octave, with a gradual climb after each capacity. */
static size_t synthetic_curve(uint64_t *sizes, double *lat)
{
    size_t n = 0;
    for (double s = 4 * KB; s <= 64 * MB; s *= 1.189207115) {
        double l = s <= 32 * KB ? 1 : s <= 1 * MB ? 4 : s <= 8 * MB ? 15 : 100;
        /* the first point past each capacity is only part way up */
        if (s > 32 * KB && s <= 40 * KB)
            l = 2.2;
        if (s > 8 * MB && s <= 10 * MB)
            l = 45;
        sizes[n] = (uint64_t)s;
        lat[n] = l * (1 + 0.02 * (double)(n % 3)); /* a little noise */
        n++;
    }
    return n;
}

TEST(latency_steps_found_at_each_capacity)
{
    uint64_t sizes[128];
    double lat[128];
    latency_step steps[MAX_LATENCY_STEPS];
    size_t n = synthetic_curve(sizes, lat);
    size_t found = fixture_latency_steps(sizes, lat, n, steps);
    CHECK_INT(found, 3);
    CHECK(steps[0].last_size_before <= 32 * KB && steps[0].last_size_before > 26 * KB);
    CHECK(steps[1].last_size_before <= 1 * MB && steps[1].last_size_before > 800 * KB);
    CHECK(steps[2].last_size_before <= 8 * MB && steps[2].last_size_before > 6 * MB);
    CHECK_NEAR(steps[2].latency_after_ns, 100, 5);
}

TEST(latency_steps_ignore_a_lone_outlier)
{
    uint64_t sizes[] = {4096, 8192, 16384, 32768, 65536, 131072};
    double lat[] = {1.0, 1.0, 2.8, 1.02, 4.0, 4.1}; /* 16K is one noisy sample */
    latency_step steps[MAX_LATENCY_STEPS];
    CHECK_INT(fixture_latency_steps(sizes, lat, 6, steps), 1);
    CHECK_INT(steps[0].last_size_before, 32768);
}

TEST(latency_steps_flat_or_tiny_curves)
{
    uint64_t sizes[] = {4096, 8192, 16384, 32768};
    double flat[] = {1.0, 1.05, 0.98, 1.1};
    latency_step steps[MAX_LATENCY_STEPS];
    CHECK_INT(fixture_latency_steps(sizes, flat, 4, steps), 0);
    CHECK_INT(fixture_latency_steps(sizes, flat, 1, steps), 0);
    double one[] = {1.0, 1.0, 3.0, 3.1};
    CHECK_INT(fixture_latency_steps(sizes, one, 4, steps), 1);
    CHECK_INT(steps[0].last_size_before, 8192);
    CHECK_INT(steps[0].first_size_after, 16384);
}

#define lparse(o, err, ...) test_parse_mode(&latency_mode, o, err, __VA_ARGS__)

TEST(latency_options_parse_and_refuse)
{
    latency_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    CHECK_INT(lparse(&o, err, (char *)NULL), PARSE_OK);
    CHECK_INT(o.min_bytes, 4096);
    CHECK_INT(o.max_bytes, 0);
    CHECK_INT(o.points_per_octave, 4);
    CHECK_INT(o.order, CHASE_TLB_LOCAL); /* multichase's order: the headline without page walks */
    CHECK_INT(lparse(&o, err, "--full-random", (char *)NULL), PARSE_OK);
    CHECK_INT(o.order, CHASE_RANDOM);
    CHECK_INT(lparse(&o, err, "--full-random", "--page-local", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "--page-local and --full-random conflict");
    CHECK_INT(lparse(&o, err, "--full-random", "--stride", "128", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "--full-random and --stride conflict");
    CHECK_INT(lparse(&o, err, "--min", "16K", "--max", "64M", "--page-local", "--pages", "2m", "--csv", (char *)NULL),
              PARSE_OK);
    CHECK_INT(o.order, CHASE_PAGE_LOCAL);
    CHECK_INT(o.common.pages, PAGE_CHOICE_2M);
    CHECK_INT(o.max_bytes, 64 * MB);
    CHECK_INT(lparse(&o, err, "--stride", "128", (char *)NULL), PARSE_OK);
    CHECK_INT(o.order, CHASE_STRIDED);
    CHECK_INT(o.stride, 128);
    struct {
        const char *a, *b, *needle;
    } bad[] = {
        {"--min", "2K", "'2K'"},          {"--max", "abc", "'abc'"},
        {"--points-per-octave", "0", "'0'"}, {"--stride", "12", "'12'"},
        {"--pages", "64k", "'64k'"},      {"--cpu", "-1", "'-1'"},
        {"--sample-ms", "x", "'x'"},      {"--seed", "1.5", "'1.5'"},
        {"--bogus", NULL, "'--bogus'"},   {"stray", NULL, "'stray'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse_result r = bad[i].b ? lparse(&o, err, bad[i].a, bad[i].b, (char *)NULL) : lparse(&o, err, bad[i].a, (char *)NULL);
        CHECK_INT(r, PARSE_ERROR);
        CHECK_CONTAINS(err, bad[i].needle);
    }
    CHECK_INT(lparse(&o, err, "--stride", "64", "--page-local", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "conflict");
    CHECK_INT(lparse(&o, err, "--min", "1M", "--max", "64K", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "smaller than --min");
    CHECK_INT(lparse(&o, err, "--mem-node", "1", (char *)NULL), PARSE_OK);
    CHECK_INT(o.mem_policy, MEM_POLICY_BIND); /* numactl --membind, as documented */
    CHECK_INT(lparse(&o, err, "--mem-node", "1", "--mem-policy", "preferred", (char *)NULL), PARSE_OK);
    CHECK_INT(o.mem_policy, MEM_POLICY_PREFERRED);
    CHECK_INT(lparse(&o, err, "--mem-policy", "preferred", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "--mem-policy needs --mem-node");
    options_free(&o);
}

/* chase_settle's scripted chases: ns per step, one per call. */
typedef struct {
    const double *ns;
    int n, calls;
} scripted_chases;

static double next_scripted_chase(void *ctx)
{
    scripted_chases *s = ctx;
    int i = s->calls++;
    return i < s->n ? s->ns[i] : 1e9; /* past the script: slower, so it stops */
}

/* The warm-up goes on while each chase is more than 5% faster than the last: stops
 * at the first that is not (it still ran), never past 12. */
TEST(latency_warm_up_goes_on_while_the_chase_gets_faster)
{
    const double cooling[] = {87, 60, 45, 38, 37.5, 20};
    scripted_chases s = {cooling, 6, 0};
    CHECK_INT(chase_settle(100, next_scripted_chase, &s), 5); /* 37.5 is not 5% below 38 */
    CHECK_INT(s.calls, 5);
    const double slower[] = {101, 50};
    s = (scripted_chases){slower, 2, 0};
    CHECK_INT(chase_settle(100, next_scripted_chase, &s), 1);
    const double within5[] = {96, 50}; /* faster, but by less than 5% */
    s = (scripted_chases){within5, 2, 0};
    CHECK_INT(chase_settle(100, next_scripted_chase, &s), 1);
    double halving[20];
    for (int i = 0; i < 20; i++)
        halving[i] = 100.0 / (2 << i);
    s = (scripted_chases){halving, 20, 0};
    CHECK_INT(chase_settle(100, next_scripted_chase, &s), 12);
    CHECK_INT(s.calls, 12);
}

/* A later visit's discarded chase: a quarter of a sample, but at least one whole
 * traversal (the chain is back in the caches only then), never more than a sample. */
TEST(latency_later_visits_warm_up_with_a_whole_traversal)
{
    /* chains of at most one page per sample: the page floor adds nothing */
    CHECK_INT((long long)chase_warmup_steps(227000, 65536, 1024, true), 227000);  /* first visit: a sample */
    CHECK_INT((long long)chase_warmup_steps(227000, 65536, 1024, false), 65536);  /* quarter < one traversal */
    CHECK_INT((long long)chase_warmup_steps(625000, 65536, 1024, false), 156251); /* quarter > one traversal */
    CHECK_INT((long long)chase_warmup_steps(111000, 1 << 20, 16384, false), 111000); /* capped at a sample */
    CHECK_INT((long long)chase_warmup_steps(1000, 0, 0, false), 251);
}

/* Every visit's discarded chase is at least one load per 4 KiB page of the chain
 * (the page walk's tables back in the caches), but never more than one traversal
 * nor four samples. */
TEST(latency_warm_up_loads_every_page_once)
{
    /* 1 GiB of 64-byte nodes: 16 Mi nodes, 256 Ki pages; 95,000 steps a sample */
    CHECK_INT((long long)chase_warmup_steps(95000, 16777216, 262144, true), 262144);
    CHECK_INT((long long)chase_warmup_steps(95000, 16777216, 262144, false), 262144);
    /* four samples are fewer than the pages: four samples */
    CHECK_INT((long long)chase_warmup_steps(50000, 16777216, 262144, false), 200000);
    CHECK_INT((long long)chase_warmup_steps(50000, 16777216, 262144, true), 200000);
    /* nodes of a whole page (a 4 KiB stride): one traversal is every page */
    CHECK_INT((long long)chase_warmup_steps(95000, 200000, 262144, false), 200000);
    /* unknown nodes: pages, within four samples */
    CHECK_INT((long long)chase_warmup_steps(95000, 0, 262144, false), 262144);
    /* pages fewer than the sample's warm-up: the sample's */
    CHECK_INT((long long)chase_warmup_steps(95000, 16777216, 65536, true), 95000);
    CHECK_INT((long long)chase_warmup_steps(95000, 16777216, 65536, false), 95000);
}

/* A latency point's last round shifted when its samples (2 or more) all lie above
 * every earlier sample (the host slowed); then the CV rule asks for no more rounds.
 * A round wholly below (the host recovered) is no shift: more rounds are welcome. */
TEST(latency_cv_rule_stops_at_a_shifted_round)
{
    /* a 1 GiB point of calibration batch 10: rounds 1-2 at 218-224 ns, round 3 at 255-274 */
    double ns[] = {223, 224, 223, 220, 218, 223, 274, 255, 259};
    int rounds[] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    CHECK(chase_last_round_shifted(ns, rounds, 9));
    CHECK(!chase_last_round_shifted(ns, rounds, 6)); /* rounds 1-2 overlap */
    CHECK(!chase_last_round_shifted(ns, rounds, 3)); /* nothing earlier */
    CHECK(!chase_last_round_shifted(ns, rounds, 0));
    CHECK(!chase_last_round_shifted(ns, rounds, 7)); /* round 3's first sample alone: not a shift yet */
    double down[] = {37, 41, 37, 29, 33, 34, 16, 16, 16}; /* a 2 MiB point of batch 11 */
    CHECK(!chase_last_round_shifted(down, rounds, 9));
    double touching[] = {223, 224, 223, 220, 218, 223, 224, 255, 259}; /* 224 is an earlier sample's */
    CHECK(!chase_last_round_shifted(touching, rounds, 9));
    int one_round[] = {1, 1, 1, 1, 1, 1, 1, 1, 1}; /* --rounds 1: the samples of one visit */
    CHECK(!chase_last_round_shifted(ns, one_round, 9));

    latency_request rq = {0};
    rq.min_samples = 7, rq.max_samples = 21, rq.cv_target = 0.05;
    CHECK(chase_samples_want_more(&rq, ns, rounds, 6));       /* fewer than 7 */
    CHECK(!chase_samples_want_more(&rq, ns, rounds, 9));      /* CV 9%, but round 3 shifted */
    CHECK(chase_samples_want_more(&rq, touching, rounds, 9)); /* CV 6%, not shifted: more */
    CHECK(chase_samples_want_more(&rq, down, rounds, 9));     /* faster at last: more */
    CHECK(chase_samples_want_more(&rq, ns, rounds, 7));       /* CV 9%, round 3 one sample so far */
    CHECK(chase_samples_want_more(&rq, ns, one_round, 9));    /* one round: the CV rule alone */
    rq.max_samples = 9;
    CHECK(!chase_samples_want_more(&rq, touching, rounds, 9)); /* the most samples reached */
}

/* The step count follows the samples: one that lasted within 25% of the sample time
 * keeps it; one far off (a count calibrated on a chain the caches had lost: 6.5 ms
 * samples of 20 at 4 MiB) sets it to the sample time at the pace just measured. */
TEST(latency_step_count_follows_a_sample_far_from_its_length)
{
    /* 20 ms samples; 1,000,000 steps at 20 ns last 20 ms */
    CHECK_INT((long long)chase_resize_steps(0.020, 20.0, 1000000), 1000000);
    CHECK_INT((long long)chase_resize_steps(0.020, 15.1, 1000000), 1000000); /* 15.1 ms: within 25%, kept */
    CHECK_INT((long long)chase_resize_steps(0.020, 24.9, 1000000), 1000000); /* 24.9 ms: kept */
    CHECK_INT((long long)chase_resize_steps(0.020, 14.9, 1000000), 1342282); /* 14.9 ms: 25% short, resized */
    CHECK_INT((long long)chase_resize_steps(0.020, 25.1, 1000000), 796813);  /* 25.1 ms: 25% long, resized */
    CHECK_INT((long long)chase_resize_steps(0.020, 6.5, 1000000), 3076924);  /* 6.5 ms: 20 ms at 6.5 ns */
    CHECK_INT((long long)chase_resize_steps(0.020, 40.5, 1000000), 493828);  /* 40.5 ms: too long too */
    CHECK_INT((long long)chase_resize_steps(0.020, 0.0, 1000000), 1000000);  /* no pace: kept */
}
