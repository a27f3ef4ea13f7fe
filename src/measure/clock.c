/* SPDX-License-Identifier: MIT */
#include "measure/clock.h"

double clock_resolution(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
        return 1e-6;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
