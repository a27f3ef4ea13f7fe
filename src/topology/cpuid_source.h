/* SPDX-License-Identifier: MIT */
/* CPUID as one of the topology's cache sources (a live dump or a recorded one). */
#ifndef MEMBENCH_CPUID_SOURCE_H
#define MEMBENCH_CPUID_SOURCE_H

#include "platform/cpuid_dump.h"
#include "topology/topology.h"

/* CPUID's views (topology/cpuid_caches.h) recorded, and instances made from them for
 * the levels no instance describes yet; vendor and hypervisor kept; disagreements
 * and gaps said. */
void topology_add_cpuid(topology *t, const cpuid_dump *d);

#endif
