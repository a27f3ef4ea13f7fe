/* SPDX-License-Identifier: MIT */
/* Where a loaded-latency curve bends: latency stays near idle while bandwidth
 * grows, then climbs steeply near the peak. With bandwidth and latency each scaled
 * to [0, 1] over the points, the knee is the point farthest below the line from the
 * lowest-bandwidth point to the highest (the "Kneedle" rule): the most bandwidth
 * bought for the least added latency. Parameter-free, so no threshold decides it. */
#ifndef MEMBENCH_CURVE_KNEE_H
#define MEMBENCH_CURVE_KNEE_H

/* Index of the knee among n points (any order), -1 when n < 3 or the points have
 * no spread in bandwidth or latency. */
int curve_knee(const double *bandwidth, const double *latency, int n);

#endif
