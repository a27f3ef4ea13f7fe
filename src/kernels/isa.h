/* SPDX-License-Identifier: MIT */
/* The instruction sets kernels are built for, as one table: name, what it is, how
 * this CPU is checked for it, whether --kernel may force it, and which ISA to
 * prefer instead once the data is beyond the last-level cache. Rows are in order of
 * preference (best first). Every list of ISA names shown or accepted anywhere (-v,
 * JSON, --kernel and its help, the A/B benchmark) is derived from this table, so
 * adding an ISA is one row here plus its kernels' descriptor rows. */
#ifndef MEMBENCH_ISA_H
#define MEMBENCH_ISA_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name;        /* "avx512", "avx2", "sse2", "neon", "c", "libc" */
    const char *description; /* one line, for listings */
    bool (*supported)(void); /* this CPU (and OS) can run it; false on other architectures */
    bool forcible;           /* --kernel accepts it (libc: no, it only backs memcpy) */
    /* Where the data is beyond the thread's share of the last-level cache, use this
     * ISA's kernel instead when it exists and runs here (NULL: keep this one): for
     * non-temporal stores on every CPU, for the other kernels on the CPUs
     * beyond_llc_here names (NULL: every CPU). AVX-512 -> AVX2 on AMD family 19h (Zen
     * 4, whose AVX-512 is two 256-bit halves): AVX2 measured faster from DRAM there;
     * on an Intel Xeon AVX-512 read 11% faster, but copied with non-temporal stores
     * 5% slower (BENCHMARKS.md). */
    const char *beyond_llc;
    bool (*beyond_llc_here)(void);
    const char *beyond_llc_cpus; /* which CPUs, for listings */
} isa_info;

/* The ISA row's replacement beyond the LLC share on this CPU for a kernel with
 * non-temporal stores or not, or NULL. */
const char *isa_beyond_llc(const isa_info *row, bool nontemporal);

/* All rows, best first. */
const isa_info *isa_table(size_t *count);
/* The row called name, or NULL. */
const isa_info *isa_find(const char *name);
/* Position in the order of preference (0 = best), or -1 for an unknown name. */
int isa_rank(const char *name);
/* This CPU can run kernels of ISA name; false for unknown names. */
bool isa_supported(const char *name);
/* Forcible ISAs this CPU runs, best first, comma-separated: "avx512,avx2,sse2,c"
 * (for -v, JSON and error messages). */
const char *isa_usable_list(void);
/* Names --kernel accepts in this build, best first, NULL-terminated (the usable
 * ones and those of other CPUs, which are refused with "this CPU cannot run it"). */
const char *const *isa_choice_names(void);
/* The same names for help text: "avx512, avx2, sse2, neon, c"; returns buf. */
const char *isa_choices(char *buf, size_t len);

#endif
