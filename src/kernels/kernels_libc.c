/* The one kernel that is meant to call libc: memcpy as applications get it. It
 * lives alone in this file so the tests can check that no other kernel object
 * calls memcpy/memset. */
#include <string.h>

#include "kernels/kernels_libc.h"

static uint64_t libc_memcpy(void *dst, const void *src, size_t bytes, uint64_t pattern)
{
    (void)pattern;
    memcpy(dst, src, bytes);
    return 0;
}

const kernel libc_kernels[] = {{OP_MEMCPY, "libc", "libc", libc_memcpy}};
const size_t libc_kernel_count = sizeof libc_kernels / sizeof libc_kernels[0];
