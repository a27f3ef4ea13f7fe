/* SPDX-License-Identifier: MIT */
/* Time: one monotonic clock for every measurement. */
#ifndef MEMBENCH_CLOCK_H
#define MEMBENCH_CLOCK_H

#include <time.h>

static inline double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resolution of clock_now in seconds (clock_getres), for the sample-length rule. */
double clock_resolution(void);

#endif
