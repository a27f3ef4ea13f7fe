/* Bandwidth kernels are data: each entry names its operation, its ISA, and one
 * function with a common signature. The harness (measure/) runs any of them and
 * counts bytes the same way for all, so adding a kernel never touches the harness.
 *
 * Contract for every kernel function:
 *   - bytes is a positive multiple of KERNEL_BLOCK, buffers are KERNEL_ALIGN aligned;
 *   - read  : returns the XOR of all 64-bit words of src (dst unused);
 *   - write : sets every 64-bit word of dst to pattern, returns 0;
 *   - copy  : copies src to dst, returns 0.
 * The XOR result is the same for every ISA, which is what the tests check. */
#ifndef MEMBENCH_KERNEL_H
#define MEMBENCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/operation.h"

#define KERNEL_BLOCK 256
#define KERNEL_ALIGN 64

typedef uint64_t (*kernel_fn)(void *dst, const void *src, size_t bytes, uint64_t pattern);

typedef struct {
    mb_op op;
    const char *isa;   /* "avx512", "avx2", "sse2", "neon", "c", "libc" */
    const char *store; /* "regular", "non-temporal", "libc" */
    kernel_fn fn;
} kernel;

/* All kernels built into this binary, best ISA first within each operation. */
const kernel *kernel_table(size_t *count);

/* True when this CPU (and OS) can run kernels of the given ISA. */
int kernel_isa_supported(const char *isa);

/* Best supported kernel for op, or the one of ISA `isa` when isa is not NULL.
 * NULL when none exists (e.g. non-temporal stores on an ISA without them). */
const kernel *kernel_select(mb_op op, const char *isa);

/* Kernel for a buffer that does not fit in the thread's share of the last-level
 * cache: there bandwidth is DRAM-bound and 256-bit AVX2 measured faster than
 * AVX-512 (read +8%, copy +15% on Zen 4; equal elsewhere, see BENCHMARKS.md), while
 * AVX-512 wins in L1/L2. With isa given, that ISA is used at every size. */
const kernel *kernel_select_for_size(mb_op op, const char *isa, int beyond_last_level_cache);

/* Names of ISAs usable here, best first, comma-separated (for -v and JSON). */
const char *kernel_isa_list(void);

#endif
