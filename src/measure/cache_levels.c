#include "measure/cache_levels.h"

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

size_t check_cache_levels(const uint64_t *sizes, size_t nsizes, const latency_step *steps, size_t nsteps,
                          const reported_cache_level *levels, size_t nlevels, level_check *checks)
{
    size_t n = 0;
    double curve_start = nsizes ? (double)sizes[0] : 0;
    double curve_end = nsizes ? (double)sizes[nsizes - 1] : 0;
    for (size_t i = 0; i < nlevels; i++) {
        if (levels[i].size == 0)
            continue;
        double reported = (double)levels[i].size;
        bool top = i + 1 == nlevels;
        level_check *c = &checks[n++];
        c->level = levels[i].level;
        c->reported = levels[i].size;
        c->checkable = nsizes > 0 && curve_end >= reported * CACHE_LEVEL_FACTOR &&
                       curve_start <= reported / CACHE_LEVEL_FACTOR;
        c->step = top ? dominant_step(steps, nsteps) : nearest_step(steps, nsteps, levels[i].size);
        double ratio = c->step ? (double)c->step->last_size_before / reported : 0;
        c->disagrees = c->checkable && (!c->step || ratio > CACHE_LEVEL_FACTOR || ratio < 1 / CACHE_LEVEL_FACTOR);
    }
    return n;
}
