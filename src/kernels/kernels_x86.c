/* x86-64 kernels: AVX-512, AVX2 and SSE2, each built from kernel_body.h with a
 * per-function target attribute, so a generic build still runs the best ISA the CPU
 * has (chosen at run time in kernel_registry.c). */
#if defined(__x86_64__)
#include <immintrin.h>

#include "kernels/kernels_x86.h"

/* ---- SSE2 (every x86-64 CPU) ---- */
#define KB_VEC __m128i
#define KB_TARGET __attribute__((target("sse2")))
#define KB_NAME(x) sse2_##x
#define KB_LOAD(p) _mm_load_si128(p)
#define KB_STORE(p, v) _mm_store_si128((p), (v))
#define KB_STREAM(p, v) _mm_stream_si128((p), (v))
#define KB_XOR(a, b) _mm_xor_si128((a), (b))
#define KB_SET1(x) _mm_set1_epi64x((long long)(x))
#define KB_ZERO() _mm_setzero_si128()
#define KB_FENCE() _mm_sfence()
#include "kernels/kernel_body.h"
#undef KB_VEC
#undef KB_TARGET
#undef KB_NAME
#undef KB_LOAD
#undef KB_STORE
#undef KB_STREAM
#undef KB_XOR
#undef KB_SET1
#undef KB_ZERO
#undef KB_PER_BLOCK
#undef KB_BARRIER

/* ---- AVX2 ---- */
#define KB_VEC __m256i
#define KB_TARGET __attribute__((target("avx2")))
#define KB_NAME(x) avx2_##x
#define KB_LOAD(p) _mm256_load_si256(p)
#define KB_STORE(p, v) _mm256_store_si256((p), (v))
#define KB_STREAM(p, v) _mm256_stream_si256((p), (v))
#define KB_XOR(a, b) _mm256_xor_si256((a), (b))
#define KB_SET1(x) _mm256_set1_epi64x((long long)(x))
#define KB_ZERO() _mm256_setzero_si256()
#include "kernels/kernel_body.h"
#undef KB_VEC
#undef KB_TARGET
#undef KB_NAME
#undef KB_LOAD
#undef KB_STORE
#undef KB_STREAM
#undef KB_XOR
#undef KB_SET1
#undef KB_ZERO
#undef KB_PER_BLOCK
#undef KB_BARRIER

/* ---- AVX-512 (foundation subset only) ---- */
#define KB_VEC __m512i
#define KB_TARGET __attribute__((target("avx512f")))
#define KB_NAME(x) avx512_##x
#define KB_LOAD(p) _mm512_load_si512((const void *)(p))
#define KB_STORE(p, v) _mm512_store_si512((void *)(p), (v))
#define KB_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#define KB_XOR(a, b) _mm512_xor_si512((a), (b))
#define KB_SET1(x) _mm512_set1_epi64((long long)(x))
#define KB_ZERO() _mm512_setzero_si512()
#include "kernels/kernel_body.h"

#define X86_KERNELS(isa)                                                                           \
    {OP_READ, #isa, "loads", isa##_read}, {OP_WRITE, #isa, "regular", isa##_write},              \
        {OP_COPY, #isa, "regular", isa##_copy}, {OP_WRITE_NT, #isa, "non-temporal", isa##_write_nt}, \
        {OP_COPY_NT, #isa, "non-temporal", isa##_copy_nt}

const kernel x86_kernels[] = {X86_KERNELS(avx512), X86_KERNELS(avx2), X86_KERNELS(sse2)};
const size_t x86_kernel_count = sizeof x86_kernels / sizeof x86_kernels[0];
#endif
