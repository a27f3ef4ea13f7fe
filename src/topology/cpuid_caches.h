/* SPDX-License-Identifier: MIT */
/* The data and unified caches CPUID describes, decoded from a dump (platform/
 * cpuid_dump.h), never from the live CPU: Intel's leaf 4, AMD's 0x8000001D and
 * AMD's legacy 0x80000005/6 fields, each level tagged with the leaf it came from.
 * AMD's legacy fields are reported beside 0x8000001D, so that a hypervisor whose
 * two answers disagree can be shown to. */
#ifndef MEMBENCH_CPUID_CACHES_H
#define MEMBENCH_CPUID_CACHES_H

#include <stdbool.h>
#include <stddef.h>

#include "platform/cpuid_dump.h"
#include "topology/cache_source.h"

#define CPUID_CACHES_MAX 16

typedef struct {
    char vendor[13];     /* "GenuineIntel", "AuthenticAMD", "HygonGenuine"... ("" unknown) */
    char hypervisor[13]; /* leaf 0x40000000's signature ("KVMKVMKVM", "Microsoft Hv", "VMwareVMware",
                            "TCGTCGTCGTCG"...); "" when CPUID.1:ECX[31] is clear */
    bool topoext;        /* AMD/Hygon: 0x80000001 ECX[22], 0x8000001D is valid */
    cache_report levels[CPUID_CACHES_MAX]; /* deterministic leaf's first, then AMD's legacy */
    size_t nlevels;
} cpuid_caches;

/* Everything d says; a dump without leaf 0 gives vendor "" and no levels. Control
 * characters in the signatures are replaced with '?'. */
void cpuid_caches_decode(const cpuid_dump *d, cpuid_caches *out);

#endif
