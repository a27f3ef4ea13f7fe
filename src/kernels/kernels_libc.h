#ifndef MEMBENCH_KERNELS_LIBC_H
#define MEMBENCH_KERNELS_LIBC_H
#include "kernels/kernel.h"
extern const kernel libc_kernels[];
extern const size_t libc_kernel_count;
#endif
