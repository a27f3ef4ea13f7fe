/* SPDX-License-Identifier: MIT */
/* How big a buffer must be for its figure to be DRAM's, from the best knowledge of
 * the last-level cache: the largest per-instance size any source gives (sysfs,
 * CPUID, device tree, /proc/cpuinfo) or the probe measured, else a package's total
 * (AMD's legacy L3 field: too large, which errs on DRAM's side), else the 8 MiB
 * default (said, and the run's records say so). Every mode that means DRAM takes
 * its sizes from here and records the basis. */
#ifndef MEMBENCH_DRAM_SIZE_H
#define MEMBENCH_DRAM_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/topology.h"

typedef struct {
    int level;              /* the last level (3 when none past L2 is known) */
    uint64_t llc_bytes;     /* one instance */
    unsigned instances;     /* instances of that level on the machine, >= 1 */
    cache_source source;    /* where llc_bytes came from */
    bool per_package;       /* llc_bytes is a package's total */
    uint64_t dram_from;     /* the probe's first size on the DRAM plateau, 0 unknown */
} dram_basis;

dram_basis dram_basis_of(const topology *t);

/* The smallest total that is DRAM's by the basis: factor x the last level (every
 * instance when all_instances, else one), and no less than the measured start of
 * the DRAM plateau. */
uint64_t dram_min_bytes(const dram_basis *b, unsigned factor, bool all_instances);

/* A buffer (set) of total bytes may still be served by a cache: below twice the
 * last level (one instance, or all), or below the measured DRAM plateau, or sized
 * from the default. */
bool dram_may_fit_cache(const dram_basis *b, uint64_t total, bool all_instances);

/* "L3 32 MiB (measured)", "L3 8 MiB x 2 (sysfs)", "L3 508 MiB per package (CPUID
 * 0x80000005/6)": for plans, messages and JSON. */
const char *dram_basis_text(const dram_basis *b, char *buf, size_t len);

/* The key records carry in "size_basis": the source's JSON key ("sysfs",
 * "measured", "default", ...). */
const char *dram_basis_key(const dram_basis *b);

#endif
