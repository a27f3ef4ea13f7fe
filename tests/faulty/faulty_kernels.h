/* SPDX-License-Identifier: MIT */
/* The test build's corrupting kernels (build/membench-faulty, never installed):
 * kernel_registry.c compiled with MEMBENCH_FAULTY_KERNELS calls this on the kernel
 * table, so the sweep and STREAM run exactly the code membench runs, with wrong data. */
#ifndef MEMBENCH_FAULTY_KERNELS_H
#define MEMBENCH_FAULTY_KERNELS_H

#include <stddef.h>

#include "kernels/kernel.h"

/* Every row named by MEMBENCH_CORRUPT ("copy": the sweep's copy and STREAM's Copy;
 * "triad", "read", ...) gets a function that runs the real one, then spoils its
 * result: one element of what it wrote (STREAM: +1.0), or its returned XOR. */
/* MEMBENCH_SLOW=NAME:CALLS: the first CALLS calls of the rows named NAME (all
 * threads together) sleep 20 ms first. A point calibrated on them takes samples too
 * short once the kernel is fast again, so its series restarts at a known visit: the
 * sweep's restarts and the order of its records are tested without timing luck. */
/* MEMBENCH_LAZY=NAME:CALLS: after their first CALLS calls (all threads together) the
 * rows named NAME do nothing and return 0: a kernel that stopped writing, caught
 * only if its destination does not already hold what it should have written (the
 * sweep's pool, whose destinations other visits wrote before). */
void faulty_kernels_install(kernel *rows, size_t n);
/* MEMBENCH_C2C_NS=T:O: c2c's reader takes T ns a line for every window's first
 * chase (the transfer, the figure) and O for its second (its re-chase of the lines
 * now in its own cache, reader_own_ns), in place of the clock's: which time is
 * stored as which is then checked exactly, with no timing. Unset: the clock's. */
void faulty_c2c_times(double *transfer_ns, double *own_ns);

#endif
