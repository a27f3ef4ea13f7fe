/* SPDX-License-Identifier: MIT */
/* --list-kernels: every kernel built into this binary and what this CPU runs. */
#ifndef MEMBENCH_KERNEL_LIST_H
#define MEMBENCH_KERNEL_LIST_H

#include <stdio.h>

void kernel_list_write(FILE *f);

#endif
