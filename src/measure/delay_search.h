/* SPDX-License-Identifier: MIT */
/* MLC's --max_bandwidth: the same traffic at several injection delays, the best
 * kept. With many threads a little delay can raise bandwidth (fewer requests
 * fighting in the queues), so the search walks a ladder of delays upward from 0
 * and stops once bandwidth has fallen well below the best so far twice running:
 * past the best, more delay only starves the memory. */
#ifndef MEMBENCH_DELAY_SEARCH_H
#define MEMBENCH_DELAY_SEARCH_H

#include <stdint.h>

#define DELAY_SEARCH_MAX 16

/* Measures the traffic at one delay: MB/s, or < 0 when stopped (the search ends). */
typedef double (*delay_probe)(uint64_t delay, void *ctx);

typedef struct {
    uint64_t delay;
    double mb_s;
} delay_point;

/* The default ladder. */
extern const uint64_t delay_search_ladder[];
extern const int delay_search_ladder_len;

/* Probes ladder[0], ladder[1], ... (at most DELAY_SEARCH_MAX) until two in a row
 * fall below (1 - drop) x the best so far. Writes every point tried to tried[] and
 * their number to *ntried; returns the index of the best in tried[], -1 when none
 * was measured. */
int delay_search(delay_probe probe, void *ctx, const uint64_t *ladder, int n, double drop, delay_point *tried,
                 int *ntried);

#endif
