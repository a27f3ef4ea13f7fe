/* SPDX-License-Identifier: MIT */
/* A fast probe of the effective last-level cache: the largest buffer a chasing
 * thread still gets served from a cache, and the size where the DRAM plateau
 * starts. For guests that hide their caches or report a whole package's L3
 * (AMD's legacy CPUID field: 508 MiB on a Zen 5 package whose core sees 32 MiB).
 *
 * Method (why-oriented):
 * - Sizes: a half-octave ladder (2^k and 3*2^(k-1), >= 4 KiB) from min_bytes up
 *   to the largest size whose chains all fit in 2.5 x max_bytes (about 0.7-0.75 x
 *   max_bytes: the top size probed is points[npoints - 1].bytes), at most
 *   LLC_PROBE_MAX_POINTS sizes. Every size gets its own disjoint region of one THP buffer, linked
 *   once: a pass visits the sizes in any order without relinking, and no size's
 *   chain can hit lines another size left in the cache.
 * - Chains: 64-byte nodes (every line used, so a region occupies exactly its size
 *   in the cache), page-local over 2 MiB groups (or the region when smaller):
 *   random enough that adjacent-line prefetches rarely pay off, yet a group's 512
 *   base pages fit the STLB, so TLB misses are amortised with or without THP and
 *   the edge is the cache's. Linked by a shuffle per group, not kernels/chase.h's
 *   builder: its two keyed permutations a node took 16 s for the 4.6 GiB of a
 *   2 GiB probe (this Xeon guest), the shuffle 0.6 s (page faults aside).
 * - Visits: a warm-up then a timed walk of a fixed number of loads. A size that
 *   may fit a cache needs whole cycles of warm-up: one, or its timed loads miss
 *   for want of having been touched; two, because a victim (non-inclusive) L3 is
 *   filled by L2 evictions and may keep only lines it has seen reused (measured:
 *   one cycle put this Xeon guest's 4 MiB point at DRAM latency, two at 40 ns).
 *   A size past the last cache needs no such warm-up. Pass 1
 *   goes up the ladder with whole-cycle warm-ups until two consecutive sizes are
 *   slow (>= 2x the fastest size) and their timed walk is no faster than their
 *   cold warm-up (>= 0.8x): from there on, warm-ups are capped (one 2 MiB group).
 * - Batches: pass 1, then 4 to 6 more passes, each in a freshly shuffled order
 *   (a host's slow phase lands on scattered sizes, not on a run of neighbours that
 *   would look like a step). The count, and a longer timed walk when time allows,
 *   come from pass 1's cost and budget_s; at least 5 batches even past the budget
 *   (none, though, after LLC_PROBE_HARD_LIMIT x budget_s)
 *   (with 3, a 2 GiB probe's top sizes all fell in a host's slow phase and looked
 *   like a plateau above DRAM). Per size: the median over batches and the
 *   batches' min and max.
 *
 * Analysis (llc_probe_analyse). Plateaus are read off each size's fastest batch
 * (low_ns): noise (neighbours evicting, host contention) only adds latency, so
 * the fastest batch shows what the cache can serve, and a DRAM buffer must be
 * larger than any size a batch saw served from a cache.
 * - DRAM plateau. Its level: among the sizes no cache could have served (fastest
 *   batch >= LLC_PROBE_DRAM_MIN_NS), the most populous band of width
 *   LLC_PROBE_DRAM_BAND (the faster on a tie), its median: neither climb points
 *   nor a few slow sizes set it. The plateau: the run down from the largest size
 *   while no size is more than the band faster than that level, >= 2 sizes;
 *   slower sizes do not end it (this Xeon guest's largest regions were 40%
 *   slower in every batch: far memory). dram_from_bytes is its first size. No
 *   size over the floor: the whole range fits a cache, no plateau is claimed.
 * - LLC plateau: below it, the highest run of >= 2 points no more than
 *   1/LLC_PROBE_STEP of the DRAM level and under LLC_PROBE_DRAM_MIN_NS, neighbours within LLC_PROBE_PLATEAU_STEP
 *   of each other (a climb rises faster) and all within LLC_PROBE_PLATEAU_BAND;
 *   then widened upward by points still within the band. llc_bytes is its last
 *   size. Points between it and the DRAM plateau are the climb (an adaptive
 *   replacement policy climbs over several sizes).
 * - llc_ns, dram_ns: the median of the plateau points' medians (typical latency).
 * - Bracket: llc_high_bytes is the smallest size above the edge whose batch range
 *   lies wholly above the edge point's (low > edge's high; the largest size when
 *   none does); llc_low_bytes the largest size at or below the edge whose range
 *   lies wholly below that one's (0 when none). The first size the cache no
 *   longer serves lies in (llc_low, llc_high]. Clean curve: llc_low = llc_bytes
 *   and llc_high the next size.
 * - sure: batches >= 3; the bracket is clean (the edge point's and its upper
 *   neighbour's batch ranges do not overlap); at most LLC_PROBE_SURE_CLIMB sizes
 *   lie between the LLC and DRAM plateaus (a longer climb may hide a level too
 *   short for the ladder to show as a plateau, as this Xeon guest's L3 at 3 MiB
 *   between its L2 and DRAM, or is an adaptive policy's gradual climb, where the
 *   edge is a matter of definition); the DRAM plateau's medians agree
 *   within LLC_PROBE_SURE_DRAM (10%); and every LLC plateau point's slowest batch
 *   is faster than every DRAM plateau point's fastest. why names the first
 *   condition that failed.
 * Never timing-asserted; tests/unit/test_llc_probe.c plants synthetic curves. */
