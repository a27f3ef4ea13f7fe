/* SPDX-License-Identifier: MIT */
#include "plan/sweep_plan.h"

#include <stdio.h>
#include <string.h>

#include "plan/dram_size.h"
#include "util/format_bytes.h"

uint64_t round_down_pow2(uint64_t v)
{
    if (v == 0)
        return 0;
    uint64_t p = 1;
    while (p <= v / 2)
        p <<= 1;
    return p;
}

uint64_t round_up_pow2(uint64_t v)
{
    uint64_t p = 1;
    while (p < v && p < (1ULL << 62))
        p <<= 1;
    return p;
}

/* Where a point comes from: its level's source, whether it is meant to be DRAM's. */
typedef struct {
    const char *basis;
    bool dram;
} point_kind;

static void add_point(size_plan *p, point_kind kind, uint64_t bytes, const char *fmt, const char *detail)
{
    if (bytes < SWEEP_MIN_BYTES)
        bytes = SWEEP_MIN_BYTES;
    if (bytes > p->max_bytes) {
        p->dropped++;
        return;
    }
    for (size_t i = 0; i < p->n; i++)
        if (p->points[i].bytes == bytes)
            return; /* first reason wins */
    if (p->n >= SWEEP_MAX_POINTS)
        return;
    size_point *pt = &p->points[p->n++];
    pt->bytes = bytes;
    snprintf(pt->reason, sizeof pt->reason, fmt, detail);
    pt->basis = kind.basis;
    pt->dram = kind.dram;
}

static void sort_points(size_plan *p)
{
    for (size_t i = 1; i < p->n; i++)
        for (size_t j = i; j > 0 && p->points[j - 1].bytes > p->points[j].bytes; j--) {
            size_point tmp = p->points[j];
            p->points[j] = p->points[j - 1];
            p->points[j - 1] = tmp;
        }
}

void sweep_plan_sizes(const topology *t, const int *cpus, int nthreads, bool full, uint64_t budget,
                      int buffers, size_plan *out)
{
    memset(out, 0, sizeof *out);
    if (nthreads < 1)
        nthreads = 1;
    if (buffers < 1)
        buffers = 1;
    out->max_bytes = budget / ((uint64_t)nthreads * (uint64_t)buffers);
    out->max_bytes -= out->max_bytes % 4096;
    dram_basis b = dram_basis_of(t);
    char d[3 + 1][128];
    const char *basis[3 + 1];
    for (int level = 1; level <= 3; level++) {
        cache_level cl = topology_cache_level(t, level);
        basis[level] = cache_source_key(cl.source);
        if (level == b.level && b.llc_bytes > cl.size) { /* a larger view of the last level wins */
            cl.size = b.llc_bytes;
            cl.source = b.source;
            basis[level] = dram_basis_key(&b);
        }
        size_t sharers = 1;
        for (int i = 0; i < nthreads; i++) {
            size_t s = topology_cache_sharers(t, level, cpus[i], cpus, (size_t)nthreads);
            if (s > sharers)
                sharers = s;
        }
        out->sharers[level] = sharers;
        out->share[level] = cl.size / sharers;
        char total[32], share[32];
        format_bytes(cl.size, total, sizeof total);
        format_bytes(out->share[level], share, sizeof share);
        if (sharers > 1)
            snprintf(d[level], sizeof d[level], "L%d %s (%s) / %zu threads = %s", level, total,
                     cache_source_name(cl.source), sharers, share);
        else
            snprintf(d[level], sizeof d[level], "L%d %s (%s%s)", level, total, cl.per_package ? "per package, " : "",
                     cache_source_name(cl.source));
    }
    uint64_t l1 = out->share[1], l2 = out->share[2], l3 = out->share[3];
    point_kind k1 = {basis[1], false}, k2 = {basis[2], false}, k3 = {basis[3], false}, ram = {basis[3], true};
    add_point(out, k1, round_down_pow2(l1 / 2), "L1/2: inside L1 (%s)", d[1]);
    add_point(out, k1, round_up_pow2(l1 * 2), "2xL1: past L1 (%s)", d[1]);
    add_point(out, k2, round_down_pow2(l2 / 2), "L2/2: inside L2 (%s)", d[2]);
    add_point(out, k2, round_down_pow2(l2), "L2: fills L2 (%s)", d[2]);
    add_point(out, k2, round_up_pow2(l2 * 2), "2xL2: past L2 (%s)", d[2]);
    /* A point "in L3" must pass the thread's L2 share, or L2 holds it: with 112
     * threads on a 105 MiB L3 (Sapphire Rapids), a thread's L3 share (960 KiB) is
     * below its L2 share (1 MiB), and L3/2 would measure L2 under L3's name. */
    if (l3 > l2 * 4)
        add_point(out, k3, round_down_pow2(l3 / 4), "L3/4: inside L3 (%s)", d[3]);
    if (round_down_pow2(l3 / 2) > l2)
        add_point(out, k3, round_down_pow2(l3 / 2), "L3/2: inside L3 (%s)", d[3]);
    if (round_down_pow2(l3) > l2)
        add_point(out, k3, round_down_pow2(l3), "L3: fills L3 (%s)", d[3]);
    add_point(out, ram, round_up_pow2(l3 * 2), "2xL3: past L3, RAM (%s)", d[3]);
    add_point(out, ram, round_up_pow2(l3 * 4), "4xL3: RAM (%s)", d[3]);
    /* The probe saw the DRAM plateau begin past 4x L3 (all threads together): one
     * point there, so the sweep's last rows are DRAM's. */
    uint64_t plateau = b.dram_from ? round_up_pow2((b.dram_from + (uint64_t)nthreads - 1) / (uint64_t)nthreads) : 0;
    if (plateau > round_up_pow2(l3 * 4)) {
        char size[32];
        add_point(out, ram, plateau, "DRAM plateau (measured from %s)", format_bytes(b.dram_from, size, sizeof size));
    }
    if (full) {
        size_t before = out->n;
        /* s doubles to 0 past 2^63: a budget near 2^64 ends there, never wraps round */
        for (uint64_t s = SWEEP_FULL_START; s && s <= out->max_bytes && out->n < SWEEP_MAX_POINTS; s *= 2)
            add_point(out, ram, s, "-f: RAM%s", "");
        uint64_t top = round_down_pow2(out->max_bytes);
        if (top >= SWEEP_FULL_START)
            add_point(out, ram, top, "-f: RAM, largest size the memory budget allows%s", "");
        out->full_points = out->n - before;
    }
    if (out->n == 0) /* even a tiny budget gets one point if it fits */
        add_point(out, k1, SWEEP_MIN_BYTES, "minimum size%s", "");
    for (size_t i = 0; i < out->n; i++) {
        size_point *pt = &out->points[i];
        pt->may_fit_cache = pt->dram && (b.source == CACHE_FROM_DEFAULT || pt->bytes < 2 * l3 ||
                                         pt->bytes * (uint64_t)nthreads < b.dram_from);
    }
    sort_points(out);
}
