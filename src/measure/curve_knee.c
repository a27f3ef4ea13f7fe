/* SPDX-License-Identifier: MIT */
#include "measure/curve_knee.h"

int curve_knee(const double *bandwidth, const double *latency, int n)
{
    if (n < 3)
        return -1;
    int lo = 0, hi = 0;
    double lmin = latency[0], lmax = latency[0];
    for (int i = 1; i < n; i++) {
        if (bandwidth[i] < bandwidth[lo])
            lo = i;
        if (bandwidth[i] > bandwidth[hi])
            hi = i;
        lmin = latency[i] < lmin ? latency[i] : lmin;
        lmax = latency[i] > lmax ? latency[i] : lmax;
    }
    double bspan = bandwidth[hi] - bandwidth[lo], lspan = lmax - lmin;
    if (bspan <= 0 || lspan <= 0)
        return -1;
    /* the chord from lo to hi in scaled coordinates; distance below it */
    double y0 = (latency[lo] - lmin) / lspan, y1 = (latency[hi] - lmin) / lspan;
    int knee = -1;
    double deepest = 0;
    for (int i = 0; i < n; i++) {
        double x = (bandwidth[i] - bandwidth[lo]) / bspan, y = (latency[i] - lmin) / lspan;
        double depth = y0 + (y1 - y0) * x - y;
        if (depth > deepest) {
            deepest = depth;
            knee = i;
        }
    }
    return knee;
}
