/* SPDX-License-Identifier: MIT */
/* The one kernel that is meant to call libc: memcpy as applications get it. It
 * lives alone in this file so the tests can check that no other kernel object
 * calls memcpy/memset. */
#include <string.h>

#include "kernels/kernel_impl.h"
#include "kernels/kernel_parts.h"

static uint64_t libc_memcpy(const kernel_args *args)
{
    memcpy(args->out, args->in[0], args->bytes);
    return 0;
}

const kernel libc_kernels[] = {KERNEL_ROW_MEMCPY("libc", libc_memcpy)};
const size_t libc_kernel_count = sizeof libc_kernels / sizeof libc_kernels[0];
