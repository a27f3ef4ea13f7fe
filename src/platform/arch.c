/* SPDX-License-Identifier: MIT */
/* Per-architecture counter and cache-line facts; see arch.h. One block per
 * architecture, each with the same four functions; "other" has none of them. */
#include "platform/arch.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>

const char *arch_name(void) { return "x86_64"; }
const char *arch_counter_name(void) { return "TSC"; }
uint64_t arch_counter_read(void) { return __rdtsc(); }
double arch_counter_stated_hz(void) { return 0; } /* not architectural: measured */

int arch_counter_constant(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 && __get_cpuid(0x80000007, &a, &b, &c, &d))
        return (d >> 8) & 1; /* invariant TSC */
    return 0;
}

int arch_cache_line_bytes(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d) && ((b >> 8) & 0xff))
        return (int)((b >> 8) & 0xff) * 8; /* CLFLUSH line size, in 8-byte units */
    return 64;
}

#elif defined(__aarch64__)
const char *arch_name(void) { return "aarch64"; }
const char *arch_counter_name(void) { return "CNTVCT_EL0"; }

uint64_t arch_counter_read(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}

double arch_counter_stated_hz(void)
{
    uint64_t f;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
    return (double)f;
}

int arch_counter_constant(void) { return 1; }

int arch_cache_line_bytes(void)
{
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    return 4 << ((ctr >> 16) & 0xf); /* DminLine: log2 of the line in 4-byte words */
}

#elif defined(__riscv) && __riscv_xlen == 64
const char *arch_name(void) { return "riscv64"; }
const char *arch_counter_name(void) { return "time CSR"; }

uint64_t arch_counter_read(void)
{
    uint64_t v;
    __asm__ volatile("rdtime %0" : "=r"(v));
    return v;
}

double arch_counter_stated_hz(void) { return 0; } /* in the device tree only: measured */
int arch_counter_constant(void) { return 1; }
int arch_cache_line_bytes(void) { return 64; }

#elif defined(__powerpc64__)
const char *arch_name(void)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "ppc64le";
#else
    return "ppc64";
#endif
}
const char *arch_counter_name(void) { return "timebase"; }

uint64_t arch_counter_read(void)
{
    uint64_t v;
    __asm__ volatile("mfspr %0, 268" : "=r"(v)); /* TBR, readable from user mode */
    return v;
}

double arch_counter_stated_hz(void) { return 0; } /* in /proc/cpuinfo: measured instead */
int arch_counter_constant(void) { return 1; }
int arch_cache_line_bytes(void) { return 128; }

#elif defined(__s390x__)
const char *arch_name(void) { return "s390x"; }
const char *arch_counter_name(void) { return "TOD clock"; }

uint64_t arch_counter_read(void)
{
    uint64_t v;
    __asm__ volatile("stckf %0" : "=Q"(v)::"cc");
    return v;
}

double arch_counter_stated_hz(void) { return 4096e6; } /* bit 51 is one microsecond */
int arch_counter_constant(void) { return 1; }
int arch_cache_line_bytes(void) { return 256; }

#else
const char *arch_name(void) { return "other"; }
const char *arch_counter_name(void) { return 0; }
uint64_t arch_counter_read(void) { return 0; }
double arch_counter_stated_hz(void) { return 0; }
int arch_counter_constant(void) { return 0; }
int arch_cache_line_bytes(void) { return 64; }
#endif
