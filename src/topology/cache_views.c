/* SPDX-License-Identifier: MIT */
/* Every source's view of the cache levels, kept side by side: which one a size
 * was taken from, where two sources disagree, and one line that says what is used
 * where no source describes a level. A "DRAM" buffer sized from a guessed cache is
 * the worst error the tool can make, so the guesses are always said. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/topology.h"
#include "util/format_bytes.h"

#define MISSING_PREFIX "cache sizes: "
#define DISAGREE_PREFIX "sources disagree on L"

static void unwarn_prefix(topology *t, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < t->nwarnings; i++)
        if (strncmp(t->warnings[i], prefix, n) == 0) {
            free(t->warnings[i]);
            memmove(&t->warnings[i], &t->warnings[i + 1], (t->nwarnings - i - 1) * sizeof t->warnings[0]);
            t->nwarnings--;
            i--;
        }
}

void topology_add_cache_report(topology *t, const cache_report *r)
{
    if (r->size == 0 || r->level < 1)
        return;
    for (size_t i = 0; i < t->ncache_reports; i++) {
        cache_report *old = &t->cache_reports[i];
        if (old->source == r->source && old->level == r->level && old->per_package == r->per_package) {
            *old = *r;
            return;
        }
    }
    if (t->ncache_reports < TOPO_MAX_CACHE_REPORTS)
        t->cache_reports[t->ncache_reports++] = *r;
}

void topology_report_instances(topology *t, cache_source source)
{
    int cpu = t->usable.count ? t->usable.ids[0] : -1;
    for (int level = 1; level <= 8; level++) {
        const cache_instance *pick = NULL;
        for (size_t i = 0; i < t->ncaches; i++) {
            const cache_instance *c = &t->caches[i];
            if (c->level != level || c->source != source)
                continue;
            if (!pick || cpu_list_contains(&c->shared, cpu))
                pick = c;
        }
        if (pick) {
            cache_report r = {source, level, pick->size, pick->line_size, (int)pick->shared.count, false};
            topology_add_cache_report(t, &r);
        }
    }
}

uint64_t topology_cache_report_max(const topology *t, int level, cache_source *src)
{
    uint64_t best = 0;
    for (size_t i = 0; i < t->ncache_reports; i++) {
        const cache_report *r = &t->cache_reports[i];
        if (r->level == level && !r->per_package && r->size > best) {
            best = r->size;
            if (src)
                *src = r->source;
        }
    }
    return best;
}

int topology_last_level(const topology *t)
{
    int top = topology_max_cache_level(t);
    for (size_t i = 0; i < t->ncache_reports; i++)
        if (t->cache_reports[i].level > top)
            top = t->cache_reports[i].level;
    return top >= 3 ? top : 3;
}

bool topology_llc_unknown(const topology *t)
{
    int top = topology_last_level(t);
    if (topology_has_cache_level(t, top))
        return false;
    for (size_t i = 0; i < t->ncache_reports; i++) {
        const cache_report *r = &t->cache_reports[i];
        if (r->level == top && !r->per_package && r->source != CACHE_FROM_MEASURED)
            return false;
    }
    return true;
}

bool topology_warning_is_package_note(const topology *t, const char *w)
{
    if (strncmp(w, MISSING_PREFIX "no source reports ", strlen(MISSING_PREFIX "no source reports ")) != 0)
        return false;
    for (int level = 1; level <= 3; level++)
        if (!topology_has_cache_level(t, level) && !topology_cache_level(t, level).per_package)
            return false; /* a level guessed or missing: a real warning */
    return true;
}

void topology_say_missing_caches(topology *t)
{
    unwarn_prefix(t, MISSING_PREFIX);
    char line[400] = MISSING_PREFIX "no source reports ";
    size_t nmissing = 0;
    char used[300] = "";
    for (int level = 1; level <= 3; level++) {
        if (topology_has_cache_level(t, level))
            continue;
        cache_level cl = topology_cache_level(t, level);
        char size[32], part[96];
        format_bytes(cl.size, size, sizeof size);
        if (cl.per_package)
            snprintf(part, sizeof part, "L%d %s for a whole package (%s), not one instance's", level, size,
                     cache_source_name(cl.source));
        else
            snprintf(part, sizeof part, "L%d %s (%s)", level, size, cache_source_name(cl.source));
        snprintf(line + strlen(line), sizeof line - strlen(line), "%sL%d", nmissing ? ", " : "", level);
        snprintf(used + strlen(used), sizeof used - strlen(used), "%s%s", nmissing ? ", " : "", part);
        nmissing++;
    }
    if (nmissing == 0)
        return;
    topology_warn(t, "%s per instance (sysfs, CPUID, device tree): using %s", line, used);
}

void topology_say_disagreements(topology *t)
{
    unwarn_prefix(t, DISAGREE_PREFIX);
    for (int level = 1; level <= 8; level++) {
        uint64_t lo = 0, hi = 0;
        char list[256] = "";
        for (size_t i = 0; i < t->ncache_reports; i++) {
            const cache_report *r = &t->cache_reports[i];
            if (r->level != level || r->per_package || r->source == CACHE_FROM_MEASURED)
                continue;
            lo = lo && lo < r->size ? lo : r->size;
            hi = hi > r->size ? hi : r->size;
            char size[32];
            format_bytes(r->size, size, sizeof size);
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s %s", list[0] ? ", " : "",
                     cache_source_name(r->source), size);
        }
        if (lo && hi != lo)
            topology_warn(t, DISAGREE_PREFIX "%d's size (%s): DRAM buffers are sized from the largest", level, list);
    }
}

void topology_set_measured(topology *t, const cache_measurement *m)
{
    t->measured = *m;
    /* No DRAM plateau up to the largest size probed: that size was still a cache's,
     * a lower bound of the last level (DRAM buffers are then sized past it). */
    uint64_t llc = m->edge_found ? m->llc_bytes : !m->dram_found ? m->max_bytes : 0;
    if (m->served_bytes > llc) /* a cache still served it: DRAM buffers must pass it */
        llc = m->served_bytes;
    if (!m->ran || llc == 0)
        return;
    cache_report r = {CACHE_FROM_MEASURED, topology_last_level(t), llc, 0, 0, false};
    topology_add_cache_report(t, &r);
    topology_say_missing_caches(t);
}
