/* SPDX-License-Identifier: MIT */
/* Portable C kernels: run on every architecture, and are the reference the vector
 * kernels are tested against. The sweep's read/write/copy work on eight 64-bit
 * words per step (independent XOR accumulators for read); STREAM's four come from
 * stream_body.h with one double per "vector". Regular stores only: C has no
 * portable non-temporal store. */
#include <stdint.h>

#include "kernels/kernel_impl.h"
#include "kernels/kernel_parts.h"

#define WORDS_PER_BLOCK (KERNEL_BLOCK / 8)

static uint64_t c_read(const kernel_args *args)
{
    const uint64_t *p = args->in[0], *end = p + args->bytes / 8;
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

static uint64_t c_write(const kernel_args *args)
{
    uint64_t pattern = args->pattern;
    uint64_t *p = args->out, *end = p + args->bytes / 8;
    for (; p < end; p += WORDS_PER_BLOCK) {
        for (size_t i = 0; i < WORDS_PER_BLOCK; i++)
            p[i] = pattern;
        KERNEL_BLOCK_BARRIER();
    }
    return 0;
}

static uint64_t c_copy(const kernel_args *args)
{
    const uint64_t *s = args->in[0], *end = s + args->bytes / 8;
    uint64_t *d = args->out;
    for (; s < end; s += WORDS_PER_BLOCK, d += WORDS_PER_BLOCK) {
        for (size_t i = 0; i < WORDS_PER_BLOCK; i++)
            d[i] = s[i];
        KERNEL_BLOCK_BARRIER();
    }
    return 0;
}

#define SB_VEC double
#define SB_LANES 1
#define SB_TARGET
#define SB_NAME(x) c_stream_##x
#define SB_LOADU(p) (*(p))
#define SB_STORE(p, v) (*(p) = (v))
#define SB_MUL(a, b) ((a) * (b))
#define SB_ADD(a, b) ((a) + (b))
#define SB_SET1(x) (x)
#include "kernels/stream_body.h"

const kernel portable_kernels[] = {KERNEL_ROWS_SWEEP("c", c_), KERNEL_ROWS_STREAM_REGULAR("c", c_stream_)};
const size_t portable_kernel_count = sizeof portable_kernels / sizeof portable_kernels[0];
