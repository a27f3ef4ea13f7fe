/* SPDX-License-Identifier: MIT */
/* One kernel pass in slices, so a stop is seen within one slice. */
#include "kernels/kernel.h"
#include "util/stop_flag.h"

static const void *advance(const void *p, size_t off)
{
    return p ? (const char *)p + off : NULL;
}

uint64_t kernel_pass(const kernel *k, const kernel_args *args)
{
    if (args->bytes <= 2 * KERNEL_SLICE_BYTES) /* the common case: one call, nothing added */
        return k->fn(args);
    uint64_t x = 0;
    kernel_args slice = *args;
    for (size_t off = 0; off < args->bytes; off += KERNEL_SLICE_BYTES) {
        size_t left = args->bytes - off;
        slice.bytes = left < KERNEL_SLICE_BYTES ? left : KERNEL_SLICE_BYTES;
        slice.out = (void *)(uintptr_t)advance(args->out, off);
        slice.in[0] = advance(args->in[0], off);
        slice.in[1] = advance(args->in[1], off);
        x ^= k->fn(&slice);
        if (stop_flagged())
            break;
    }
    return x;
}
