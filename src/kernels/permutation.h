/* SPDX-License-Identifier: MIT */
/* A keyed bijection on [0, n) that needs no memory: a 4-round unbalanced Feistel
 * network on the smallest power-of-two domain >= n, with cycle-walking to stay
 * below n. Both directions are O(1), so a chase chain can be written in address
 * order (sequential stores, parallel-friendly) instead of shuffling an index
 * array and scattering writes over the buffer: next(i) = f(f^-1(i) + 1). */
#ifndef MEMBENCH_PERMUTATION_H
#define MEMBENCH_PERMUTATION_H

#include <stdint.h>

typedef struct {
    uint64_t n;
    unsigned lo_bits, hi_bits; /* domain = 2^(lo_bits + hi_bits) */
    uint64_t keys[4];
} permutation;

/* n >= 1. The same (n, seed) always gives the same permutation. */
void permutation_init(permutation *p, uint64_t n, uint64_t seed);
uint64_t permutation_forward(const permutation *p, uint64_t x);
uint64_t permutation_inverse(const permutation *p, uint64_t y);

#endif
