/* SPDX-License-Identifier: MIT */
#include "measure/spin_delay.h"

#include <pthread.h>

#include "measure/clock.h"

#define CALIBRATION_ITERATIONS 2000000 /* ~1 ms per timing at 2 GHz */
#define CALIBRATION_ROUNDS 5

uint64_t spin_delay(uint64_t n)
{
    /* the asm makes i opaque, so the loop can be neither removed nor collapsed */
    uint64_t i = 0;
    for (; i < n; i++)
        __asm__ volatile("" : "+r"(i));
    return i;
}

double spin_calibrate(spin_timer timer, void *ctx, uint64_t n)
{
    double one = 0, two = 0;
    for (int r = 0; r < CALIBRATION_ROUNDS; r++) {
        double a = timer(n, ctx), b = timer(2 * n, ctx);
        if (r == 0 || a < one)
            one = a;
        if (r == 0 || b < two)
            two = b;
    }
    double slope = (two - one) / (double)n;
    if (slope <= 0) /* noise larger than n iterations: fall back to the plain ratio */
        slope = two / (double)(2 * n);
    return slope * 1e9;
}

static double time_spin(uint64_t n, void *ctx)
{
    (void)ctx;
    double t0 = clock_now();
    spin_delay(n);
    return clock_now() - t0;
}

static double ns_per_iteration;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void calibrate_once(void)
{
    ns_per_iteration = spin_calibrate(time_spin, NULL, CALIBRATION_ITERATIONS);
}

double spin_ns_per_iteration(void)
{
    pthread_once(&once, calibrate_once);
    return ns_per_iteration;
}
