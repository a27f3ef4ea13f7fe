#include "kernels/chase.h"

#include <stdlib.h>

uint64_t chase_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void *chase_build(void *buf, size_t bytes, size_t stride, uint64_t seed)
{
    size_t n = bytes / stride;
    if (n == 0 || stride < sizeof(void *))
        return NULL;
    uint32_t *order = malloc(n * sizeof *order);
    if (!order)
        return NULL;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    /* Fisher-Yates shuffle of the visiting order; linking order[k] -> order[k+1]
     * (and the last back to the first) gives a single cycle through all nodes. */
    uint64_t state = seed;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(chase_random(&state) % (uint64_t)(i + 1));
        uint32_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    char *base = buf;
    for (size_t k = 0; k < n; k++) {
        void **node = (void **)(void *)(base + (size_t)order[k] * stride);
        *node = base + (size_t)order[(k + 1) % n] * stride;
    }
    void *start = base + (size_t)order[0] * stride;
    free(order);
    return start;
}

void *chase_run(void *p, uint64_t steps)
{
    void **q = p;
    uint64_t blocks = steps / 16, rest = steps % 16;
    for (uint64_t b = 0; b < blocks; b++) {
        /* Sixteen dependent loads per loop test keep loop overhead out of the result. */
        q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q;
        q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q;
    }
    for (uint64_t r = 0; r < rest; r++)
        q = *q;
    return q;
}
