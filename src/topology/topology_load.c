/* SPDX-License-Identifier: MIT */
/* topology_load: sysfs first, then every other source's view of the caches, then
 * one line for the levels no source describes. */
#include "topology/topology.h"
#include "topology/topology_sysfs.h"

bool topology_load(const char *sys_root, const cpu_list *usable, topology *t)
{
    if (!topology_read_sysfs(sys_root, usable, t))
        return false;
    topology_report_instances(t, CACHE_FROM_SYSFS);
    topology_add_devicetree(t, sys_root);
    topology_read_pages(sys_root, t);
    topology_say_missing_caches(t);
    topology_warn_memoryless_nodes(t);
    return true;
}
