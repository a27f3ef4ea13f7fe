/* SPDX-License-Identifier: MIT */
/* Caches that sysfs leaves out but /proc/cpuinfo lists: the s390x kernel keeps its
 * shared caches (L3 on the chip, L4 in the drawer) out of sysfs, so without this a
 * z15 would be planned with the 8 MiB default L3 instead of its 256 MiB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/cpuinfo.h"
#include "platform/platform.h"
#include "topology/topology.h"
#include "util/format_bytes.h"

/* An instance shared by cpus[0..n). */
static bool add_instance(topology *t, const cpuinfo_cache *c, const int *cpus, size_t n)
{
    cache_instance ci = {c->level, CACHE_UNIFIED, c->size, c->line_size, {malloc(sizeof(int) * n), n}, CACHE_FROM_CPUINFO};
    if (!ci.shared.ids)
        return false;
    memcpy(ci.shared.ids, cpus, sizeof(int) * n);
    if (ci.line_size <= 0)
        ci.line_size = topology_cache_level(t, 1).line_size;
    return topology_add_cache_instance(t, ci);
}

void topology_add_cpuinfo_caches(topology *t, const char *cpuinfo)
{
    cpuinfo_cache c[16];
    size_t n = cpuinfo ? cpuinfo_caches(cpuinfo, c, 16) : 0;
    int *all = malloc(sizeof(int) * (t->ncpus ? t->ncpus : 1));
    if (!all)
        return;
    for (size_t i = 0; i < t->ncpus; i++)
        all[i] = t->cpus[i].id;
    for (size_t k = 0; k < n; k++) {
        /* Only levels sysfs does not have, and only caches that hold data. */
        if (!c[k].data || topology_has_cache_level(t, c[k].level))
            continue;
        char size[32];
        format_bytes(c[k].size, size, sizeof size);
        if (c[k].shared) {
            /* The kernel does not say which CPUs share it: all of them, which is
             * exact for a machine on one chip and conservative beyond. */
            if (add_instance(t, &c[k], all, t->ncpus))
                topology_warn(t, "L%d (%s, shared) is not in sysfs: taken from /proc/cpuinfo as shared by all %zu CPUs",
                              c[k].level, size, t->ncpus);
        } else {
            bool ok = true;
            for (size_t i = 0; i < t->ncpus && ok; i++)
                ok = add_instance(t, &c[k], &all[i], 1);
            if (ok)
                topology_warn(t, "L%d (%s, private) is not in sysfs: taken from /proc/cpuinfo, one per CPU",
                              c[k].level, size);
        }
    }
    free(all);
    topology_report_instances(t, CACHE_FROM_CPUINFO);
    topology_say_missing_caches(t);
}

void topology_add_live_cpuinfo_caches(topology *t)
{
    enum { INFO_BYTES = 1 << 16 }; /* the cache lines come first */
    char *info = malloc(INFO_BYTES);
    if (info && platform_read_text("/proc/cpuinfo", info, INFO_BYTES))
        topology_add_cpuinfo_caches(t, info);
    free(info);
}
