#include "measure/cache_estimate.h"

#include <math.h>
#include <stdbool.h>

size_t find_latency_steps(const uint64_t *sizes, const double *latency_ns, size_t n, latency_step *steps)
{
    size_t found = 0;
    if (n < 2)
        return 0;
    double plateau = latency_ns[0];
    size_t i = 1;
    while (i < n && found < MAX_LATENCY_STEPS) {
        if (latency_ns[i] < plateau)
            plateau = latency_ns[i]; /* the plateau is its lowest point */
        /* A single high point that the next one does not confirm is noise. */
        bool confirmed = i + 1 >= n || latency_ns[i + 1] > plateau * STEP_RISE;
        if (latency_ns[i] <= plateau * STEP_RISE || !confirmed) {
            i++;
            continue;
        }
        /* Climb: follow it while each point still rises clearly. */
        size_t j = i;
        while (j + 1 < n && latency_ns[j + 1] >= latency_ns[j] * STEP_FLATTEN)
            j++;
        latency_step *s = &steps[found++];
        s->last_size_before = sizes[i - 1];
        s->first_size_after = sizes[j];
        s->latency_before_ns = plateau;
        s->latency_after_ns = latency_ns[j];
        plateau = latency_ns[j];
        i = j + 1;
    }
    return found;
}

const latency_step *nearest_step(const latency_step *steps, size_t n, uint64_t reported)
{
    const latency_step *best = NULL;
    double best_d = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(log2((double)steps[i].last_size_before) - log2((double)reported));
        if (d < best_d) {
            best_d = d;
            best = &steps[i];
        }
    }
    return best;
}