#ifndef MEMBENCH_LLC_PROBE_H
#define MEMBENCH_LLC_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLC_PROBE_MAX_POINTS 48
/* No batch starts after this many times budget_s: the minimum of batches gives way
 * on a machine far slower than planned (qemu's TCG), which then reads "unsure". */
#define LLC_PROBE_HARD_LIMIT 2.0
/* Ratios and floors of the analysis, on the fastest-batch curve unless named. */
#define LLC_PROBE_DRAM_BAND 1.20    /* DRAM plateau: the level's band, and how much faster ends it */
#define LLC_PROBE_PLATEAU_BAND 1.25 /* LLC plateau: max/min */
#define LLC_PROBE_PLATEAU_STEP 1.15 /* LLC plateau core: neighbours within this of each other */
#define LLC_PROBE_STEP 1.25         /* LLC plateau points: at least this much below DRAM */
#define LLC_PROBE_SURE_CLIMB 1       /* sure: sizes between the plateaus at most */
#define LLC_PROBE_SURE_DRAM 1.10    /* sure: DRAM plateau medians (not fastest) within this */
/* DRAM is slower than this and last-level caches faster (DRAM 60-150 ns on
 * current servers and desktops; L3 10-50 ns, this Sapphire/Emerald Rapids guest's
 * 40 ns included). Without a floor a range that fits the L3 reads as L2 + DRAM. */
#define LLC_PROBE_DRAM_MIN_NS 50.0

typedef struct {
    uint64_t bytes;
    double median_ns, low_ns, high_ns; /* per size: median over batches, and the batches' min and max */
} llc_probe_point;

typedef struct {
    uint64_t min_bytes, max_bytes; /* range probed; the caller sets max from its memory budget */
    double budget_s;               /* time to aim for (e.g. 3) */
    uint64_t seed;
} llc_probe_config;

typedef struct {
    llc_probe_point points[LLC_PROBE_MAX_POINTS];
    size_t npoints;
    int batches;
    bool edge_found;
    uint64_t llc_bytes;                 /* effective LLC: last size on the plateau below the DRAM plateau */
    uint64_t llc_low_bytes, llc_high_bytes; /* the first uncached size lies in (low, high] (see above) */
    bool dram_found;
    uint64_t dram_from_bytes; /* first size on the DRAM plateau */
    uint64_t served_bytes;    /* the largest size below the DRAM plateau whose fastest batch a cache
                                 served (under the LLC ceiling): where the plateau rule names an inner
                                 level (a last level too short on the ladder for a plateau, as this
                                 Xeon guest's 4 MiB of L3), DRAM buffers still pass this; 0 none */
    double llc_ns, dram_ns;   /* the two plateaus' latencies */
    bool sure;                /* see "sure" above */
    char why[160];            /* one line: what was found or why not */
    double wall_s;
} llc_probe_result;

/* Measures (allocates at most 2.5 x max_bytes in all, in THP where the kernel
 * allows; links it on the calling thread, so pages land on its node), then
 * analyses. Returns false with err set on a range holding fewer than 3 sizes,
 * allocation failure or a stop (util/stop_flag.h); r is then not meaningful. */
bool llc_probe_run(const llc_probe_config *cfg, llc_probe_result *r, char *err, size_t errlen);

/* Pure: fills the edge, DRAM, sure and why fields of r from r->points[0..npoints)
 * (ascending bytes) and r->batches. */
void llc_probe_analyse(llc_probe_result *r);

#endif
