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
        if (p->points[i].bytes == bytes) {
            if (kind.dram && !p->points[i].dram) { /* the DRAM point's reason wins: it says what the size must be */
                snprintf(p->points[i].reason, sizeof p->points[i].reason, fmt, detail);
                p->points[i].basis = kind.basis;
                p->points[i].dram = true;
            }
            return; /* else the first reason wins */
        }
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
    dram_basis b = dram_basis_for(t, cpus, (size_t)nthreads);
    char d[3 + 1][128];
    const char *basis[3 + 1];
    for (int level = 1; level <= 3; level++) {
        cache_level cl = topology_cache_level(t, level);
        basis[level] = cache_source_key(cl.source);
        if (level == b.level && b.instance_bytes > cl.size) { /* a larger view of one instance wins */
            cl.size = b.instance_bytes;
            cl.source = b.instance_source;
            cl.per_package = false;
            basis[level] = cache_source_key(b.instance_source);
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
    point_kind k1 = {basis[1], false}, k2 = {basis[2], false}, k3 = {basis[3], false}, ram = {dram_basis_key(&b), true};
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
    /* The DRAM point: all threads together at least the rule (plan/dram_size.h),
     * whatever the cache points above say; capped by the budget (then it may fit a
     * cache, said). One point, so every run of a machine has the same rows. */
    uint64_t rule = dram_rule_bytes(&b), dram = round_up_pow2((rule + (uint64_t)nthreads - 1) / (uint64_t)nthreads);
    char rule_text[160];
    dram_rule_text(&b, rule_text, sizeof rule_text);
    if (dram > out->max_bytes && out->max_bytes >= SWEEP_MIN_BYTES) {
        dram = round_down_pow2(out->max_bytes);
        out->dram_capped = true;
        add_point(out, ram, dram, "DRAM, capped by the memory budget (the rule: %s, all threads together)", rule_text);
    } else {
        add_point(out, ram, dram, "DRAM: all threads together at least %s", rule_text);
    }
    out->dram_point = dram;
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
        pt->may_fit_cache = pt->dram && dram_may_fit_cache(&b, pt->bytes * (uint64_t)nthreads);
    }
    sort_points(out);
}

size_t sweep_plan_cap(size_plan *plan, uint64_t max_bytes)
{
    size_t kept = 0;
    for (size_t i = 0; i < plan->n; i++)
        if (plan->points[i].bytes <= max_bytes)
            plan->points[kept++] = plan->points[i];
    size_t left_out = plan->n - kept;
    plan->n = kept;
    return left_out;
}
