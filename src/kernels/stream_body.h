/* SPDX-License-Identifier: MIT */
/* STREAM's four kernels for one ISA, written once: included by a kernels_<arch>.c
 * after it defines the ISA's double-vector primitives
 *   SB_VEC, SB_LANES, SB_TARGET, SB_NAME(x), SB_LOADU(p), SB_STORE(p, v),
 *   SB_MUL(a, b), SB_ADD(a, b), SB_SET1(x)
 * and, where the ISA has non-temporal stores, SB_STREAM(p, v) and SB_FENCE().
 * Defines SB_NAME(copy), (scale), (add), (triad) and, with SB_STREAM, the same with
 * _nt, all kernel_fn over args->bytes / 8 doubles:
 *   copy  out = in0          scale out = s * in0
 *   add   out = in0 + in1    triad out = in0 + s * in1
 * Threads split the arrays at any element, so the range may start and end
 * anywhere: scalar code stores up to the first vector-aligned element of out and
 * after the last whole block; vector stores are aligned, loads need not be.
 * Undefines the primitives at the end, so the next ISA can define its own. */
#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel_impl.h"

#define SB_PER_BLOCK (KERNEL_BLOCK / sizeof(double))
#define SB_PAGE 4096  /* bytes between two of the non-temporal kernels' streams */
#define SB_STREAMS 4  /* streams a page apart */
#define SB_ALIGNED(p) (((uintptr_t)(p) % (SB_LANES * sizeof(double))) == 0)
#define SB_INLINE static inline __attribute__((always_inline)) SB_TARGET

SB_INLINE double SB_NAME(scalar_op)(stream_func f, const double *x, const double *y, double q, size_t j)
{
    switch (f) {
    case STREAM_COPY:
        return x[j];
    case STREAM_SCALE:
        return q * x[j];
    case STREAM_ADD:
        return x[j] + y[j];
    default:
        return x[j] + q * y[j];
    }
}

SB_INLINE SB_VEC SB_NAME(vector_op)(stream_func f, const double *x, const double *y, SB_VEC q, size_t j)
{
    switch (f) {
    case STREAM_COPY:
        return SB_LOADU(&x[j]);
    case STREAM_SCALE:
        return SB_MUL(q, SB_LOADU(&x[j]));
    case STREAM_ADD:
        return SB_ADD(SB_LOADU(&x[j]), SB_LOADU(&y[j]));
    default:
        return SB_ADD(SB_LOADU(&x[j]), SB_MUL(q, SB_LOADU(&y[j])));
    }
}

/* f and nontemporal are constants at every call, so each kernel compiles to its
 * own loop with nothing left of the switch. */
SB_INLINE uint64_t SB_NAME(run)(const kernel_args *args, stream_func f, bool nontemporal)
{
    double *out = args->out;
    const double *x = args->in[0], *y = args->in[1];
    double q = args->scalar;
    SB_VEC vq = SB_SET1(q);
    size_t n = args->bytes / sizeof(double), j = 0;
    for (; j < n && !SB_ALIGNED(&out[j]); j++) {
        out[j] = SB_NAME(scalar_op)(f, x, y, q, j);
        KERNEL_BLOCK_BARRIER();
    }
#ifdef SB_STREAM
    /* Non-temporal stores in four streams a page apart, two vectors from each in
     * turn, as glibc's large memcpy interleaves pages: on the Xeon guest a copy of
     * 512 MiB a thread went from 35 to 46 GB/s this way (one stream with software
     * prefetch: 35; glibc's memcpy: 42), where regular stores gained 4%
     * (BENCHMARKS, "Copy against STREAM's memcpy"). */
    if (nontemporal) {
        const size_t page = SB_PAGE / sizeof(double);
        while (n - j >= SB_STREAMS * page) {
            for (size_t off = 0; off < page; off += 2 * SB_LANES)
                for (size_t k = 0; k < SB_STREAMS; k++) {
                    size_t at = j + k * page + off;
                    SB_STREAM(&out[at], SB_NAME(vector_op)(f, x, y, vq, at));
                    SB_STREAM(&out[at + SB_LANES], SB_NAME(vector_op)(f, x, y, vq, at + SB_LANES));
                }
            j += SB_STREAMS * page;
            KERNEL_BLOCK_BARRIER();
        }
    }
#endif
    while (n - j >= SB_PER_BLOCK) {
        for (size_t end = j + SB_PER_BLOCK; j < end; j += SB_LANES) {
#ifdef SB_STREAM
            if (nontemporal) {
                SB_STREAM(&out[j], SB_NAME(vector_op)(f, x, y, vq, j));
                continue;
            }
#endif
            SB_STORE(&out[j], SB_NAME(vector_op)(f, x, y, vq, j));
        }
        KERNEL_BLOCK_BARRIER();
    }
    for (; j < n; j++) {
        out[j] = SB_NAME(scalar_op)(f, x, y, q, j);
        KERNEL_BLOCK_BARRIER();
    }
#ifdef SB_STREAM
    if (nontemporal)
        SB_FENCE(); /* streaming stores globally visible before the timer stops */
#else
    (void)nontemporal;
#endif
    return 0;
}

#define SB_KERNEL(name, f, nontemporal)                                                                             \
    static SB_TARGET uint64_t SB_NAME(name)(const kernel_args *args)                                                \
    {                                                                                                               \
        return SB_NAME(run)(args, f, nontemporal);                                                                  \
    }

SB_KERNEL(copy, STREAM_COPY, false)
SB_KERNEL(scale, STREAM_SCALE, false)
SB_KERNEL(add, STREAM_ADD, false)
SB_KERNEL(triad, STREAM_TRIAD, false)
#ifdef SB_STREAM
SB_KERNEL(copy_nt, STREAM_COPY, true)
SB_KERNEL(scale_nt, STREAM_SCALE, true)
SB_KERNEL(add_nt, STREAM_ADD, true)
SB_KERNEL(triad_nt, STREAM_TRIAD, true)
#endif

#undef SB_KERNEL
#undef SB_INLINE
#undef SB_ALIGNED
#undef SB_PER_BLOCK
#undef SB_PAGE
#undef SB_STREAMS
#undef SB_VEC
#undef SB_LANES
#undef SB_TARGET
#undef SB_NAME
#undef SB_LOADU
#undef SB_STORE
#undef SB_MUL
#undef SB_ADD
#undef SB_SET1
#undef SB_STREAM
#undef SB_FENCE
