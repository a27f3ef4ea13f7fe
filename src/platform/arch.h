/* SPDX-License-Identifier: MIT */
/* What differs between processor architectures and is read from user space: the
 * architecture's name, its constant-rate counter, and its cache-line size. Each
 * architecture has its own small block in arch.c; everything else is portable. */
#ifndef MEMBENCH_ARCH_H
#define MEMBENCH_ARCH_H

#include <stdint.h>

/* "x86_64", "aarch64", "riscv64", "ppc64le", "ppc64", "s390x", or "other". */
const char *arch_name(void);

/* The architecture's user-readable constant-rate counter (TSC, CNTVCT_EL0, the
 * time CSR, the timebase, the TOD clock): its name, or NULL when there is none
 * this build can read (then arch_counter_read returns 0). */
const char *arch_counter_name(void);
uint64_t arch_counter_read(void);

/* The counter's rate in Hz when the architecture states it (CNTFRQ_EL0 on arm64,
 * 4.096 GHz for the s390x TOD clock), 0 when it must be measured. */
double arch_counter_stated_hz(void);

/* True when the counter is known to tick at a constant rate (x86: the invariant
 * TSC flag; the others define it so). */
int arch_counter_constant(void);

/* Data cache-line size the CPU reports (CPUID on x86, CTR_EL0 on arm64) or the
 * architecture's fixed one (128 ppc64, 256 s390x); 64 when nothing says. Used
 * only when sysfs does not report it. */
int arch_cache_line_bytes(void);

#endif
