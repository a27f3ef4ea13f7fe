/* SPDX-License-Identifier: MIT */
#include "measure/delay_search.h"

const uint64_t delay_search_ladder[] = {0, 5, 10, 20, 40, 70, 100, 150, 200, 300, 500, 800};
const int delay_search_ladder_len = (int)(sizeof delay_search_ladder / sizeof delay_search_ladder[0]);

int delay_search(delay_probe probe, void *ctx, const uint64_t *ladder, int n, double drop, delay_point *tried,
                 int *ntried)
{
    int best = -1, below = 0;
    *ntried = 0;
    for (int i = 0; i < n && i < DELAY_SEARCH_MAX && below < 2; i++) {
        double mbs = probe(ladder[i], ctx);
        if (mbs < 0)
            break;
        tried[*ntried] = (delay_point){ladder[i], mbs};
        if (best < 0 || mbs > tried[best].mb_s) {
            best = *ntried;
            below = 0;
        } else if (mbs < (1 - drop) * tried[best].mb_s) {
            below++;
        }
        (*ntried)++;
    }
    return best;
}
