/* SPDX-License-Identifier: MIT */
#include "measure/loaded_curve.h"

bool loaded_back_to_idle(const loaded_point *largest, double idle_ns, double idle_low, double idle_high)
{
    double off = largest->latency_ns - idle_ns;
    return largest->latency_low <= idle_high && largest->latency_high >= idle_low &&
           (off < 0 ? -off : off) <= LOADED_IDLE_TOLERANCE * idle_ns;
}

bool loaded_below_idle(const loaded_point *p, double idle_ns)
{
    return p->latency_ns < idle_ns * (1 - LOADED_IDLE_TOLERANCE);
}

int loaded_out_of_order(const loaded_point *points, int n, int *flags)
{
    int flagged = 0;
    for (int i = 0; i < n; i++) {
        flags[i] = 0;
        if (i == 0)
            continue;
        const loaded_point *before = &points[i - 1], *p = &points[i];
        if (p->bandwidth_mb_s > before->bandwidth_mb_s * (1 + LOADED_BANDWIDTH_SLACK))
            flags[i] |= 1;
        if (p->latency_low > before->latency_high)
            flags[i] |= 2;
        flagged += flags[i] != 0;
    }
    return flagged;
}

bool loaded_knee_significant(const loaded_point *points, int n, int knee, double idle_high)
{
    if (knee < 0 || knee >= n)
        return false;
    const loaded_point *k = &points[knee];
    for (int i = 0; i < n; i++)
        if (points[i].bandwidth_mb_s > k->bandwidth_mb_s && points[i].latency_low > k->latency_high &&
            points[i].latency_low > idle_high)
            return true;
    return false;
}
