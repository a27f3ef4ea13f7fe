/* SPDX-License-Identifier: MIT */
/* CPUID as a cache source: its views of every level are recorded beside sysfs's
 * (so `membench topology` can show where they disagree), and a level sysfs does
 * not describe (cloud guests without /sys/.../cache) takes CPUID's instances.
 * Leaf 4 and 0x8000001D say how many logical CPUs share an instance; AMD's legacy
 * L1/L2 fields are per core; its legacy L3 field is a whole package's and never
 * becomes an instance (the cache probe measures one CCX's share instead). */
#include "topology/cpuid_source.h"

#include <stdlib.h>
#include <string.h>

#include "topology/cpuid_caches.h"

/* Does CPU a come before CPU b in the order CPUID numbers threads within a
 * package: by core, then by thread within the core (Linux often numbers a core's
 * second thread far away, CPU n and n + cores)? */
static bool before(const cpu_info *a, const cpu_info *b)
{
    if (a->core_id != b->core_id)
        return a->core_id < b->core_id;
    if (a->smt_rank != b->smt_rank)
        return a->smt_rank < b->smt_rank;
    return a->id < b->id;
}

/* Each CPU's instance: CPUs of one package in CPUID's order, cut into groups of
 * `sharing` (0: per core, the legacy fields). group[i] numbers t->cpus[i]'s. */
static void group_cpus(const topology *t, int sharing, int *group)
{
    for (size_t i = 0; i < t->ncpus; i++) {
        const cpu_info *c = &t->cpus[i];
        size_t rank = 0;
        for (size_t k = 0; k < t->ncpus; k++)
            rank += t->cpus[k].package_id == c->package_id && before(&t->cpus[k], c);
        if (sharing == 0) /* per core: the first thread of the core names it */
            group[i] = c->core_id >= 0 ? c->core_id : c->id;
        else
            group[i] = (int)(rank / (size_t)sharing);
    }
}

/* Instances of r's level, one per group of CPUs; false when out of memory. */
static bool add_instances(topology *t, const cache_report *r)
{
    bool *placed = calloc(t->ncpus ? t->ncpus : 1, sizeof *placed);
    int *group = calloc(t->ncpus ? t->ncpus : 1, sizeof *group);
    bool ok = placed && group;
    if (ok)
        group_cpus(t, r->sharing, group);
    for (size_t i = 0; i < t->ncpus && ok; i++) {
        if (placed[i])
            continue;
        cache_instance c = {r->level, r->level == 1 ? CACHE_DATA : CACHE_UNIFIED, r->size, r->line_size, {NULL, 0},
                            r->source};
        if (c.line_size <= 0)
            c.line_size = topology_cache_level(t, 1).line_size;
        c.shared.ids = malloc(sizeof(int) * t->ncpus);
        ok = c.shared.ids != NULL;
        for (size_t k = i; k < t->ncpus && ok; k++)
            if (!placed[k] && t->cpus[k].package_id == t->cpus[i].package_id && group[k] == group[i]) {
                placed[k] = true;
                c.shared.ids[c.shared.count++] = t->cpus[k].id;
            }
        if (!ok) {
            free(c.shared.ids);
            break;
        }
        ok = topology_add_cache_instance(t, c);
    }
    free(placed);
    free(group);
    return ok;
}

/* The view of a level to build instances from: the deterministic leaves (they say
 * the sharing) before the legacy fields; never a package's total. */
static const cache_report *best_view(const cpuid_caches *cc, int level)
{
    const cache_report *best = NULL;
    for (size_t i = 0; i < cc->nlevels; i++) {
        const cache_report *r = &cc->levels[i];
        if (r->level != level || r->per_package)
            continue;
        if (!best || (best->source == CACHE_FROM_CPUID_AMD_LEGACY && r->source != CACHE_FROM_CPUID_AMD_LEGACY))
            best = r;
    }
    return best;
}

void topology_add_cpuid(topology *t, const cpuid_dump *d)
{
    cpuid_caches cc;
    cpuid_caches_decode(d, &cc);
    memcpy(t->cpu_vendor, cc.vendor, sizeof t->cpu_vendor);
    memcpy(t->hypervisor, cc.hypervisor, sizeof t->hypervisor);
    for (size_t i = 0; i < cc.nlevels; i++)
        topology_add_cache_report(t, &cc.levels[i]);
    for (int level = 1; level <= 4; level++) {
        const cache_report *r = best_view(&cc, level);
        if (!r || topology_has_cache_level(t, level))
            continue;
        if (add_instances(t, r) && r->sharing > 1 && (size_t)r->sharing < t->ncpus)
            topology_warn(t, "L%d is not in sysfs: taken from %s, one instance per %d CPUs (grouped by core id)",
                          level, cache_source_name(r->source), r->sharing);
    }
    topology_say_disagreements(t);
    topology_say_missing_caches(t);
}

void topology_add_live_sources(topology *t)
{
    topology_add_live_cpuinfo_caches(t);
    cpuid_dump d = {NULL, 0};
    if (cpuid_dump_live(&d))
        topology_add_cpuid(t, &d);
    cpuid_dump_free(&d);
}
