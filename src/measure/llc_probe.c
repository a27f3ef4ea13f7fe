/* SPDX-License-Identifier: MIT */
#include "measure/llc_probe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/chase.h"
#include "measure/clock.h"
#include "memory/buffer.h"
#include "util/splitmix64.h"
#include "util/stop_flag.h"

#define LINE_BYTES 64
#define GROUP_BYTES ((uint64_t)2 << 20) /* page-local group, and the THP size asked for */
#define SMALLEST_SIZE ((uint64_t)4096)
#define ALLOC_FACTOR 2.5               /* all regions together, in max_bytes */
#define WARM_CAP_LOADS ((uint64_t)GROUP_BYTES / LINE_BYTES)
/* Whole cycles of warm-up for a size that may fit: a victim (non-inclusive) L3
 * is filled by L2 evictions and may keep only lines it has seen reused. */
#define WARM_CYCLES 2
#define BASE_TIMED_LOADS ((uint64_t)1 << 16)
#define WALK_CHUNK_LOADS ((uint64_t)1 << 20) /* between two tests of the stop flag */
#define MIN_BATCHES 5 /* even past the budget: 3 left the top sizes all in a host's slow phase */
#define SURE_BATCHES 3
#define MAX_BATCHES 7
#define MAX_TIMED_SCALE 8.0
#define PLAN_MARGIN 1.25
/* Pass 1's test that a size is past every cache: slow, and a timed walk over lines
 * it has just touched no faster than the cold warm-up that touched them. */
#define PAST_SLOW 2.0
#define PAST_NO_GAIN 0.8
#define PAST_CONSECUTIVE 2

typedef struct {
    uint64_t bytes;
    char *region;
    void *pos;
    bool full_warm;
    double visit_s, timed_s; /* pass 1's cost of one visit, and of its timed walk */
    double ns[MAX_BATCHES];
} probe_size;

static volatile uintptr_t probe_sink;

/* Follows `loads` links in chunks, testing the stop flag between them. */
static bool walk(void **pos, uint64_t loads)
{
    void *p = *pos;
    while (loads > 0) {
        if (stop_flagged())
            return false;
        uint64_t n = loads < WALK_CHUNK_LOADS ? loads : WALK_CHUNK_LOADS;
        p = chase_run(p, n);
        loads -= n;
    }
    *pos = p;
    probe_sink = (uintptr_t)p;
    return true;
}

/* The ladder: 2^k and 3*2^(k-1) from min_bytes up, as long as every size so far
 * (each its own region) fits in ALLOC_FACTOR x max_bytes. Returns the count. */
static size_t ladder(uint64_t min_bytes, uint64_t max_bytes, probe_size *s, uint64_t *total)
{
    size_t n = 0;
    uint64_t sum = 0;
    double room = ALLOC_FACTOR * (double)max_bytes;
    for (uint64_t p = SMALLEST_SIZE; p <= max_bytes && n < LLC_PROBE_MAX_POINTS; p *= 2) {
        uint64_t v[2] = {p, p + p / 2};
        for (int i = 0; i < 2 && n < LLC_PROBE_MAX_POINTS; i++) {
            if (v[i] < min_bytes || v[i] > max_bytes)
                continue;
            if ((double)(sum + v[i]) > room)
                goto done;
            s[n++].bytes = v[i];
            sum += v[i];
        }
    }
done:
    *total = sum;
    return n;
}

/* The page-local group of a region: 2 MiB, or its largest power-of-two divisor
 * when that is smaller (the whole region up to 2 MiB, a third of a 3 MiB one). */
static uint64_t group_of(uint64_t bytes)
{
    uint64_t low_bit = bytes & (~bytes + 1);
    return low_bit < GROUP_BYTES ? low_bit : GROUP_BYTES;
}

/* Links a region page-local: its groups in a random order, the lines of each
 * group in a random order (Fisher-Yates over idx, room for group / LINE_BYTES).
 * Returns the start, or NULL on a stop. kernels/chase.h's builder computes two
 * keyed permutations a node (~200 ns: 16 s for this probe's 4.6 GiB at max 2 GiB);
 * a shuffle per group costs a few ns a node. */
