/* SPDX-License-Identifier: MIT */
#include "plan/dram_size.h"

#include <stdio.h>

#include "util/format_bytes.h"

dram_basis dram_basis_of(const topology *t)
{
    dram_basis b = {topology_last_level(t), 0, 0, CACHE_FROM_DEFAULT, false, 0};
    for (size_t i = 0; i < t->ncaches; i++)
        b.instances += t->caches[i].level == b.level;
    if (b.instances == 0)
        b.instances = 1;
    /* Every per-instance view, the measured one included: the largest wins, so a
     * source that understates the cache cannot leave a "DRAM" buffer in it. */
    cache_source src = CACHE_FROM_DEFAULT;
    uint64_t best = topology_cache_report_max(t, b.level, &src);
    cache_level cl = topology_cache_level(t, b.level);
    if (best > 0) {
        b.llc_bytes = best;
        b.source = src;
    } else {
        b.llc_bytes = cl.size;
        b.source = cl.source;
        b.per_package = cl.per_package;
    }
    if (b.llc_bytes == 0) { /* past L3 with nothing known: the L3 default */
        b.llc_bytes = topology_cache_level(t, 3).size;
        b.source = CACHE_FROM_DEFAULT;
    }
    if (t->measured.ran && t->measured.dram_found)
        b.dram_from = t->measured.dram_from_bytes;
    return b;
}

uint64_t dram_min_bytes(const dram_basis *b, unsigned factor, bool all_instances)
{
    uint64_t llc = b->llc_bytes * (all_instances ? b->instances : 1);
    uint64_t bytes = llc * factor;
    return bytes > b->dram_from ? bytes : b->dram_from;
}

bool dram_may_fit_cache(const dram_basis *b, uint64_t total, bool all_instances)
{
    uint64_t llc = b->llc_bytes * (all_instances ? b->instances : 1);
    return b->source == CACHE_FROM_DEFAULT || total < 2 * llc || (b->dram_from && total < b->dram_from);
}

const char *dram_basis_text(const dram_basis *b, char *buf, size_t len)
{
    char size[32];
    format_bytes(b->llc_bytes, size, sizeof size);
    char count[24] = "";
    if (b->instances > 1 && !b->per_package)
        snprintf(count, sizeof count, " x %u", b->instances);
    snprintf(buf, len, "L%d %s%s%s (%s)", b->level, size, count, b->per_package ? " per package" : "",
             cache_source_name(b->source));
    return buf;
}

const char *dram_basis_key(const dram_basis *b)
{
    return cache_source_key(b->source);
}
