/* SPDX-License-Identifier: MIT */
#include "plan/dram_size.h"

#include <stdio.h>

#include "util/format_bytes.h"

/* A source that describes the machine (not the probe, not a built-in default). */
static bool describes(cache_source s)
{
    return s != CACHE_FROM_MEASURED && s != CACHE_FROM_DEFAULT;
}

static bool reaches(const cpu_list *shared, const int *cpus, size_t n, const cpu_list *usable)
{
    if (n == 0) {
        for (size_t i = 0; i < usable->count; i++)
            if (cpu_list_contains(shared, usable->ids[i]))
                return true;
        return usable->count == 0;
    }
    for (size_t i = 0; i < n; i++)
        if (cpu_list_contains(shared, cpus[i]))
            return true;
    return false;
}

static unsigned packages_reached(const topology *t, const int *cpus, size_t n)
{
    int seen[64];
    unsigned count = 0;
    size_t m = n ? n : t->usable.count ? t->usable.count : t->ncpus;
    for (size_t i = 0; i < m; i++) {
        int id = n ? cpus[i] : t->usable.count ? t->usable.ids[i] : t->cpus[i].id;
        const cpu_info *c = topology_cpu(t, id);
        int pkg = c && c->package_id >= 0 ? c->package_id : 0;
        bool known = false;
        for (unsigned k = 0; k < count && !known; k++)
            known = seen[k] == pkg;
        if (!known && count < sizeof seen / sizeof seen[0])
            seen[count++] = pkg;
    }
    return count ? count : 1;
}

dram_basis dram_basis_for(const topology *t, const int *cpus, size_t n)
{
    dram_basis b = {topology_last_level(t), 0, CACHE_FROM_DEFAULT, 0, 0, CACHE_FROM_DEFAULT, 1, 0,
                    CACHE_FROM_DEFAULT, false};
    for (size_t i = 0; i < t->ncaches; i++) {
        const cache_instance *c = &t->caches[i];
        if (c->level != b.level || c->type == CACHE_INSTRUCTION || !describes(c->source))
            continue;
        b.instances += reaches(&c->shared, cpus, n, &t->usable);
        if (c->size > b.instance_bytes) {
            b.instance_bytes = c->size;
            b.instance_source = c->source;
        }
    }
    if (b.instances == 0)
        b.instances = 1;
    for (size_t i = 0; i < t->ncache_reports; i++) {
        const cache_report *r = &t->cache_reports[i];
        if (r->level != b.level || !describes(r->source))
            continue;
        uint64_t *size = r->per_package ? &b.package_bytes : &b.instance_bytes;
        cache_source *src = r->per_package ? &b.package_source : &b.instance_source;
        if (r->size > *size) {
            *size = r->size;
            *src = r->source;
        }
    }
    b.packages = packages_reached(t, cpus, n);
    uint64_t by_instance = b.instance_bytes * b.instances, by_package = b.package_bytes * b.packages;
    if (by_package > by_instance) {
        b.bytes = by_package;
        b.source = b.package_source;
        b.per_package = true;
    } else if (by_instance) {
        b.bytes = by_instance;
        b.source = b.instance_source;
    }
    return b;
}

bool dram_basis_none(const dram_basis *b)
{
    return b->bytes == 0;
}

uint64_t dram_rule_bytes(const dram_basis *b)
{
    return b->bytes ? DRAM_RULE_FACTOR * b->bytes : DRAM_FLOOR_BYTES;
}

bool dram_may_fit_cache(const dram_basis *b, uint64_t total)
{
    return total < dram_rule_bytes(b);
}

uint64_t dram_largest_level(const dram_basis *b)
{
    return b->package_bytes > b->instance_bytes ? b->package_bytes : b->instance_bytes;
}

const char *dram_basis_text(const dram_basis *b, char *buf, size_t len)
{
    char size[32];
    if (!b->bytes) {
        snprintf(buf, len, "no source describes L%d", b->level);
        return buf;
    }
    unsigned count = b->per_package ? b->packages : b->instances;
    format_bytes(b->per_package ? b->package_bytes : b->instance_bytes, size, sizeof size);
    char times[24] = "";
    if (count > 1)
        snprintf(times, sizeof times, " x %u", count);
    snprintf(buf, len, "L%d %s%s%s (%s)", b->level, size, b->per_package ? " per package" : "", times,
             cache_source_name(b->source));
    return buf;
}

const char *dram_rule_text(const dram_basis *b, char *buf, size_t len)
{
    char basis[96], rule[32];
    format_bytes(dram_rule_bytes(b), rule, sizeof rule);
    if (!b->bytes)
        snprintf(buf, len, "%s: the %s floor", dram_basis_text(b, basis, sizeof basis), rule);
    else
        snprintf(buf, len, "%dx %s = %s", DRAM_RULE_FACTOR, dram_basis_text(b, basis, sizeof basis), rule);
    return buf;
}

const char *dram_basis_key(const dram_basis *b)
{
    return b->bytes ? cache_source_key(b->source) : "floor";
}
