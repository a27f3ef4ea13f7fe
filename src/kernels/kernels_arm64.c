/* AArch64 kernels: 128-bit NEON (Advanced SIMD, part of every AArch64 CPU, so no
 * run-time check), built from the same kernel_body.h as the x86 ones. Only regular
 * stores: STNP is a hint that many cores ignore, so it is not offered as a
 * non-temporal kernel. */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/kernels_arm64.h"

#define KB_VEC uint64x2_t
#define KB_TARGET
#define KB_NAME(x) neon_##x
#define KB_LOAD(p) vld1q_u64((const uint64_t *)(const void *)(p))
#define KB_STORE(p, v) vst1q_u64((uint64_t *)(void *)(p), (v))
#define KB_XOR(a, b) veorq_u64((a), (b))
#define KB_SET1(x) vdupq_n_u64(x)
#define KB_ZERO() vdupq_n_u64(0)
#include "kernels/kernel_body.h"

const kernel arm64_kernels[] = {
    {OP_READ, "neon", "loads", neon_read},
    {OP_WRITE, "neon", "regular", neon_write},
    {OP_COPY, "neon", "regular", neon_copy},
};
const size_t arm64_kernel_count = sizeof arm64_kernels / sizeof arm64_kernels[0];
#endif
