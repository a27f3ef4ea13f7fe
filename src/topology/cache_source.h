/* SPDX-License-Identifier: MIT */
/* Where a cache size came from. Every size the tool plans with names its source,
 * so a figure can be traced to sysfs, to one of CPUID's leaves, to the device
 * tree, to a measurement, or to a built-in default (the worst basis: a "DRAM"
 * buffer sized from it may still fit a cache). */
#ifndef MEMBENCH_CACHE_SOURCE_H
#define MEMBENCH_CACHE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    CACHE_FROM_DEFAULT = 0,       /* built-in 32 KiB / 256 KiB / 8 MiB */
    CACHE_FROM_SYSFS,             /* /sys/devices/system/cpu/cpuN/cache */
    CACHE_FROM_CPUID_LEAF4,       /* Intel's deterministic cache parameters */
    CACHE_FROM_CPUID_TOPOEXT,     /* AMD 0x8000001D (needs TOPOEXT) */
    CACHE_FROM_CPUID_AMD_LEGACY,  /* AMD 0x80000005 (L1d) and 0x80000006 (L2, L3 per package) */
    CACHE_FROM_DEVICE_TREE,       /* /sys/firmware/devicetree/base/cpus (arm64, POWER, RISC-V) */
    CACHE_FROM_CPUINFO,           /* /proc/cpuinfo (s390x's shared caches) */
    CACHE_FROM_MEASURED,          /* the cache probe (measure/llc_probe.h) */
    CACHE_NSOURCES
} cache_source;

/* Words for people ("CPUID leaf 4") and a key for JSON ("cpuid_leaf4"). */
const char *cache_source_name(cache_source s);
const char *cache_source_key(cache_source s);
/* The words for a JSON key (a run read back); NULL for a key no source has. */
const char *cache_source_name_of_key(const char *key);

/* One data or unified cache level as one source describes it: what `membench
 * topology` lists per source, and what the sources are compared on. */
typedef struct {
    cache_source source;
    int level;         /* 1, 2, 3, 4 */
    uint64_t size;     /* bytes of one instance; per_package: of the package */
    int line_size;     /* bytes; 0 when the source does not say */
    int sharing;       /* logical CPUs sharing one instance; 0 when the source does not say */
    bool per_package;  /* size is a whole package's (AMD's legacy L3 field), not one instance's */
} cache_report;

#endif