static void *link_region(char *base, uint64_t bytes, uint64_t group, uint64_t seed, uint32_t *idx,
                         uint32_t *groups)
{
    uint64_t ngroups = bytes / group, per = group / LINE_BYTES;
    uint64_t rng = seed;
    for (uint64_t k = 0; k < ngroups; k++)
        groups[k] = (uint32_t)k;
    for (uint64_t k = ngroups; k > 1; k--) {
        uint64_t j = ((splitmix64_next(&rng) >> 32) * k) >> 32;
        uint32_t t = groups[k - 1];
        groups[k - 1] = groups[j];
        groups[j] = t;
    }
    char *first = NULL, *prev = NULL;
    for (uint64_t k = 0; k < ngroups; k++) {
        if (stop_flagged())
            return NULL;
        for (uint64_t i = 0; i < per; i++)
            idx[i] = (uint32_t)i;
        for (uint64_t i = per; i > 1; i--) {
            uint64_t j = ((splitmix64_next(&rng) >> 32) * i) >> 32;
            uint32_t t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
        char *g = base + groups[k] * group;
        for (uint64_t i = 0; i < per; i++) {
            char *node = g + (uint64_t)idx[i] * LINE_BYTES;
            if (prev)
                *(void **)(void *)prev = node;
            else
                first = node;
            prev = node;
        }
    }
    *(void **)(void *)prev = first;
    return first;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
    double s[LLC_PROBE_MAX_POINTS > MAX_BATCHES ? LLC_PROBE_MAX_POINTS : MAX_BATCHES];
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* One visit: warm-up (WARM_CYCLES whole cycles, or WARM_CAP_LOADS past the
 * caches), then `timed` loads; ns per timed load, or < 0 on a stop. *cold_ns
 * gets the warm-up's first cycle's (or capped walk's) ns per load. */
static double visit(probe_size *s, uint64_t timed, double *cold_ns)
{
    uint64_t cycle = s->bytes / LINE_BYTES;
    bool whole = s->full_warm || cycle <= WARM_CAP_LOADS;
    uint64_t first = whole ? cycle : WARM_CAP_LOADS;
    double t0 = clock_now();
    if (!walk(&s->pos, first))
        return -1;
    double t1 = clock_now();
    if (whole && !walk(&s->pos, (WARM_CYCLES - 1) * cycle))
        return -1;
    double t2 = clock_now();
    if (!walk(&s->pos, timed))
        return -1;
    double t3 = clock_now();
    if (cold_ns)
        *cold_ns = (t1 - t0) * 1e9 / (double)first;
    return (t3 - t2) * 1e9 / (double)timed;
}

static bool fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return false;
}

bool llc_probe_run(const llc_probe_config *cfg, llc_probe_result *r, char *err, size_t errlen)
{
    double start = clock_now();
    memset(r, 0, sizeof *r);
    static probe_size sz[LLC_PROBE_MAX_POINTS];
    memset(sz, 0, sizeof sz);
    uint64_t total;
    size_t n = ladder(cfg->min_bytes, cfg->max_bytes, sz, &total);
    if (n < 3)
        return fail(err, errlen, "llc probe: fewer than 3 sizes between min and max");

    buffer b;
    if (!buffer_alloc(&b, (size_t)total, PAGES_THP, GROUP_BYTES, -1))
        return fail(err, errlen, "llc probe: cannot allocate its buffers");
    /* Largest first from the start of the buffer: the regions built last, and so
     * still cached when pass 1 starts, are the small ones pass 1 visits first. */
    uint64_t most_groups = 0;
    for (size_t i = 0; i < n; i++)
        if (sz[i].bytes / group_of(sz[i].bytes) > most_groups)
            most_groups = sz[i].bytes / group_of(sz[i].bytes);
    uint32_t *idx = malloc(sizeof *idx * (GROUP_BYTES / LINE_BYTES + most_groups + 3));
    if (!idx) {
        buffer_free(&b);
        return fail(err, errlen, "llc probe: cannot allocate its buffers");
    }
    uint64_t off = 0;
    for (size_t i = n; i-- > 0;) {
        probe_size *s = &sz[i];
        s->region = (char *)b.ptr + off;
        off += s->bytes;
        s->pos = link_region(s->region, s->bytes, group_of(s->bytes),
                             cfg->seed ^ (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL, idx, idx + GROUP_BYTES / LINE_BYTES);
        s->full_warm = true;
        if (!s->pos) {
            free(idx);
            buffer_free(&b);
            return fail(err, errlen, "llc probe: stopped");
        }
    }
    free(idx);

    /* Pass 1: up the ladder; whole-cycle warm-ups until past every cache. */
    double fastest = 0;
    int past = 0;
    for (size_t i = 0; i < n; i++) {
        double cold_ns, t0 = clock_now();
        double ns = visit(&sz[i], BASE_TIMED_LOADS, &cold_ns);
        if (ns < 0)
            goto stopped;
        sz[i].visit_s = clock_now() - t0;
        sz[i].timed_s = ns * 1e-9 * (double)BASE_TIMED_LOADS;
        sz[i].ns[0] = ns;
        if (fastest == 0 || ns < fastest)
            fastest = ns;
        if (sz[i].full_warm) {
            bool no_gain = ns >= PAST_SLOW * fastest && ns >= PAST_NO_GAIN * cold_ns;
            past = no_gain ? past + 1 : 0;
            if (past >= PAST_CONSECUTIVE)
                for (size_t j = i + 1; j < n; j++)
                    sz[j].full_warm = false;
        }
    }

    /* The other passes: their count (and the timed walks' length) from pass 1's cost. */
    double pass_s = 0, timed_s = 0;
    for (size_t i = 0; i < n; i++) {
        pass_s += sz[i].visit_s;
        timed_s += sz[i].timed_s;
    }
    double left = cfg->budget_s - (clock_now() - start);
    /* Later passes cost more than pass 1 when the host turns noisy: plan with a margin. */
    pass_s *= PLAN_MARGIN;
    timed_s *= PLAN_MARGIN;
    int more = pass_s > 0 ? (int)(left / pass_s) : MAX_BATCHES - 1;
    if (more < MIN_BATCHES - 1)
        more = MIN_BATCHES - 1;
    if (more > MAX_BATCHES - 1)
        more = MAX_BATCHES - 1;
    double scale = 1;
    if (timed_s > 0 && left > more * pass_s)
        scale = (left / more - (pass_s - timed_s)) / timed_s;
    if (scale < 1)
        scale = 1;
    if (scale > MAX_TIMED_SCALE)
        scale = MAX_TIMED_SCALE;
    uint64_t timed = (uint64_t)(scale * (double)BASE_TIMED_LOADS);

    int done = 0; /* passes after pass 1 completed */
    uint64_t rng = cfg->seed ^ 0xC2B2AE3D27D4EB4FULL;
    size_t order[LLC_PROBE_MAX_POINTS];
    for (int pass = 1; pass <= more; pass++) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(splitmix64_next(&rng) % (i + 1));
            size_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (size_t k = 0; k < n; k++) {
            double ns = visit(&sz[order[k]], timed, NULL);
            if (ns < 0)
                goto stopped;
            sz[order[k]].ns[pass] = ns;
        }
        done = pass;
        /* A machine far slower than planned (an emulator, a host under siege) gets
         * the batches that fit LLC_PROBE_HARD_LIMIT x the budget, and "unsure". */
        if (clock_now() - start > LLC_PROBE_HARD_LIMIT * cfg->budget_s)
            break;
    }
    buffer_free(&b);

    r->batches = 1 + done;
    r->npoints = n;
    for (size_t i = 0; i < n; i++) {
        llc_probe_point *p = &r->points[i];
        p->bytes = sz[i].bytes;
        p->median_ns = median_of(sz[i].ns, (size_t)r->batches);
        p->low_ns = p->high_ns = sz[i].ns[0];
        for (int k = 1; k < r->batches; k++) {
            if (sz[i].ns[k] < p->low_ns)
                p->low_ns = sz[i].ns[k];
            if (sz[i].ns[k] > p->high_ns)
                p->high_ns = sz[i].ns[k];
        }
    }
    llc_probe_analyse(r);
    r->wall_s = clock_now() - start;
    return true;

stopped:
    buffer_free(&b);
    return fail(err, errlen, "llc probe: stopped");
}

/* "32 MiB", "1.5 GiB", "384 KiB". */
static const char *size_text(uint64_t bytes, char *buf, size_t len)
{
    const char *unit = "KiB";
    double v = (double)bytes / 1024;
    if (bytes >= (uint64_t)1 << 30) {
        unit = "GiB";
        v = (double)bytes / (double)((uint64_t)1 << 30);
    } else if (bytes >= (uint64_t)1 << 20) {
        unit = "MiB";
        v = (double)bytes / (double)((uint64_t)1 << 20);
    }
    snprintf(buf, len, "%.4g %s", v, unit);
    return buf;
}

/* The one-line verdict; a long one is cut at the field's size. */
__attribute__((format(printf, 2, 3))) static void set_why(llc_probe_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

static double lower(double a, double b) { return a < b ? a : b; }
static double higher(double a, double b) { return a > b ? a : b; }

/* Median of the medians of points [from, to]. */
static double level_of(const llc_probe_point *p, size_t from, size_t to)
{
    double v[LLC_PROBE_MAX_POINTS];
    for (size_t i = from; i <= to; i++)
        v[i - from] = p[i].median_ns;
    return median_of(v, to - from + 1);
}

void llc_probe_analyse(llc_probe_result *r)
{
    r->edge_found = r->dram_found = r->sure = false;
    r->llc_bytes = r->llc_low_bytes = r->llc_high_bytes = r->dram_from_bytes = r->served_bytes = 0;
    r->llc_ns = r->dram_ns = 0;
    const llc_probe_point *p = r->points;
    size_t n = r->npoints;
    char a[32], b[32], c[32], e4[32];
    if (n < 3) {
        set_why(r, "too few sizes (%zu) to find a plateau", n);
        return;
    }
    /* The curve the plateaus are read from: each size's fastest batch. */
    double f[LLC_PROBE_MAX_POINTS];
    for (size_t i = 0; i < n; i++)
        f[i] = p[i].low_ns;

    /* DRAM plateau. Its level: among the points no cache could have served
     * (fastest batch >= LLC_PROBE_DRAM_MIN_NS), the most populous band (the
     * lowest on a tie), so that neither climb points nor a few slow sizes set it;
     * the median of that band. Then the run down from the largest size while no
     * point is clearly faster than that level; slower points (a host's slow
     * phase, far memory) do not end it. */
    const char *top = size_text(p[n - 1].bytes, a, sizeof a);
    double slow[LLC_PROBE_MAX_POINTS];
    size_t nslow = 0;
    for (size_t i = 0; i < n; i++)
        if (f[i] >= LLC_PROBE_DRAM_MIN_NS)
            slow[nslow++] = f[i];
    if (nslow == 0) {
        set_why(r, "no DRAM plateau up to %s: the largest sizes (%.1f ns) are a cache's", top, f[n - 1]);
        return;
    }
    qsort(slow, nslow, sizeof *slow, cmp_double);
    size_t band_from = 0, band_n = 0;
    for (size_t i = 0; i < nslow; i++) {
        size_t k = i;
        while (k < nslow && slow[k] <= slow[i] * LLC_PROBE_DRAM_BAND)
            k++;
        if (k - i > band_n) {
            band_from = i;
            band_n = k - i;
        }
    }
    double dram_fast = median_of(slow + band_from, band_n);
    size_t d = n;
    while (d > 0 && f[d - 1] * LLC_PROBE_DRAM_BAND >= dram_fast)
        d--;
    if (n - d < 2) {
        set_why(r, "no DRAM plateau up to %s: latency still climbing (%.1f to %.1f ns)", top, f[n - 2], f[n - 1]);
        return;
    }
    r->dram_found = true;
    r->dram_from_bytes = p[d].bytes;
    r->dram_ns = level_of(p, d, n - 1);

    /* LLC plateau: the highest run of >= 2 points, neighbours within PLATEAU_STEP
     * of each other and all within the band, clearly below DRAM and below the
     * floor no cache reaches; then widened
     * upward by the points still within the band. */
    double ceiling = lower(dram_fast / LLC_PROBE_STEP, LLC_PROBE_DRAM_MIN_NS);
    for (size_t e = d; e-- > 0 && !r->served_bytes;)
        if (f[e] <= ceiling)
            r->served_bytes = p[e].bytes;
    size_t first = 0, last = 0;
    bool found = false;
    double lo = 0, hi = 0;
    for (size_t e = d; e-- > 1 && !found;) {
        if (f[e] > ceiling)
            continue;
        size_t s = e;
        lo = hi = f[e];
        while (s > 0 && f[s] <= LLC_PROBE_PLATEAU_STEP * f[s - 1] && f[s - 1] <= LLC_PROBE_PLATEAU_STEP * f[s] &&
               higher(hi, f[s - 1]) <= LLC_PROBE_PLATEAU_BAND * lower(lo, f[s - 1])) {
            s--;
            lo = lower(lo, f[s]);
            hi = higher(hi, f[s]);
        }
        if (e > s) {
            found = true;
            first = s;
            last = e;
        }
    }
    if (!found) {
        set_why(r, "one level: DRAM from %s (%.1f ns), no cache plateau below it in range",
                size_text(p[d].bytes, a, sizeof a), r->dram_ns);
        return;
    }
    while (last + 1 < d && f[last + 1] <= ceiling && f[last + 1] <= LLC_PROBE_PLATEAU_BAND * lo) {
        last++;
        hi = higher(hi, f[last]);
    }
    r->edge_found = true;
    r->llc_bytes = p[last].bytes;
    r->llc_ns = level_of(p, first, last);

    /* Where the batches tell the step apart. */
    size_t up = last + 1;
    while (up < n && !(p[up].low_ns > p[last].high_ns))
        up++;
    bool apart = up < n;
    if (!apart)
        up = n - 1;
    r->llc_high_bytes = p[up].bytes;
    for (size_t i = last + 1; i-- > 0;)
        if (p[i].high_ns < p[up].low_ns) {
            r->llc_low_bytes = p[i].bytes;
            break;
        }

    /* sure: see the header. */
    double dram_lo = p[d].median_ns, dram_hi = dram_lo, dram_floor = p[d].low_ns, llc_top = 0;
    for (size_t i = d; i < n; i++) {
        dram_lo = lower(dram_lo, p[i].median_ns);
        dram_hi = higher(dram_hi, p[i].median_ns);
        dram_floor = lower(dram_floor, p[i].low_ns);
    }
    for (size_t i = first; i <= last; i++)
        llc_top = higher(llc_top, p[i].high_ns);
    const char *doubt = NULL;
    if (r->batches < SURE_BATCHES)
        doubt = "fewer than 3 batches";
    else if (!apart || r->llc_low_bytes != p[last].bytes || r->llc_high_bytes != p[last + 1].bytes)
        doubt = "batches overlap at the edge";
    else if (d - last - 1 > LLC_PROBE_SURE_CLIMB)
        doubt = "long climb to DRAM";
    else if (dram_hi > LLC_PROBE_SURE_DRAM * dram_lo)
        doubt = "DRAM plateau spread over 10%";
    else if (!(llc_top < dram_floor))
        doubt = "cache and DRAM batches overlap";
    r->sure = doubt == NULL;
    set_why(r, "LLC %s (%.1f ns), step in (%s, %s], DRAM from %s (%.1f ns); %s%s", size_text(r->llc_bytes, a, sizeof a),
            r->llc_ns, r->llc_low_bytes ? size_text(r->llc_low_bytes, b, sizeof b) : "0",
            size_text(r->llc_high_bytes, c, sizeof c), size_text(r->dram_from_bytes, e4, sizeof e4), r->dram_ns,
            doubt ? "unsure: " : "sure", doubt ? doubt : "");
}
