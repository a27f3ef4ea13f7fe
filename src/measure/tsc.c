#include "measure/tsc.h"

#include "measure/clock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>

static int tsc_invariant(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 && __get_cpuid(0x80000007, &a, &b, &c, &d))
        return (d >> 8) & 1;
    return 0;
}

double tsc_frequency_hz(void)
{
    static double cached = -1;
    if (cached >= 0)
        return cached;
    cached = 0;
    if (!tsc_invariant())
        return cached;
    /* Both clocks run through the whole window, so preemption does not matter;
     * 20 ms makes the reading gaps at either end (ns) negligible. */
    double t0 = clock_now();
    unsigned long long c0 = __rdtsc();
    while (clock_now() - t0 < 0.02)
        ;
    unsigned long long c1 = __rdtsc();
    double best = (double)(c1 - c0) / (clock_now() - t0);
    cached = best;
    return cached;
}
#else
double tsc_frequency_hz(void)
{
    return 0;
}
#endif
