#ifndef MEMBENCH_KERNELS_X86_H
#define MEMBENCH_KERNELS_X86_H
#include "kernels/kernel.h"
#if defined(__x86_64__)
extern const kernel x86_kernels[];
extern const size_t x86_kernel_count;
#endif
#endif
