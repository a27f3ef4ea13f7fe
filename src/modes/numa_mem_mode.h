/* SPDX-License-Identifier: MIT */
/* `membench numa mem`: perf bench numa mem done right (see numa_mem_mode.c). */
#ifndef MEMBENCH_NUMA_MEM_MODE_H
#define MEMBENCH_NUMA_MEM_MODE_H

#include "modes/mode.h"

extern const mode_def numa_mem_mode;

#endif
