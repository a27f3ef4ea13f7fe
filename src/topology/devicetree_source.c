/* SPDX-License-Identifier: MIT */
/* The device tree as a cache source (arm64, POWER, RISC-V): its views of every
 * level are recorded, and the levels sysfs leaves without sizes (many arm64
 * guests) take its instances. */
#include <stdlib.h>
#include <string.h>

#include "topology/devicetree_caches.h"
#include "topology/topology.h"

static bool has_level(const topology *t, int level)
{
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level && t->caches[i].source != CACHE_FROM_DEVICE_TREE)
            return true;
    return false;
}

void topology_add_devicetree(topology *t, const char *sys_root)
{
    cache_instance *dt = NULL;
    size_t n = 0;
    char note[256] = "";
    if (!devicetree_caches(sys_root, t, &dt, &n, note, sizeof note)) {
        free(dt);
        if (note[0]) /* a tree whose caches could not be given to CPUs */
            topology_warn(t, "device tree caches: %s", note);
        return;
    }
    int line = topology_cache_level(t, 1).line_size;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (dt[i].line_size <= 0)
            dt[i].line_size = line;
        if (has_level(t, dt[i].level)) {
            /* Only its view is kept: sysfs describes the level. */
            cache_report r = {CACHE_FROM_DEVICE_TREE, dt[i].level, dt[i].size, dt[i].line_size,
                              (int)dt[i].shared.count, false};
            topology_add_cache_report(t, &r);
            cpu_list_free(&dt[i].shared);
            continue;
        }
        kept += topology_add_cache_instance(t, dt[i]);
    }
    free(dt);
    topology_report_instances(t, CACHE_FROM_DEVICE_TREE);
    if (kept && note[0])
        topology_warn(t, "device tree caches: %s", note);
    topology_say_disagreements(t);
}
