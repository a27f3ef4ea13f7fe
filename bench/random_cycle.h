/* SPDX-License-Identifier: MIT */
/* The chain of the bench/ peers' plain chases (plain_chase.c, chase_warmup.c): every
 * 64-byte line of a buffer linked into one cycle in a fixed, repeatable random order
 * (an xorshift Fisher-Yates shuffle), so both programs chase the same order. */
#ifndef BENCH_RANDOM_CYCLE_H
#define BENCH_RANDOM_CYCLE_H

#include <stdint.h>
#include <stdlib.h>

#define CYCLE_LINE 64

/* Links buf's `lines` lines into one random cycle; false when the order's scratch
 * array cannot be allocated. */
static inline int link_random_cycle(char *buf, size_t lines)
{
    size_t *order = malloc(lines * sizeof *order);
    if (!order)
        return 0;
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    uint64_t x = 88172645463325252ull;
    for (size_t i = lines - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = (size_t)(x % (i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < lines; i++) /* each line points at the next in the order */
        *(void **)(buf + order[i] * CYCLE_LINE) = buf + order[(i + 1) % lines] * CYCLE_LINE;
    free(order);
    return 1;
}

#endif
