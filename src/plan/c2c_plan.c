/* SPDX-License-Identifier: MIT */
#include "plan/c2c_plan.h"

#include "plan/dram_size.h"

#define MIN_WINDOW (16ULL << 10)
#define MAX_WINDOW (1ULL << 20)
#define MIN_EVICTION (4ULL << 20)

static bool same_core(const cpu_info *a, const cpu_info *b)
{
    return a->core_id >= 0 && a->package_id == b->package_id && a->core_id == b->core_id;
}

/* First usable pair (a < b) on one node whose sibling-ness is `siblings`; pairs in
 * one package come before pairs across packages of the node. */
static bool find_pair(const topology *t, bool siblings, c2c_pair *out)
{
    for (int same_pkg = 1; same_pkg >= 0; same_pkg--)
        for (size_t i = 0; i < t->ncpus; i++) {
            const cpu_info *a = &t->cpus[i];
            if (!a->usable)
                continue;
            for (size_t j = i + 1; j < t->ncpus; j++) {
                const cpu_info *b = &t->cpus[j];
                if (!b->usable || b->node != a->node || same_core(a, b) != siblings ||
                    (a->package_id == b->package_id) != (same_pkg == 1))
                    continue;
                *out = (c2c_pair){a->id, b->id, siblings};
                return true;
            }
        }
    return false;
}

bool c2c_local_pair(const topology *t, bool smt, c2c_pair *out, bool *siblings_only)
{
    *siblings_only = false;
    if (smt)
        return find_pair(t, true, out);
    if (find_pair(t, false, out))
        return true;
    *siblings_only = find_pair(t, true, out);
    return *siblings_only;
}

static bool listed(const int *ids, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

size_t c2c_node_representatives(const topology *t, const int *avoid, size_t navoid, int *nodes, int *cpus,
                                size_t cap)
{
    size_t n = 0;
    for (size_t k = 0; k < t->nnodes && n < cap; k++) {
        const numa_node *nd = &t->nodes[k];
        int first = -1, other = -1;
        for (size_t i = 0; i < t->ncpus; i++) {
            const cpu_info *c = &t->cpus[i];
            if (!c->usable || c->node != nd->id)
                continue;
            if (first < 0)
                first = c->id;
            if (other < 0 && !listed(avoid, navoid, c->id))
                other = c->id;
        }
        if (first < 0)
            continue; /* no usable CPU: memory only, or outside the affinity mask */
        nodes[n] = nd->id;
        cpus[n++] = other >= 0 ? other : first;
    }
    return n;
}

int c2c_home_of_cpu(const topology *t, int cpu)
{
    const cpu_info *c = topology_cpu(t, cpu);
    return topology_memory_node(t, c ? c->node : 0);
}

size_t c2c_matrix_pairs(const int *cpus, size_t n, c2c_pair *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j)
                out[k++] = (c2c_pair){cpus[i], cpus[j], false};
    return k;
}

uint64_t c2c_default_window(const topology *t, int writer)
{
    uint64_t l2 = 0;
    for (size_t i = 0; i < t->ncaches; i++) {
        const cache_instance *c = &t->caches[i];
        if (c->level == 2 && c->type != CACHE_INSTRUCTION && cpu_list_contains(&c->shared, writer))
            l2 = c->size;
    }
    if (l2 == 0)
        l2 = topology_cache_level(t, 2).size;
    uint64_t w = l2 / 2;
    w -= w % 4096;
    return w < MIN_WINDOW ? MIN_WINDOW : w > MAX_WINDOW ? MAX_WINDOW : w;
}

uint64_t c2c_eviction_bytes(const topology *t)
{
    uint64_t largest = 0;
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].type != CACHE_INSTRUCTION && t->caches[i].size > largest)
            largest = t->caches[i].size;
    /* The last level as DRAM buffers see it (plan/dram_size.h): a guest whose sysfs
     * has no L3 still has one to push lines out of. */
    dram_basis b = dram_basis_for(t, NULL, 0);
    uint64_t last = topology_cache_level(t, b.level).size; /* with no source, its default */
    if (dram_largest_level(&b) > largest)
        largest = dram_largest_level(&b);
    if (last > largest)
        largest = last;
    return 2 * largest < MIN_EVICTION ? MIN_EVICTION : 2 * largest;
}
