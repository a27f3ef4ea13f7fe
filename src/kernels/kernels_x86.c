/* SPDX-License-Identifier: MIT */
/* x86-64 kernels: AVX-512, AVX2 and SSE2, the sweep's (kernel_body.h) and STREAM's
 * (stream_body.h), each with regular and non-temporal stores. Every function has a
 * per-function target attribute, so a generic build still runs the best ISA the CPU
 * has (chosen at run time, see kernel_choose). An ISA here is its primitives, its
 * descriptor rows at the end, and its row in isa.c. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "kernels/kernel_impl.h"
#include "kernels/kernel_parts.h"

/* ---- AVX-512 (foundation subset only) ---- */
#define KB_VEC __m512i
#define KB_TARGET __attribute__((target("avx512f")))
#define KB_NAME(x) avx512_##x
#define KB_LOAD(p) _mm512_load_si512((const void *)(p))
#define KB_STORE(p, v) _mm512_store_si512((void *)(p), (v))
#define KB_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#define KB_FENCE() _mm_sfence()
#define KB_XOR(a, b) _mm512_xor_si512((a), (b))
#define KB_SET1(x) _mm512_set1_epi64((long long)(x))
#define KB_ZERO() _mm512_setzero_si512()
#include "kernels/kernel_body.h"

#define SB_VEC __m512d
#define SB_LANES 8
#define SB_TARGET __attribute__((target("avx512f")))
#define SB_NAME(x) avx512_stream_##x
#define SB_LOADU(p) _mm512_loadu_pd(p)
#define SB_STORE(p, v) _mm512_store_pd((p), (v))
#define SB_STREAM(p, v) _mm512_stream_pd((p), (v))
#define SB_FENCE() _mm_sfence()
#define SB_MUL(a, b) _mm512_mul_pd((a), (b))
#define SB_ADD(a, b) _mm512_add_pd((a), (b))
#define SB_SET1(x) _mm512_set1_pd(x)
#include "kernels/stream_body.h"

/* ---- AVX2 ---- */
#define KB_VEC __m256i
#define KB_TARGET __attribute__((target("avx2")))
#define KB_NAME(x) avx2_##x
#define KB_LOAD(p) _mm256_load_si256(p)
#define KB_STORE(p, v) _mm256_store_si256((p), (v))
#define KB_STREAM(p, v) _mm256_stream_si256((p), (v))
#define KB_FENCE() _mm_sfence()
#define KB_XOR(a, b) _mm256_xor_si256((a), (b))
#define KB_SET1(x) _mm256_set1_epi64x((long long)(x))
#define KB_ZERO() _mm256_setzero_si256()
#include "kernels/kernel_body.h"

#define SB_VEC __m256d
#define SB_LANES 4
#define SB_TARGET __attribute__((target("avx2")))
#define SB_NAME(x) avx2_stream_##x
#define SB_LOADU(p) _mm256_loadu_pd(p)
#define SB_STORE(p, v) _mm256_store_pd((p), (v))
#define SB_STREAM(p, v) _mm256_stream_pd((p), (v))
#define SB_FENCE() _mm_sfence()
#define SB_MUL(a, b) _mm256_mul_pd((a), (b))
#define SB_ADD(a, b) _mm256_add_pd((a), (b))
#define SB_SET1(x) _mm256_set1_pd(x)
#include "kernels/stream_body.h"

/* ---- SSE2 (every x86-64 CPU) ---- */
#define KB_VEC __m128i
#define KB_TARGET __attribute__((target("sse2")))
#define KB_NAME(x) sse2_##x
#define KB_LOAD(p) _mm_load_si128(p)
#define KB_STORE(p, v) _mm_store_si128((p), (v))
#define KB_STREAM(p, v) _mm_stream_si128((p), (v))
#define KB_FENCE() _mm_sfence()
#define KB_XOR(a, b) _mm_xor_si128((a), (b))
#define KB_SET1(x) _mm_set1_epi64x((long long)(x))
#define KB_ZERO() _mm_setzero_si128()
#include "kernels/kernel_body.h"

#define SB_VEC __m128d
#define SB_LANES 2
#define SB_TARGET __attribute__((target("sse2")))
#define SB_NAME(x) sse2_stream_##x
#define SB_LOADU(p) _mm_loadu_pd(p)
#define SB_STORE(p, v) _mm_store_pd((p), (v))
#define SB_STREAM(p, v) _mm_stream_pd((p), (v))
#define SB_FENCE() _mm_sfence()
#define SB_MUL(a, b) _mm_mul_pd((a), (b))
#define SB_ADD(a, b) _mm_add_pd((a), (b))
#define SB_SET1(x) _mm_set1_pd(x)
#include "kernels/stream_body.h"

#define X86_ROWS(isa)                                                                                              \
    KERNEL_ROWS_SWEEP(#isa, isa##_), KERNEL_ROWS_SWEEP_NT(#isa, isa##_),                                           \
        KERNEL_ROWS_STREAM_REGULAR(#isa, isa##_stream_), KERNEL_ROWS_STREAM_NT(#isa, isa##_stream_)

const kernel x86_kernels[] = {X86_ROWS(avx512), X86_ROWS(avx2), X86_ROWS(sse2)};
const size_t x86_kernel_count = sizeof x86_kernels / sizeof x86_kernels[0];
#endif
