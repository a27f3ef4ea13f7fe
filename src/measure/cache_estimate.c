/* SPDX-License-Identifier: MIT */
#include "measure/cache_estimate.h"

#include <stdbool.h>

size_t find_latency_steps(const latency_point *p, size_t n, latency_step *steps)
{
    size_t found = 0;
    if (n < 2)
        return 0;
    size_t base = 0; /* the plateau's point: its lowest */
    size_t i = 1;
    while (i < n && found < MAX_LATENCY_STEPS) {
        if (p[i].ns < p[base].ns)
            base = i;
        double plateau = p[base].ns;
        /* A single high point that the next one does not confirm is noise, and so
         * is one whose interval reaches down into the plateau's. */
        bool confirmed = i + 1 >= n || p[i + 1].ns > plateau * STEP_RISE;
        bool apart = p[i].low > p[base].high;
        if (p[i].ns <= plateau * STEP_RISE || !confirmed || !apart) {
            i++;
            continue;
        }
        /* Climb: follow it while each point still rises clearly. */
        size_t j = i;
        while (j + 1 < n && p[j + 1].ns >= p[j].ns * STEP_FLATTEN)
            j++;
        latency_step *s = &steps[found++];
        s->last_size_before = p[i - 1].size;
        s->first_size_above = p[i].size;
        s->first_size_after = p[j].size;
        s->latency_before_ns = plateau;
        s->latency_after_ns = p[j].ns;
        base = j;
        i = j + 1;
    }
    return found;
}
