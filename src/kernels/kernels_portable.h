#ifndef MEMBENCH_KERNELS_PORTABLE_H
#define MEMBENCH_KERNELS_PORTABLE_H
#include "kernels/kernel.h"
extern const kernel portable_kernels[];
extern const size_t portable_kernel_count;
#endif
