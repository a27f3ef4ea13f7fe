/* One body for every vector ISA: included by each kernels_<isa>.c after it defines
 *   KB_VEC, KB_TARGET, KB_NAME(x), KB_LOAD(p), KB_STORE(p, v), KB_STREAM(p, v),
 *   KB_XOR(a, b), KB_SET1(x), KB_ZERO(), KB_FENCE()
 * so the ISAs differ only in their primitives and the loops are written once.
 * The empty asm with a memory clobber at the end of each block keeps the compiler
 * from recognising the loops as memset/memcpy and calling libc instead. */
#include <stdint.h>
#include <string.h>

#include "kernels/kernel.h"

#define KB_PER_BLOCK (KERNEL_BLOCK / sizeof(KB_VEC))
#define KB_BARRIER() __asm__ volatile("" ::: "memory")

static KB_TARGET uint64_t KB_NAME(reduce)(KB_VEC v)
{
    _Alignas(sizeof(KB_VEC)) uint64_t lanes[sizeof(KB_VEC) / 8]; /* aligned store target */
    KB_STORE((KB_VEC *)(void *)lanes, v);
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof(KB_VEC) / 8; i++)
        x ^= lanes[i];
    return x;
}

static KB_TARGET uint64_t KB_NAME(read)(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)dst;
    (void)pattern;
    const KB_VEC *p = (const KB_VEC *)src;
    const KB_VEC *end = (const KB_VEC *)(const void *)((const char *)src + bytes);
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

static KB_TARGET uint64_t KB_NAME(write)(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)src;
    KB_VEC v = KB_SET1(pattern);
    KB_VEC *p = (KB_VEC *)dst;
    KB_VEC *end = (KB_VEC *)(void *)((char *)dst + bytes);
    for (; p < end; p += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i++)
            KB_STORE(p + i, v);
        KB_BARRIER();
    }
    return 0;
}

static KB_TARGET uint64_t KB_NAME(copy)(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)pattern;
    const KB_VEC *s = (const KB_VEC *)src;
    KB_VEC *d = (KB_VEC *)dst;
    const KB_VEC *end = (const KB_VEC *)(const void *)((const char *)src + bytes);
    for (; s < end; s += KB_PER_BLOCK, d += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i++)
            KB_STORE(d + i, KB_LOAD(s + i));
        KB_BARRIER();
    }
    return 0;
}

#ifdef KB_STREAM
/* Non-temporal stores bypass the caches (no read-for-ownership of the target line);
 * the fence makes them globally visible before the timer stops. */
static KB_TARGET uint64_t KB_NAME(write_nt)(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)src;
    KB_VEC v = KB_SET1(pattern);
    KB_VEC *p = (KB_VEC *)dst;
    KB_VEC *end = (KB_VEC *)(void *)((char *)dst + bytes);
    for (; p < end; p += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i++)
            KB_STREAM(p + i, v);
        KB_BARRIER();
    }
    KB_FENCE();
    return 0;
}

static KB_TARGET uint64_t KB_NAME(copy_nt)(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)pattern;
    const KB_VEC *s = (const KB_VEC *)src;
    KB_VEC *d = (KB_VEC *)dst;
    const KB_VEC *end = (const KB_VEC *)(const void *)((const char *)src + bytes);
    for (; s < end; s += KB_PER_BLOCK, d += KB_PER_BLOCK) {
        for (size_t i = 0; i < KB_PER_BLOCK; i++)
            KB_STREAM(d + i, KB_LOAD(s + i));
        KB_BARRIER();
    }
    KB_FENCE();
    return 0;
}
#endif
