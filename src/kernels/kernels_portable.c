/* Portable C kernels: run on every architecture, and are the reference the vector
 * kernels are tested against. Eight 64-bit words per step with independent XOR
 * accumulators; the empty asm per block stops loop-idiom recognition (memset/memcpy
 * calls) without costing an instruction. */
#include <stdint.h>

#include "kernels/kernels_portable.h"

#define WORDS_PER_BLOCK (KERNEL_BLOCK / 8)
#define BLOCK_BARRIER() __asm__ volatile("" ::: "memory")

static uint64_t c_read(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)dst;
    (void)pattern;
    const uint64_t *p = src, *end = p + bytes / 8;
    uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0;
    for (; p < end; p += 8) {
        x0 ^= p[0];
        x1 ^= p[1];
        x2 ^= p[2];
        x3 ^= p[3];
        x4 ^= p[4];
        x5 ^= p[5];
        x6 ^= p[6];
        x7 ^= p[7];
    }
    return x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
}

static uint64_t c_write(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)src;
    uint64_t *p = dst, *end = p + bytes / 8;
    for (; p < end; p += WORDS_PER_BLOCK) {
        for (size_t i = 0; i < WORDS_PER_BLOCK; i++)
            p[i] = pattern;
        BLOCK_BARRIER();
    }
    return 0;
}

static uint64_t c_copy(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)pattern;
    const uint64_t *s = src, *end = s + bytes / 8;
    uint64_t *d = dst;
    for (; s < end; s += WORDS_PER_BLOCK, d += WORDS_PER_BLOCK) {
        for (size_t i = 0; i < WORDS_PER_BLOCK; i++)
            d[i] = s[i];
        BLOCK_BARRIER();
    }
    return 0;
}

const kernel portable_kernels[] = {
    {OP_READ, "c", "loads", c_read},
    {OP_WRITE, "c", "regular", c_write},
    {OP_COPY, "c", "regular", c_copy},
};
const size_t portable_kernel_count = sizeof portable_kernels / sizeof portable_kernels[0];
