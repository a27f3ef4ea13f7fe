/* SPDX-License-Identifier: MIT */
/* A read kernel's answer (the XOR of the words it read) is checked at every visit:
 * from the visit's last timed sample when its pass count is odd (one pass a
 * sample at DRAM sizes, no pass more), else from one pass more (an even count's
 * XOR is 0 whatever was read). And a first pass that lasts a sample already is
 * the visit's warm-up: no calibration sample follows it (the kernel's calls are
 * counted). A kernel that sleeps a fixed time at each call sets
 * the pass count: the sleep is a lower bound, so a slow host can only make a pass
 * longer; the margin below is 52 ms. */
#include "kernels/kernel.h"
#include "measure/bandwidth.h"
#include "measure/stop.h"
#include "team/team.h"
#include "test.h"

static const kernel *real_read;
static double first_nap_s, later_nap_s; /* the first call's sleep, and every other's */
static int calls;
static uint64_t spoil; /* XORed into every answer: 0, a right kernel */

static uint64_t napping_read(const kernel_args *a)
{
    uint64_t x = real_read->fn(a);
    test_sleep(calls++ == 0 ? first_nap_s : later_nap_s);
    return x ^ spoil;
}

/* One visit of 3 samples, each at least min_sample_s, on one thread. */
static measure_status read_visit(double first_s, double later_s, double min_sample_s, uint64_t wrong,
                                 uint64_t *passes)
{
    stop_reset();
    first_nap_s = first_s, later_nap_s = later_s, calls = 0, spoil = wrong;
    real_read = kernel_choose(KERNEL_SWEEP, OP_READ, STORE_ANY, NULL, false);
    team_place place = {{NULL, 0}};
    team *t = team_create(&place, 1, NULL);
    if (!real_read || !t) {
        CHECK(real_read != NULL && t != NULL);
        if (t)
            team_destroy(t);
        return MEASURE_NO_MEMORY;
    }
    kernel k = *real_read;
    k.fn = napping_read;
    bandwidth_request rq = {&k, 64 * 1024, 3, min_sample_s, PAGES_NORMAL, 2 << 20, NULL, NULL};
    result_record r;
    result_init(&r, "test", "read", METRIC_BANDWIDTH);
    measure_status ms = measure_bandwidth(t, &rq, &r);
    *passes = r.iterations;
    result_free(&r);
    team_destroy(t);
    return ms;
}

TEST(read_verified_from_its_timed_pass_or_one_more)
{
    uint64_t passes = 0;
    /* every pass 3 ms, samples of 1 ms (the calibration aims at 1.25): one pass a
     * sample, checked from the sample itself */
    CHECK_INT(read_visit(0.003, 0.003, 0.001, 0, &passes), MEASURE_OK);
    CHECK_INT((long long)passes, 1);
    /* and no pass more: the first pass, a sample long already, was the warm-up (no
     * calibration sample after it), then the 3 samples (no check pass) */
    CHECK_INT(calls, 4);
    CHECK_INT(read_visit(0.003, 0.003, 0.001, 1, &passes), MEASURE_WRONG_RESULT);
    /* the first pass 60 ms against the calibration's 112.5 ms aim (samples of 90
     * ms): two passes unless that sleep overran by 52 ms; each later one 75 ms, so
     * two are a full sample. An even count's XOR is 0: a right kernel must not be
     * called wrong for it, a wrong one still is */
    CHECK_INT(read_visit(0.060, 0.075, 0.090, 0, &passes), MEASURE_OK);
    CHECK_INT((long long)passes, 2);
    CHECK_INT(calls, 1 + 2 + 3 * 2 + 1); /* the first pass, a calibration sample, 3 samples, the check */
    CHECK_INT(read_visit(0.060, 0.075, 0.090, 1, &passes), MEASURE_WRONG_RESULT);
}
