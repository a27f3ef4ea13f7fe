/* SPDX-License-Identifier: MIT */
#include "kernels/permutation.h"

#include "util/splitmix64.h"

static uint64_t mask_of(unsigned bits)
{
    return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* Round function: a multiply-xorshift mix of one half with the round key. */
static uint64_t mix(uint64_t x, uint64_t key)
{
    x ^= key;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 29);
}

void permutation_init(permutation *p, uint64_t n, uint64_t seed)
{
    unsigned bits = 2; /* at least a 4-element domain so both halves exist */
    while (bits < 64 && (1ULL << bits) < n)
        bits++;
    p->n = n;
    p->lo_bits = bits / 2;
    p->hi_bits = bits - p->lo_bits;
    uint64_t state = seed;
    for (int i = 0; i < 4; i++)
        p->keys[i] = splitmix64_next(&state);
}

/* One pass of the network on the 2^(lo+hi) domain. Rounds alternate which half is
 * modified; each round is invertible because the other half is unchanged. */
static uint64_t encrypt(const permutation *p, uint64_t x)
{
    uint64_t lo = x & mask_of(p->lo_bits), hi = x >> p->lo_bits;
    for (int r = 0; r < 4; r += 2) {
        hi = (hi ^ mix(lo, p->keys[r])) & mask_of(p->hi_bits);
        lo = (lo ^ mix(hi, p->keys[r + 1])) & mask_of(p->lo_bits);
    }
    return (hi << p->lo_bits) | lo;
}

static uint64_t decrypt(const permutation *p, uint64_t y)
{
    uint64_t lo = y & mask_of(p->lo_bits), hi = y >> p->lo_bits;
    for (int r = 2; r >= 0; r -= 2) {
        lo = (lo ^ mix(hi, p->keys[r + 1])) & mask_of(p->lo_bits);
        hi = (hi ^ mix(lo, p->keys[r])) & mask_of(p->hi_bits);
    }
    return (hi << p->lo_bits) | lo;
}

uint64_t permutation_forward(const permutation *p, uint64_t x)
{
    /* Cycle-walking: the domain is < 2n (or 4 for tiny n), so few steps on average. */
    do
        x = encrypt(p, x);
    while (x >= p->n);
    return x;
}

uint64_t permutation_inverse(const permutation *p, uint64_t y)
{
    do
        y = decrypt(p, y);
    while (y >= p->n);
    return y;
}
