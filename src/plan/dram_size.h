/* SPDX-License-Identifier: MIT */
/* How big a buffer must be for its figure to be DRAM's: the one place every mode,
 * `topology` and `--plan` take DRAM sizes from. The basis is the largest last-level
 * figure any source gives (sysfs, CPUID, device tree, /proc/cpuinfo): one instance's
 * size times the instances the run's CPUs reach, or a package's total times the
 * packages they reach (AMD's legacy L3 field, which a guest without cache sysfs may
 * be the only source of), whichever is larger. A DRAM-intended footprint, all
 * threads together, is at least DRAM_RULE_FACTOR times it (STREAM's rule); with no
 * source at all, DRAM_FLOOR_BYTES, said. The cache probe never sizes anything: a
 * one-thread latency edge is not where streaming bandwidth leaves the caches, and a
 * size taken from a noisy measurement would differ from run to run. */
#ifndef MEMBENCH_DRAM_SIZE_H
#define MEMBENCH_DRAM_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/topology.h"

#define DRAM_RULE_FACTOR 4
/* Which kind of DRAM figure a mode measures: what its plateau check runs. */
typedef enum { DRAM_FIGURE_NONE = 0, DRAM_FIGURE_BANDWIDTH, DRAM_FIGURE_LATENCY } dram_figure;
#define DRAM_FLOOR_BYTES (1ULL << 30)

typedef struct {
    int level;                    /* the last level (3 when no source goes past L2) */
    uint64_t instance_bytes;      /* the largest one-instance size any source gives; 0: none */
    cache_source instance_source;
    unsigned instances;           /* instances of that level the run's CPUs reach, >= 1 */
    uint64_t package_bytes;       /* a package's total any source gives; 0: none */
    cache_source package_source;
    unsigned packages;            /* packages the run's CPUs reach, >= 1 */
    uint64_t bytes;               /* the basis: the larger of the two totals; 0: no source */
    cache_source source;          /* where bytes came from (CACHE_FROM_DEFAULT: none) */
    bool per_package;             /* bytes is packages x a package's total */
} dram_basis;

/* The basis for a run on cpus[0..n) (n == 0: every usable CPU). */
dram_basis dram_basis_for(const topology *t, const int *cpus, size_t n);

/* No source describes the last level: the rule is the fixed floor, and DRAM figures
 * carry a plateau check (dram_check). */
bool dram_basis_none(const dram_basis *b);

/* The smallest footprint, all threads together, that is DRAM's by the rule. */
uint64_t dram_rule_bytes(const dram_basis *b);

/* A footprint (all threads together) below the rule: its figures may be a cache's. */
bool dram_may_fit_cache(const dram_basis *b, uint64_t total);

/* The largest last-level figure of one instance or one package, whichever any
 * source gives larger (0: none): what a buffer meant to push lines out of the
 * caches must pass. */
uint64_t dram_largest_level(const dram_basis *b);

/* "L3 32 MiB x 2 (sysfs)", "L3 508 MiB per package (CPUID 0x80000005/6)", "no
 * source describes L3": for plans, messages and JSON. */
const char *dram_basis_text(const dram_basis *b, char *buf, size_t len);

/* "4x L3 508 MiB per package (CPUID 0x80000005/6) = 2 GiB", "no source describes
 * L3: the 1 GiB floor": the rule as one phrase. */
const char *dram_rule_text(const dram_basis *b, char *buf, size_t len);

/* The key records carry in "size_basis": the source's JSON key ("sysfs",
 * "cpuid_amd_legacy", ...), "floor" with no source. */
const char *dram_basis_key(const dram_basis *b);

#endif
