/* SPDX-License-Identifier: MIT */
#include "measure/cache_probe.h"

#include <stdio.h>
#include <string.h>

#include "measure/llc_probe.h"
#include "util/stop_flag.h"
#include "util/format_bytes.h"

#define MIB (1ULL << 20)
#define PROBE_MIN_BYTES (256ULL << 10)
#define PROBE_FIRST_BYTES (128 * MIB)

static uint64_t pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

uint64_t cache_probe_max_bytes(const topology *t, uint64_t budget)
{
    uint64_t max = 1024 * MIB;
    if (!topology_llc_unknown(t)) {
        cache_level cl = topology_cache_level(t, topology_last_level(t));
        max = 4 * cl.size;
        max = max < 64 * MIB ? 64 * MIB : max > 2048 * MIB ? 2048 * MIB : max;
    }
    if (max > budget / 3)
        max = budget / 3;
    return pow2_floor(max);
}

static void copy_result(const llc_probe_result *r, uint64_t max, cache_measurement *m)
{
    memset(m, 0, sizeof *m);
    m->ran = true;
    m->edge_found = r->edge_found;
    m->dram_found = r->dram_found;
    m->sure = r->sure;
    m->llc_bytes = r->llc_bytes;
    m->llc_low_bytes = r->llc_low_bytes;
    m->llc_high_bytes = r->llc_high_bytes;
    m->dram_from_bytes = r->dram_from_bytes;
    m->served_bytes = r->served_bytes;
    /* The ladder stops below max (its chains take 2.5x max in all): its top size. */
    m->max_bytes = r->npoints ? r->points[r->npoints - 1].bytes : max;
    m->llc_ns = r->llc_ns;
    m->dram_ns = r->dram_ns;
    m->wall_s = r->wall_s;
    snprintf(m->why, sizeof m->why, "%s", r->why);
}

void cache_probe_into(topology *t, double budget_s, bool (*budget_of)(uint64_t *, char *, size_t))
{
    uint64_t budget;
    char why[256] = "";
    if (!budget_of(&budget, why, sizeof why)) {
        topology_warn(t, "cache probe: not run (the memory budget is unknown: %s)", why);
        return;
    }
    uint64_t max = cache_probe_max_bytes(t, budget);
    if (max < 4 * PROBE_MIN_BYTES) {
        topology_warn(t, "cache probe: not run (the memory budget allows too little)");
        return;
    }
    /* Most last levels a core sees are far below 128 MiB: a short ladder first
     * (its chains fault in 2.5x its top, the probe's main cost), the whole one only
     * when that found no DRAM plateau. */
    uint64_t first = max < PROBE_FIRST_BYTES ? max : PROBE_FIRST_BYTES;
    static llc_probe_result r; /* large (every point); one probe per process */
    char err[256] = "";
    double spent = 0;
    for (uint64_t top = first;; top = max) {
        llc_probe_config cfg = {PROBE_MIN_BYTES, top, budget_s - spent, 1};
        if (!llc_probe_run(&cfg, &r, err, sizeof err)) {
            if (!stop_flagged()) /* a stop is the run's, said when it ends */
                topology_warn(t, "cache probe failed: %s", err);
            return;
        }
        spent += r.wall_s;
        if (r.dram_found || top == max || spent >= budget_s)
            break;
    }
    r.wall_s = spent;
    cache_measurement m;
    copy_result(&r, max, &m);
    /* The largest size another source gives, before the probe's view joins them. */
    cache_source src = CACHE_FROM_DEFAULT;
    uint64_t reported = topology_cache_report_max(t, topology_last_level(t), &src);
    topology_set_measured(t, &m);
    char llc[32], dram[32], top[32];
    /* What a cache served: the plateau's edge, or a larger size it still served. */
    uint64_t served = m.served_bytes > m.llc_bytes ? m.served_bytes : m.llc_bytes;
    format_bytes(served, llc, sizeof llc);
    format_bytes(m.dram_from_bytes, dram, sizeof dram);
    format_bytes(m.max_bytes, top, sizeof top);
    if (!m.edge_found && !m.dram_found)
        topology_warn(t, "cache probe (%.1f s, up to %s): no DRAM plateau, so the last level is at least %s: %s",
                      m.wall_s, top, top, m.why);
    else if (!m.edge_found)
        topology_warn(t, "cache probe (%.1f s, up to %s): no last-level edge found: %s", m.wall_s, top, m.why);
    if (m.edge_found && reported > 2 * served) {
        char nominal[32];
        format_bytes(reported, nominal, sizeof nominal);
        topology_warn(t, "cache probe: the effective last level one thread sees is about %s, far below the %s %s "
                         "reports (a shared host, or cache partitioning); DRAM buffers are sized from what the "
                         "sources report, never from the probe",
                      llc, nominal, cache_source_name(src));
    }
    if (m.edge_found && !m.sure)
        topology_warn(t, "cache probe (%.1f s): last level about %s, DRAM from %s, but its batches disagree (a noisy "
                         "host): the edge is uncertain", m.wall_s, llc, dram);
}
