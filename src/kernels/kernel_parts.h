/* SPDX-License-Identifier: MIT */
/* The descriptor rows each kernels_<arch>.c contributes; kernel_registry.c joins
 * them into the one table. A file for a new architecture adds its pair here and one
 * line in the registry. */
#ifndef MEMBENCH_KERNEL_PARTS_H
#define MEMBENCH_KERNEL_PARTS_H

#include "kernels/kernel.h"

#if defined(__x86_64__)
extern const kernel x86_kernels[];
extern const size_t x86_kernel_count;
#endif
#if defined(__aarch64__)
extern const kernel arm64_kernels[];
extern const size_t arm64_kernel_count;
#endif
extern const kernel portable_kernels[];
extern const size_t portable_kernel_count;
extern const kernel libc_kernels[];
extern const size_t libc_kernel_count;

#endif
