/* STREAM kernels: portable C (regular stores); on x86-64, AVX-512 and AVX2 with
 * regular and non-temporal stores, chosen at run time; on AArch64, NEON. */
#include "kernels/stream_kernels.h"

#include <stdint.h>
#include <string.h>

#include "kernels/kernel.h"

const char *const stream_labels[STREAM_NFUNCS] = {"Copy:      ", "Scale:     ", "Add:       ", "Triad:     "};
const int stream_bytes_per_element[STREAM_NFUNCS] = {16, 16, 24, 24};

/* ---- portable C ---- */
#define SB_VEC double
#define SB_LANES 1
#define SB_TARGET
#define SB_NAME(x) c_##x
#define SB_LOADU(p) (*(p))
#define SB_PUT(p, v) (*(p) = (v))
#define SB_MUL(a, b) ((a) * (b))
#define SB_ADD(a, b) ((a) + (b))
#define SB_SET1(x) (x)
#define SB_DONE() __asm__ volatile("" ::: "memory") /* keeps loops from becoming memcpy */
#include "kernels/stream_body.h"
#undef SB_VEC
#undef SB_LANES
#undef SB_TARGET
#undef SB_NAME
#undef SB_LOADU
#undef SB_PUT
#undef SB_MUL
#undef SB_ADD
#undef SB_SET1
#undef SB_DONE

#if defined(__x86_64__)
#include <immintrin.h>

/* AVX2 (256-bit double vectors) */
#define SB_VEC __m256d
#define SB_LANES 4
#define SB_TARGET __attribute__((target("avx2")))
#define SB_LOADU(p) _mm256_loadu_pd(p)
#define SB_MUL(a, b) _mm256_mul_pd((a), (b))
#define SB_ADD(a, b) _mm256_add_pd((a), (b))
#define SB_SET1(x) _mm256_set1_pd(x)
#define SB_NAME(x) avx2_##x
#define SB_PUT(p, v) _mm256_store_pd((p), (v))
#define SB_DONE() ((void)0)
#include "kernels/stream_body.h"
#undef SB_NAME
#undef SB_PUT
#undef SB_DONE
#define SB_NAME(x) avx2_nt_##x
#define SB_PUT(p, v) _mm256_stream_pd((p), (v))
#define SB_DONE() _mm_sfence()
#include "kernels/stream_body.h"
#undef SB_VEC
#undef SB_LANES
#undef SB_TARGET
#undef SB_LOADU
#undef SB_MUL
#undef SB_ADD
#undef SB_SET1
#undef SB_NAME
#undef SB_PUT
#undef SB_DONE

/* AVX-512 (512-bit double vectors) */
#define SB_VEC __m512d
#define SB_LANES 8
#define SB_TARGET __attribute__((target("avx512f")))
#define SB_LOADU(p) _mm512_loadu_pd(p)
#define SB_MUL(a, b) _mm512_mul_pd((a), (b))
#define SB_ADD(a, b) _mm512_add_pd((a), (b))
#define SB_SET1(x) _mm512_set1_pd(x)
#define SB_NAME(x) avx512_##x
#define SB_PUT(p, v) _mm512_store_pd((p), (v))
#define SB_DONE() ((void)0)
#include "kernels/stream_body.h"
#undef SB_NAME
#undef SB_PUT
#undef SB_DONE
#define SB_NAME(x) avx512_nt_##x
#define SB_PUT(p, v) _mm512_stream_pd((p), (v))
#define SB_DONE() _mm_sfence()
#include "kernels/stream_body.h"
#endif

#if defined(__aarch64__)
#include <arm_neon.h>

/* NEON (128-bit double vectors, every AArch64 CPU) */
#define SB_VEC float64x2_t
#define SB_LANES 2
#define SB_TARGET
#define SB_LOADU(p) vld1q_f64(p)
#define SB_MUL(a, b) vmulq_f64((a), (b))
#define SB_ADD(a, b) vaddq_f64((a), (b))
#define SB_SET1(x) vdupq_n_f64(x)
#define SB_NAME(x) neon_##x
#define SB_PUT(p, v) vst1q_f64((p), (v))
#define SB_DONE() __asm__ volatile("" ::: "memory")
#include "kernels/stream_body.h"
#endif

#define SET(isa, nt, prefix) {isa, nt, {prefix##copy, prefix##scale, prefix##add, prefix##triad}}

static const stream_kernel_set sets[] = {
#if defined(__x86_64__)
    SET("avx512", true, avx512_nt_), SET("avx512", false, avx512_), SET("avx2", true, avx2_nt_),
    SET("avx2", false, avx2_),
#endif
#if defined(__aarch64__)
    SET("neon", false, neon_),
#endif
    SET("c", false, c_),
};

const stream_kernel_set *stream_kernel_sets(size_t *count)
{
    *count = sizeof sets / sizeof sets[0];
    return sets;
}

static const stream_kernel_set *find(bool nontemporal, const char *isa)
{
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        if (sets[i].nontemporal != nontemporal || !kernel_isa_supported(sets[i].isa))
            continue;
        if (!isa || strcmp(isa, sets[i].isa) == 0)
            return &sets[i];
    }
    return NULL;
}

const stream_kernel_set *stream_kernels_select(bool nontemporal, const char *isa, bool beyond_last_level_cache)
{
    const stream_kernel_set *best = find(nontemporal, isa);
    if (!isa && beyond_last_level_cache && best && strcmp(best->isa, "avx512") == 0) {
        const stream_kernel_set *narrower = find(nontemporal, "avx2");
        if (narrower)
            return narrower;
    }
    return best;
}
