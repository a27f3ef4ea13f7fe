/* SPDX-License-Identifier: MIT */
/* Aggregate bandwidth is all bytes over the slowest thread's time, never the
 * fastest's: a 2-thread team where thread 1 sleeps after every kernel call, for
 * the sweep (measure_bandwidth) and STREAM (stream_measure). The sleep is a lower
 * bound the code under test must see; nothing is asserted about how fast the
 * other thread is. */
#include <pthread.h>

#include "kernels/kernel.h"
#include "kernels/stream_kernels.h"
#include "measure/bandwidth.h"
#include "measure/stop.h"
#include "measure/stream_run.h"
#include "team/team.h"
#include "test.h"

#define SLOW_S 0.002

static pthread_t slow_thread;
static const kernel *inner[STREAM_NFUNCS];

static void nap_if_slow(void)
{
    if (pthread_equal(pthread_self(), slow_thread))
        test_sleep(SLOW_S);
}

#define SLOWED(i)                                                                                                  \
    static uint64_t slowed_##i(const kernel_args *a)                                                               \
    {                                                                                                              \
        uint64_t x = inner[i]->fn(a);                                                                              \
        nap_if_slow();                                                                                             \
        return x;                                                                                                  \
    }
SLOWED(0)
SLOWED(1)
SLOWED(2)
SLOWED(3)
static const kernel_fn slowed[STREAM_NFUNCS] = {slowed_0, slowed_1, slowed_2, slowed_3};

static void note_slow_thread(team *t, int tid, void *arg)
{
    (void)t;
    (void)arg;
    if (tid == 1)
        slow_thread = pthread_self();
}

static team *two_thread_team(void)
{
    team_place p[2] = {{{NULL, 0}}, {{NULL, 0}}}; /* unpinned: any machine */
    team *t = team_create(p, 2, NULL);
    if (t)
        team_run(t, note_slow_thread, NULL);
    return t;
}

TEST(sweep_bandwidth_is_bytes_over_the_slowest_thread)
{
    stop_reset();
    team *t = two_thread_team();
    CHECK(t != NULL);
    const kernel *real = kernel_choose(KERNEL_SWEEP, OP_READ, STORE_ANY, NULL, false);
    CHECK(real != NULL);
    if (!t || !real)
        return;
    inner[0] = real;
    kernel k = *real;
    k.fn = slowed[0];
    bandwidth_request rq = {&k, 64 * 1024, 3, SLOW_S / 2, PAGES_NORMAL, 2 << 20, NULL, NULL};
    result_record r;
    result_init(&r, "test", "read", METRIC_BANDWIDTH);
    CHECK_INT(measure_bandwidth(t, &rq, &r), MEASURE_OK);
    /* thread 1 slept SLOW_S after each of its passes: every sample lasted that long */
    CHECK(r.elapsed_s >= SLOW_S * (double)r.iterations);
    CHECK(params_get_number(&r.params, "thread_time_max_s", 0) >= SLOW_S * (double)r.iterations);
    CHECK_NEAR(r.bytes_per_sample, 2.0 * 64 * 1024 * (double)r.iterations, 0); /* both threads' bytes */
    for (int i = 0; i < r.nsamples; i++)
        CHECK(result_sample_seconds(&r, i) >= SLOW_S * (double)r.iterations);
    result_free(&r);
    team_destroy(t);
}

static void count_between(void *ctx)
{
    (*(int *)ctx)++; /* thread 0 alone: the others wait at the barrier */
}

TEST(stream_rates_are_bytes_over_the_slowest_thread)
{
    stop_reset();
    team *t = two_thread_team();
    const stream_kernel_set *real = stream_kernels_select(false, NULL, false);
    CHECK(t != NULL && real != NULL);
    if (!t || !real)
        return;
    stream_kernel_set set = *real;
    kernel k[STREAM_NFUNCS];
    for (int f = 0; f < STREAM_NFUNCS; f++) {
        inner[f] = real->k[f];
        k[f] = *real->k[f];
        k[f].fn = slowed[f];
        set.k[f] = &k[f];
    }
    int between = 0;
    stream_request rq = {8192, 3, &set, PAGES_NORMAL, 2 << 20, count_between, &between};
    result_record out[STREAM_NFUNCS];
    const char *names[STREAM_NFUNCS] = {"copy", "scale", "add", "triad"};
    for (int f = 0; f < STREAM_NFUNCS; f++)
        result_init(&out[f], "test", names[f], METRIC_BANDWIDTH);
    CHECK_INT(stream_measure(t, &rq, out), MEASURE_OK);
    for (int f = 0; f < STREAM_NFUNCS; f++) {
        CHECK_INT(out[f].nsamples, 2); /* iteration 0 left out, as in STREAM */
        for (int i = 0; i < out[f].nsamples; i++)
            CHECK(result_sample_seconds(&out[f], i) >= SLOW_S);
        result_free(&out[f]);
    }
    /* the host probe's hook: once between each two iterations, by one thread */
    CHECK_INT(between, 2);
    team_destroy(t);
}
