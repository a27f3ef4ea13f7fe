/* SPDX-License-Identifier: MIT */
/* The sweep's kernels for one vector ISA, written once: included by a
 * kernels_<arch>.c after it defines the ISA's primitives
 *   KB_VEC, KB_TARGET, KB_NAME(x), KB_LOAD(p), KB_STORE(p, v), KB_XOR(a, b),
 *   KB_SET1(x), KB_ZERO()
 * and, where the ISA has non-temporal stores, KB_STREAM(p, v) and KB_FENCE().
 * Defines KB_NAME(read), (write), (copy) and, with KB_STREAM, (write_nt) and
 * (copy_nt), all kernel_fn (see kernel.h for the contract). Undefines the
 * primitives at the end, so the next ISA can define its own. */
#include <stdint.h>

#include "kernels/kernel_impl.h"

#define KB_PER_BLOCK (KERNEL_BLOCK / sizeof(KB_VEC))

static KB_TARGET uint64_t KB_NAME(reduce)(KB_VEC v)
{
    _Alignas(sizeof(KB_VEC)) uint64_t lanes[sizeof(KB_VEC) / 8]; /* aligned store target */
    KB_STORE((KB_VEC *)(void *)lanes, v);
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof(KB_VEC) / 8; i++)
        x ^= lanes[i];
    return x;
}

static KB_TARGET uint64_t KB_NAME(read)(const kernel_args *args)
{
    const KB_VEC *p = (const KB_VEC *)args->in[0];
    const KB_VEC *end = (const KB_VEC *)(const void *)((const char *)args->in[0] + args->bytes);
    /* Four independent accumulators so XOR latency never limits the load rate. */
    KB_VEC a0 = KB_ZERO(), a1 = KB_ZERO(), a2 = KB_ZERO(), a3 = KB_ZERO();
    for (; p < end; p += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i += 4) {
            a0 = KB_XOR(a0, KB_LOAD(p + i));
            a1 = KB_XOR(a1, KB_LOAD(p + i + 1));
            a2 = KB_XOR(a2, KB_LOAD(p + i + 2));
            a3 = KB_XOR(a3, KB_LOAD(p + i + 3));
        }
    }
    return KB_NAME(reduce)(KB_XOR(KB_XOR(a0, a1), KB_XOR(a2, a3)));
}

static KB_TARGET uint64_t KB_NAME(write)(const kernel_args *args)
{
    KB_VEC v = KB_SET1(args->pattern);
    KB_VEC *p = (KB_VEC *)args->out;
    KB_VEC *end = (KB_VEC *)(void *)((char *)args->out + args->bytes);
    for (; p < end; p += KB_PER_BLOCK) {
        /* four stores per step: one per step ran at 0.65x of likwid-bench
         * store_avx in L1 on Zen 3 (loop overhead and a taken branch per store) */
        for (size_t i = 0; i < KB_PER_BLOCK; i += 4) {
            KB_STORE(p + i, v);
            KB_STORE(p + i + 1, v);
            KB_STORE(p + i + 2, v);
            KB_STORE(p + i + 3, v);
        }
        KERNEL_BLOCK_BARRIER();
    }
    return 0;
}

static KB_TARGET uint64_t KB_NAME(copy)(const kernel_args *args)
{
    const KB_VEC *s = (const KB_VEC *)args->in[0];
    KB_VEC *d = (KB_VEC *)args->out;
    const KB_VEC *end = (const KB_VEC *)(const void *)((const char *)args->in[0] + args->bytes);
    for (; s < end; s += KB_PER_BLOCK, d += KB_PER_BLOCK) {
        /* Four loads, then four stores: the loads issue back to back instead of
         * each waiting behind the previous store (one pair per iteration ran at
         * 0.61x of likwid-bench copy_avx in L1 on Zen 3). */
        for (size_t i = 0; i < KB_PER_BLOCK; i += 4) {
            KB_VEC v0 = KB_LOAD(s + i), v1 = KB_LOAD(s + i + 1), v2 = KB_LOAD(s + i + 2), v3 = KB_LOAD(s + i + 3);
            KB_STORE(d + i, v0);
            KB_STORE(d + i + 1, v1);
            KB_STORE(d + i + 2, v2);
            KB_STORE(d + i + 3, v3);
        }
        KERNEL_BLOCK_BARRIER();
    }
    return 0;
}

#ifdef KB_STREAM
/* Non-temporal stores bypass the caches (no read-for-ownership of the target line);
 * the fence makes them globally visible before the timer stops. */
static KB_TARGET uint64_t KB_NAME(write_nt)(const kernel_args *args)
{
    KB_VEC v = KB_SET1(args->pattern);
    KB_VEC *p = (KB_VEC *)args->out;
    KB_VEC *end = (KB_VEC *)(void *)((char *)args->out + args->bytes);
    for (; p < end; p += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i += 4) { /* as in write */
            KB_STREAM(p + i, v);
            KB_STREAM(p + i + 1, v);
            KB_STREAM(p + i + 2, v);
            KB_STREAM(p + i + 3, v);
        }
        KERNEL_BLOCK_BARRIER();
    }
    KB_FENCE();
    return 0;
}

static KB_TARGET uint64_t KB_NAME(copy_nt)(const kernel_args *args)
{
    const KB_VEC *s = (const KB_VEC *)args->in[0];
    KB_VEC *d = (KB_VEC *)args->out;
    const KB_VEC *end = (const KB_VEC *)(const void *)((const char *)args->in[0] + args->bytes);
    for (; s < end; s += KB_PER_BLOCK, d += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i += 4) { /* grouped as in copy */
            KB_VEC v0 = KB_LOAD(s + i), v1 = KB_LOAD(s + i + 1), v2 = KB_LOAD(s + i + 2), v3 = KB_LOAD(s + i + 3);
            KB_STREAM(d + i, v0);
            KB_STREAM(d + i + 1, v1);
            KB_STREAM(d + i + 2, v2);
            KB_STREAM(d + i + 3, v3);
        }
        KERNEL_BLOCK_BARRIER();
    }
    KB_FENCE();
    return 0;
}
#endif

#undef KB_PER_BLOCK
#undef KB_VEC
#undef KB_TARGET
#undef KB_NAME
#undef KB_LOAD
#undef KB_STORE
#undef KB_XOR
#undef KB_SET1
#undef KB_ZERO
#undef KB_STREAM
#undef KB_FENCE
