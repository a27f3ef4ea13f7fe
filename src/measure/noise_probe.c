/* SPDX-License-Identifier: MIT */
#include "measure/noise_probe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "util/stats.h"

/* 2^20 dependent 64-bit multiply-adds: about 1 ms on a 3-4 GHz core, long
 * enough for the clock's resolution, short enough to take often. */
#define PROBE_STEPS (1u << 20)

double noise_probe_run(void)
{
    volatile uint64_t seed = 1; /* the compiler cannot fold the chain */
    uint64_t x = seed;
    double t0 = clock_now();
    for (uint32_t i = 0; i < PROBE_STEPS; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    double t1 = clock_now();
    seed = x;
    return t1 - t0;
}

size_t noise_mem_probe_bytes(uint64_t llc_bytes, uint64_t budget)
{
    uint64_t b = 2 * llc_bytes;
    if (b < NOISE_MEM_MIN_BYTES)
        b = NOISE_MEM_MIN_BYTES;
    if (b > NOISE_MEM_MAX_BYTES)
        b = NOISE_MEM_MAX_BYTES;
    return b <= budget / NOISE_MEM_BUDGET_SHARE ? (size_t)b : 0;
}

bool noise_mem_probe_counts(size_t bytes, uint64_t llc_bytes)
{
    return llc_bytes > 0 && bytes >= 2 * llc_bytes;
}

bool noise_mem_probe_open(noise_mem_probe *p, size_t bytes, int node)
{
    memset(p, 0, sizeof *p);
    size_t words = bytes / sizeof(uint64_t) / NOISE_MEM_PARTS * NOISE_MEM_PARTS;
    if (!words || !buffer_alloc(&p->mem, words * sizeof *p->buf, PAGES_NORMAL, 0, node)) {
        memset(p, 0, sizeof *p);
        return false;
    }
    p->buf = p->mem.ptr;
    for (size_t i = 0; i < words; i++) /* touched now: no page fault in a probe */
        p->buf[i] = i;
    p->words = words;
    return true;
}

double noise_mem_probe_run(noise_mem_probe *p)
{
    size_t part = p->words / NOISE_MEM_PARTS;
    const uint64_t *w = p->buf + p->next * part;
    p->next = (p->next + 1) % NOISE_MEM_PARTS;
    /* four sums: the loads, not one add chain, set the pace */
    uint64_t a = 0, b = 0, c = 0, d = 0;
    double t0 = clock_now();
    for (size_t i = 0; i + 4 <= part; i += 4) {
        a += w[i];
        b += w[i + 1];
        c += w[i + 2];
        d += w[i + 3];
    }
    double t1 = clock_now();
    volatile uint64_t sink = a + b + c + d; /* the compiler cannot drop the reads */
    (void)sink;
    return t1 - t0;
}

void noise_mem_probe_close(noise_mem_probe *p)
{
    if (p->buf)
        buffer_free(&p->mem);
    memset(p, 0, sizeof *p);
}

/* Linear interpolation between order statistics (the usual "type 7" quantile). */
static double quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double f = pos - (double)i;
    return i + 1 < n ? sorted[i] + f * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
}

noise_verdict noise_judge(const double *times_s, size_t n)
{
    noise_verdict v;
    memset(&v, 0, sizeof v);
    v.probes = n;
    if (n < NOISE_PROBE_MIN)
        return v;
    double *s = stats_sorted_copy(times_s, n);
    if (!s)
        return v;
    v.median_s = quantile(s, n, 0.5);
    if (v.median_s > 0) {
        v.known = true;
        v.varied_pct = 100 * (quantile(s, n, 0.9) - quantile(s, n, 0.1)) / (2 * v.median_s);
        v.meaningful_pct = 2 * v.varied_pct;
        v.flagged = v.varied_pct > NOISE_FLAG_PCT;
    }
    free(s);
    return v;
}

noise_verdict noise_combine(noise_verdict cpu, noise_verdict memory)
{
    noise_verdict v = cpu;
    if (!memory.known || (cpu.known && cpu.varied_pct >= memory.varied_pct))
        return v;
    v.known = true;
    v.varied_pct = memory.varied_pct;
    v.meaningful_pct = 2 * v.varied_pct;
    v.flagged = v.varied_pct > NOISE_FLAG_PCT;
    return v;
}
