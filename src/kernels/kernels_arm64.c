/* SPDX-License-Identifier: MIT */
/* AArch64 kernels: 128-bit NEON (Advanced SIMD, part of every AArch64 CPU, so no
 * run-time check), the sweep's and STREAM's, built from the same bodies as the x86
 * ones. Only regular stores: STNP is a hint that many cores ignore, so it is not
 * offered as a non-temporal kernel. */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/kernel_impl.h"
#include "kernels/kernel_parts.h"

#define KB_VEC uint64x2_t
#define KB_TARGET
#define KB_NAME(x) neon_##x
#define KB_LOAD(p) vld1q_u64((const uint64_t *)(const void *)(p))
#define KB_STORE(p, v) vst1q_u64((uint64_t *)(void *)(p), (v))
#define KB_XOR(a, b) veorq_u64((a), (b))
#define KB_SET1(x) vdupq_n_u64(x)
#define KB_ZERO() vdupq_n_u64(0)
#include "kernels/kernel_body.h"

#define SB_VEC float64x2_t
#define SB_LANES 2
#define SB_TARGET
#define SB_NAME(x) neon_stream_##x
#define SB_LOADU(p) vld1q_f64(p)
#define SB_STORE(p, v) vst1q_f64((p), (v))
#define SB_MUL(a, b) vmulq_f64((a), (b))
#define SB_ADD(a, b) vaddq_f64((a), (b))
#define SB_SET1(x) vdupq_n_f64(x)
#include "kernels/stream_body.h"

const kernel arm64_kernels[] = {KERNEL_ROWS_SWEEP("neon", neon_), KERNEL_ROWS_STREAM_REGULAR("neon", neon_stream_)};
const size_t arm64_kernel_count = sizeof arm64_kernels / sizeof arm64_kernels[0];
#endif
