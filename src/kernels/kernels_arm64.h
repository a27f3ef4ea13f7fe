#ifndef MEMBENCH_KERNELS_ARM64_H
#define MEMBENCH_KERNELS_ARM64_H
#include "kernels/kernel.h"
#if defined(__aarch64__)
extern const kernel arm64_kernels[];
extern const size_t arm64_kernel_count;
#endif
#endif
