/* SPDX-License-Identifier: MIT */
#include "memory/buffer.h"
#include "memory/beside.h"
#include "memory/memory_budget.h"
#include "memory/smaps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "platform/platform.h"
#include "util/stop_flag.h"

#define SMALL_PAGE 4096
#define KERNEL_ALIGN_BYTES 64

static uintptr_t align_up(uintptr_t v, uintptr_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/* extra_flags may hold MAP_SHARED, which then replaces MAP_PRIVATE. */
static bool map_anonymous(buffer *b, size_t len, size_t align, int extra_flags)
{
    size_t map_len = len + (align > SMALL_PAGE ? align : 0);
    int sharing = extra_flags & MAP_SHARED ? 0 : MAP_PRIVATE;
    void *m = mmap(NULL, map_len, PROT_READ | PROT_WRITE, sharing | MAP_ANONYMOUS | extra_flags, -1, 0);
    if (m == MAP_FAILED)
        return false;
    b->map = m;
    b->map_len = map_len;
    b->ptr = (void *)align_up((uintptr_t)m, align);
    b->len = len;
    return true;
}

static bool map_hugetlb(buffer *b, size_t len, uint64_t huge_size)
{
#ifdef MAP_HUGETLB
    /* Only when the pool has room: a MAP_HUGETLB mapping that cannot be backed
     * fails with SIGBUS at first touch, not at mmap. */
    size_t hlen = (size_t)align_up(len, huge_size);
    if (platform_hugetlb_free_pages(huge_size) < hlen / huge_size)
        return false;
    int flags = MAP_HUGETLB;
#ifdef MAP_HUGE_SHIFT
    flags |= __builtin_ctzll(huge_size) << MAP_HUGE_SHIFT;
#endif
    void *m = mmap(NULL, hlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
    if (m == MAP_FAILED)
        return false;
    b->map = b->ptr = m;
    b->map_len = hlen;
    b->len = len;
    b->method = "hugetlb";
    return true;
#else
    (void)b;
    (void)len;
    (void)huge_size;
    return false;
#endif
}

/* offset: where the buffer starts in its first page (a multiple of 64, under 4096);
 * the mapping, the huge-page advice and the node policy start at the page. */
static bool alloc_on(buffer *b, size_t len, page_request req, uint64_t huge_size, int node, bool strict,
                     int share, size_t offset)
{
    memset(b, 0, sizeof *b);
    b->huge_coverage = -1;
    b->node = -1;
    if (len == 0)
        return false;
    bool huge_ok = huge_size >= SMALL_PAGE;
    bool try_hugetlb = huge_ok && ((req == PAGES_HUGE_AUTO && len >= 2 * huge_size) || req == PAGES_HUGE ||
                                   req == PAGES_HUGETLB);
    bool try_thp = huge_ok && ((req == PAGES_HUGE_AUTO && len >= 2 * huge_size) || req == PAGES_HUGE ||
                               req == PAGES_THP);
    size_t span = len; /* what the node binding covers: whole huge pages when asked */
    if (try_hugetlb && !share && map_hugetlb(b, len + offset, huge_size)) {
        span = b->map_len;
    } else if (req == PAGES_HUGETLB) {
        return false;
    } else {
        /* For THP, align to the huge page size and cover whole huge pages, so even
         * a buffer smaller than one huge page can sit in one. */
        size_t align = try_thp ? huge_size : KERNEL_ALIGN_BYTES;
        span = try_thp ? (size_t)align_up(len + offset, huge_size) : len + offset;
        if (!map_anonymous(b, span, align < SMALL_PAGE ? SMALL_PAGE : align, share))
            return false;
        b->method = "normal";
#ifdef MADV_HUGEPAGE
        if (try_thp && madvise(b->ptr, span, MADV_HUGEPAGE) == 0)
            b->method = "thp";
#endif
#ifdef MADV_NOHUGEPAGE
        if (req == PAGES_SMALL && madvise(b->ptr, len + offset, MADV_NOHUGEPAGE) == 0)
            b->method = "small";
#endif
    }
    /* Best effort; inspect says what happened. The policy must cover whole huge
     * pages: binding part of one splits the mapping and THP cannot back it. */
    if (node >= 0 && !platform_bind_to_node(b->ptr, span, node, strict) && strict) {
        buffer_free(b);
        return false;
    }
    b->ptr = (char *)b->ptr + offset;
    b->len = len;
    return true;
}

bool buffer_alloc(buffer *b, size_t len, page_request req, uint64_t huge_size, int node)
{
    return alloc_on(b, len, req, huge_size, node, false, 0, 0);
}

bool buffer_alloc_offset(buffer *b, size_t len, page_request req, uint64_t huge_size, int node, size_t offset)
{
    return offset < SMALL_PAGE && offset % KERNEL_ALIGN_BYTES == 0 &&
           alloc_on(b, len, req, huge_size, node, false, 0, offset);
}

bool buffer_alloc_shared(buffer *b, size_t len, page_request req, uint64_t huge_size)
{
    return alloc_on(b, len, req == PAGES_HUGETLB ? PAGES_THP : req, huge_size, -1, false, MAP_SHARED, 0);
}

bool buffer_alloc_bound(buffer *b, size_t len, page_request req, uint64_t huge_size, int node)
{
    /* Without NUMA in the kernel (or under an emulator) there is one node and nothing
     * to bind: node 0's memory is all there is; any other node cannot be given. */
    if (!platform_numa_supported()) {
        if (node != 0) {
            memset(b, 0, sizeof *b);
            return false;
        }
        return alloc_on(b, len, req, huge_size, -1, false, 0, 0);
    }
    /* A bound allocation the node cannot hold ends in the OOM killer, not in an error. */
    uint64_t free_bytes = platform_node_free_bytes(node);
    if (node < 0 || free_bytes < (uint64_t)len + node_margin_bytes_of(node)) {
        memset(b, 0, sizeof *b);
        return false;
    }
    return alloc_on(b, len, req, huge_size, node, true, 0, 0);
}

uint64_t pattern_word(uint64_t seed, size_t index)
{
    /* splitmix64 step: distinct, non-zero-heavy words so copies and reads are checkable */
    uint64_t z = seed + (uint64_t)(index + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

bool buffer_populate(buffer *b, size_t off, size_t len)
{
    for (size_t done = 0; off < b->len && done < len; done += STOP_CHECK_BYTES) {
        if (stop_poll())
            return false;
        size_t at = off + done;
        if (at >= b->len)
            break;
        size_t n = len - done < STOP_CHECK_BYTES ? len - done : STOP_CHECK_BYTES;
        platform_populate((char *)b->ptr + at, n < b->len - at ? n : b->len - at);
    }
    return true;
}

typedef struct {
    buffer *b;
    size_t off, len, share;
} populate_job;

static bool populate_part(void *arg, size_t part, size_t parts)
{
    (void)parts;
    const populate_job *j = arg;
    size_t at = part * j->share;
    return at >= j->len || buffer_populate(j->b, j->off + at, j->len - at < j->share ? j->len - at : j->share);
}

bool buffer_populate_beside(buffer *b, size_t off, size_t len, const int *helpers, size_t nhelpers)
{
    const size_t align = (size_t)2 << 20;
    size_t threads = 1 + (nhelpers < POPULATE_MAX_HELPERS ? nhelpers : POPULATE_MAX_HELPERS);
    if (threads > len / POPULATE_MIN_SLICE)
        threads = len / POPULATE_MIN_SLICE ? len / POPULATE_MIN_SLICE : 1;
    size_t share = (len / threads + align - 1) / align * align;
    if (threads == 1 || share >= len)
        return buffer_populate(b, off, len);
    populate_job j = {b, off, len, share};
    return beside_run((len + share - 1) / share, helpers, nhelpers, populate_part, &j);
}

bool buffer_fill(buffer *b, uint64_t seed)
{
    uint64_t *w = b->ptr;
    size_t n = b->len / 8, step = STOP_CHECK_BYTES / 8;
    for (size_t lo = 0; lo < n; lo += step) {
        if (stop_poll())
            return false;
        size_t hi = n - lo < step ? n : lo + step;
        platform_populate(&w[lo], (hi - lo) * 8); /* the chunk's pages in one call, not a fault each */
        for (size_t i = lo; i < hi; i++)
            w[i] = pattern_word(seed, i);
    }
    return true;
}

size_t buffer_range_pages(const buffer *b, size_t off, size_t len, const void **addrs, size_t max)
{
    if (!b->ptr || len == 0 || off >= b->len || max == 0)
        return 0;
    if (len > b->len - off)
        len = b->len - off;
    uintptr_t base = (uintptr_t)b->ptr + off;
    uintptr_t first = align_up(base, SMALL_PAGE), end = (base + len) & ~(uintptr_t)(SMALL_PAGE - 1);
    if (end <= first) { /* no whole (4 KiB) page inside: the one holding the start */
        addrs[0] = (const void *)(base & ~(uintptr_t)(SMALL_PAGE - 1));
        return 1;
    }
    size_t pages = (end - first) / SMALL_PAGE;
    size_t n = pages < max ? pages : max;
    for (size_t i = 0; i < n; i++)
        addrs[i] = (const void *)(first + (pages * i / n) * SMALL_PAGE);
    return n;
}

void page_nodes_query(const void *const *addrs, int *nodes, size_t n)
{
    if (n > 0 && !platform_page_nodes(0, addrs, nodes, n))
        for (size_t i = 0; i < n; i++)
            nodes[i] = -1;
}

int buffer_range_node(const buffer *b, size_t off, size_t len, double *share)
{
    const void *addrs[BUFFER_RANGE_SAMPLES];
    int nodes[BUFFER_RANGE_SAMPLES] = {0};
    size_t n = buffer_range_pages(b, off, len, addrs, BUFFER_RANGE_SAMPLES);
    page_nodes_query(addrs, nodes, n);
    return page_nodes_verdict(nodes, n, share);
}

int page_nodes_verdict(const int *nodes, size_t n, double *share)
{
    size_t count, known;
    int best = page_nodes_majority(nodes, n, &count, &known);
    *share = -1;
    if (best < 0 || 2 * known < n)
        return -1; /* most pages did not answer: a few cannot speak for the range */
    *share = (double)count / (double)n;
    return best;
}

void buffer_inspect_nodes(buffer *b)
{
    double share;
    int best = buffer_range_node(b, 0, b->len, &share);
    if (best < 0)
        return;
    b->node = best;
    b->node_fraction = share;
}

int page_nodes_majority(const int *nodes, size_t n, size_t *count, size_t *known)
{
    size_t counts[64] = {0};
    *known = 0;
    for (size_t i = 0; i < n; i++)
        if (nodes[i] >= 0 && nodes[i] < 64) {
            counts[nodes[i]]++;
            (*known)++;
        }
    int best = 0;
    for (int k = 1; k < 64; k++)
        if (counts[k] > counts[best])
            best = k;
    *count = counts[best];
    return *known ? best : -1;
}

void buffer_inspect_all(buffer *const *bufs, size_t n)
{
    smaps_index ix;
    bool have = smaps_index_read_self(&ix);
    for (size_t i = 0; i < n; i++) {
        if (have)
            bufs[i]->huge_coverage = smaps_index_huge_fraction(&ix, (uintptr_t)bufs[i]->ptr, bufs[i]->len);
        buffer_inspect_nodes(bufs[i]);
    }
    smaps_index_free(&ix);
}

void buffer_inspect(buffer *b)
{
    buffer_inspect_all(&b, 1);
}

buffer buffer_view(const buffer *b, size_t back, size_t len)
{
    buffer v = *b;
    v.map = NULL;
    v.map_len = 0;
    v.ptr = (char *)b->ptr - back;
    v.len = len;
    return v;
}

void buffer_free(buffer *b)
{
    if (b->map)
        munmap(b->map, b->map_len);
    memset(b, 0, sizeof *b);
    b->node = -1;
}
