/* SPDX-License-Identifier: MIT */
#include "measure/ref_counter.h"

#include "measure/clock.h"
#include "platform/arch.h"

#define CYCLE_COUNTER_MIN_HZ 500e6

double ref_counter_measured_hz(void)
{
    static double cached = -1;
    if (cached >= 0)
        return cached;
    cached = 0;
    if (!arch_counter_name() || !arch_counter_constant())
        return cached;
    /* Both clocks run through the whole window, so preemption does not matter;
     * 20 ms makes the reading gaps at either end (ns) negligible. */
    double t0 = clock_now();
    uint64_t c0 = arch_counter_read();
    while (clock_now() - t0 < 0.02)
        ;
    uint64_t c1 = arch_counter_read();
    double t1 = clock_now();
    if (c1 > c0)
        cached = (double)(c1 - c0) / (t1 - t0);
    return cached;
}

double ref_counter_hz(void)
{
    double hz = ref_counter_measured_hz();
    return hz >= CYCLE_COUNTER_MIN_HZ ? hz : 0;
}

const char *ref_counter_name(void)
{
    return arch_counter_name();
}
