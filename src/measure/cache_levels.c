/* SPDX-License-Identifier: MIT */
#include "measure/cache_levels.h"

#include <math.h>

static double climb_ratio(const latency_step *s)
{
    return s->latency_after_ns / s->latency_before_ns;
}

/* The step into DRAM costs the most nanoseconds, but a relative yardstick is needed
 * too: a TLB climb after it can add more ns on 4 KiB pages in a guest, and it is a
 * small climb relative to where it starts; an Intel mesh L3 is a larger relative
 * climb over its L2 (x5 on the Xeon guest) than DRAM over the L3 (x3.7), yet
 * 27 ns against 92. So: of the steps that climb at least half as much, relatively,
 * as the largest relative climb, the one that adds the most ns. */
const latency_step *dominant_step(const latency_step *steps, size_t nsteps)
{
    double steepest = 0;
    for (size_t i = 0; i < nsteps; i++)
        if (climb_ratio(&steps[i]) > steepest)
            steepest = climb_ratio(&steps[i]);
    const latency_step *best = NULL;
    for (size_t i = 0; i < nsteps; i++) {
        const latency_step *s = &steps[i];
        if (climb_ratio(s) < steepest / DOMINANT_RELATIVE_SHARE)
            continue;
        if (!best || s->latency_after_ns - s->latency_before_ns > best->latency_after_ns - best->latency_before_ns)
            best = s;
    }
    return best;
}

static double octaves(uint64_t a, uint64_t b)
{
    return fabs(log2((double)a) - log2((double)b));
}

/* The inner level (not the last of levels, size non-zero) nearest to step s in
 * octaves, the innermost of equals; nlevels when there is none. */
static size_t nearest_inner_level(const reported_cache_level *levels, size_t nlevels, const latency_step *s)
{
    size_t best = nlevels;
    for (size_t i = 0; i + 1 < nlevels; i++)
        if (levels[i].size &&
            (best == nlevels || octaves(s->last_size_before, levels[i].size) <
                                    octaves(s->last_size_before, levels[best].size)))
            best = i;
    return best;
}

/* Inner level i's step: of the steps nearer to it than to any other inner level,
 * the nearest; never the step into DRAM (dram; NULL: not known), which is the last
 * level's, nor one after it (a TLB climb past DRAM's on 4 KiB pages; steps are
 * ascending). A step is one level's edge: on the Zen 4 guest, whose chase got
 * 2.4 MiB of a reported 32 MiB L3, the step into DRAM was also the nearest to the
 * reported 1 MiB L2; and with that step set aside, a noisy curve's one step below
 * it, at 16 KiB, was the nearest to both L1 and L2. */
static const latency_step *inner_step(const latency_step *steps, size_t nsteps, const reported_cache_level *levels,
                                      size_t nlevels, size_t i, const latency_step *dram)
{
    const latency_step *best = NULL;
    for (size_t k = 0; k < nsteps; k++) {
        const latency_step *s = &steps[k];
        if ((dram && s >= dram) || nearest_inner_level(levels, nlevels, s) != i)
            continue;
        if (!best || octaves(s->last_size_before, levels[i].size) < octaves(best->last_size_before, levels[i].size))
            best = s;
    }
    return best;
}

bool curve_around(const uint64_t *sizes, size_t nsizes, uint64_t size)
{
    return nsizes > 0 && (double)sizes[nsizes - 1] >= (double)size * CACHE_LEVEL_FACTOR &&
           (double)sizes[0] <= (double)size / CACHE_LEVEL_FACTOR;
}

size_t check_cache_levels(const uint64_t *sizes, size_t nsizes, const latency_step *steps, size_t nsteps,
                          const reported_cache_level *levels, size_t nlevels, level_check *checks)
{
    size_t n = 0;
    /* The dominant step is the step into DRAM only on a curve around the last level
     * (checkable); on a shorter one (4 KiB to 256 KiB) it is an inner level's, and
     * every step is the inner levels' to share out. */
    const latency_step *dominant = dominant_step(steps, nsteps);
    const latency_step *dram =
        nlevels > 0 && levels[nlevels - 1].size && curve_around(sizes, nsizes, levels[nlevels - 1].size) ? dominant
                                                                                                          : NULL;
    for (size_t i = 0; i < nlevels; i++) {
        if (levels[i].size == 0)
            continue;
        double reported = (double)levels[i].size;
        bool top = i + 1 == nlevels;
        level_check *c = &checks[n++];
        c->level = levels[i].level;
        c->reported = levels[i].size;
        c->checkable = curve_around(sizes, nsizes, levels[i].size);
        c->step = top ? dominant : inner_step(steps, nsteps, levels, nlevels, i, dram);
        double ratio = c->step ? (double)c->step->last_size_before / reported : 0;
        c->disagrees = c->checkable && (!c->step || ratio > CACHE_LEVEL_FACTOR || ratio < 1 / CACHE_LEVEL_FACTOR);
    }
    return n;
}
