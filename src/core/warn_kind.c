/* SPDX-License-Identifier: MIT */
#include "core/warn_kind.h"

#include <stddef.h>

static const warn_kind_info kinds[WARN_KIND_COUNT] = {
    [WARN_TOPOLOGY] = {"topology", true, "what sysfs, CPUID and the cache probe say about this machine (its "
                                         "caches, NUMA nodes, pages) is missing or disagrees (membench topology "
                                         "shows it)", "docs/topology.md"},
    [WARN_MEMORY_BUDGET] = {"memory_budget", false, "the memory budget was clamped", NULL},
    [WARN_SIZES_LEFT_OUT] = {"sizes_left_out", true, "sizes left out or scaled down to fit the memory budget", NULL},
    [WARN_MAY_FIT_CACHE] = {"may_fit_cache", true, "buffers meant for DRAM may still fit a cache", "docs/cache-sizes.md"},
    [WARN_PLACEMENT] = {"placement", true, "threads not where they were meant to be", NULL},
    [WARN_PAGES] = {"pages", true, "buffers short of the huge pages asked for", NULL},
    [WARN_NODE_LOCALITY] = {"node_locality", true, "buffers not (or not known to be) on the NUMA node asked for", NULL},
    [WARN_NOT_MEASURED] = {"not_measured", true, "points not measured, or measured with fewer samples", NULL},
    [WARN_TWO_LEVELS] = {"two_levels", true, "points whose samples fell in two levels: their medians are neither",
                         "docs/uncertainty.md"},
    [WARN_ROUNDS_CUT] = {"rounds_cut", true, "the time limit ended rounds before points had their samples",
                         "docs/sweep.md"},
    [WARN_TARGET_CI] = {"target_ci", true, "figures not within --target-ci", "docs/uncertainty.md"},
    /* the run's headline ends with this verdict */
    [WARN_HOST_NOISE] = {"host_noise", false, "the host varied during the run: small differences are not meaningful",
                         "docs/uncertainty.md"},
    [WARN_HOST_STEAL] = {"host_steal", false, "the hypervisor took CPU time", NULL},
    [WARN_CPU_PRESSURE] = {"cpu_pressure", false, "tasks waited for a CPU", NULL},
    [WARN_MEMORY_PRESSURE] = {"memory_pressure", false, "tasks stalled on memory", NULL},
    [WARN_OPTION_IGNORED] = {"option_ignored", true, "options that do nothing here were ignored", NULL},
    [WARN_KERNELS] = {"kernels", true, "kernels asked for that this CPU does not have", NULL},
    [WARN_STREAM_RULE] = {"stream_rule", true, "arrays smaller than STREAM's rule asks", "docs/stream.md"},
    [WARN_ONE_NODE] = {"one_node", false, "one NUMA node: nothing to converge", NULL},
    [WARN_LOADED_CURVE] = {"loaded_curve", true,
                           "the loaded-latency curve is not back at idle at its largest delay, or out of order",
                           "docs/mlc-class.md"},
    /* a cloud guest's usual state, and the run's headline names the caches with it */
    [WARN_PACKAGE_CACHE] = {"package_cache", false,
                            "a cache level known only as a whole package's size (the headline's caches line)",
                            "docs/cache-sizes.md"},
};

const warn_kind_info *warn_kind_get(warn_kind k)
{
    return (unsigned)k < WARN_KIND_COUNT ? &kinds[k] : NULL;
}
