/* SPDX-License-Identifier: MIT */
/* What kind of thing a warning is about: a stable key per kind (JSON
 * "warning_kinds", docs/json.md), and whether it changes how to read the results.
 * Those kinds are said on the terminal once each at the end, with a count
 * (output/warning_summary); the others only under -v and in JSON. Adding a kind:
 * here, warn_kind.c's table and the list in docs/uncertainty.md. */
#ifndef MEMBENCH_WARN_KIND_H
#define MEMBENCH_WARN_KIND_H

#include <stdbool.h>

typedef enum {
    WARN_TOPOLOGY,        /* sysfs, CPUID and the cache probe disagree or say nothing */
    WARN_MEMORY_BUDGET,   /* MemAvailable clamped */
    WARN_SIZES_LEFT_OUT,  /* sizes dropped or scaled to fit the memory budget */
    WARN_MAY_FIT_CACHE,   /* a DRAM buffer may still fit a cache */
    WARN_PLACEMENT,       /* threads not pinned, a pin that did not hold, a pair's choice */
    WARN_PAGES,           /* huge pages short of what was asked, or unverifiable */
    WARN_NODE_LOCALITY,   /* pages not on the node asked for, or unverifiable */
    WARN_NOT_MEASURED,    /* a point or cell skipped (could not allocate) */
    WARN_TWO_LEVELS,      /* a point's samples fell in two levels: its median is neither */
    WARN_ROUNDS_CUT,      /* --max-time or -t ended the rounds before every point had its samples */
    WARN_TARGET_CI,       /* --target-ci not met */
    WARN_HOST_NOISE,      /* the noise probe varied: differences below a bound are not meaningful */
    WARN_HOST_STEAL,      /* /proc/stat steal above 0 */
    WARN_CPU_PRESSURE,    /* /proc/pressure/cpu */
    WARN_MEMORY_PRESSURE, /* /proc/pressure/memory */
    WARN_OPTION_IGNORED,  /* an option given that does nothing here */
    WARN_KERNELS,         /* a kernel kind asked for that this CPU or ISA lacks */
    WARN_STREAM_RULE,     /* STREAM's array size rule not met */
    WARN_ONE_NODE,        /* one NUMA node: a test has nothing to do */
    WARN_LOADED_CURVE,    /* loaded-latency's curve not back at idle, or out of order */
    WARN_PACKAGE_CACHE,   /* a cache level known only as a whole package's size (the headline says it) */
    WARN_KIND_COUNT
} warn_kind;

typedef struct {
    const char *key;   /* "two_levels": JSON warning_kinds, the terminal's grouped line */
    bool reading;      /* changes how to read the results: said on the terminal */
    const char *group; /* the grouped line's text after "KEY xN: " */
    const char *see;   /* where more is said: a docs page, or NULL */
} warn_kind_info;

/* The kind's description; NULL for a value that is not a kind. */
const warn_kind_info *warn_kind_get(warn_kind k);

#endif
