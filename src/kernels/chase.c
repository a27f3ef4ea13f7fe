/* SPDX-License-Identifier: MIT */
#include "kernels/chase.h"

#include <stdbool.h>
#include <stdio.h>

#include "kernels/permutation.h"
#include "util/stop_flag.h"

/* The visiting order is a bijection k -> node; the cycle links node(k) to
 * node(k + 1). Random and strided chains are written in address order: node i's
 * link needs k = inverse(i) and node(k + 1) (sequential stores over a buffer
 * far larger than the caches); grouped ones in visiting order (link_grouped). */
typedef struct {
    const chase_layout *layout;
    uint64_t n;          /* nodes */
    uint64_t per_page;   /* nodes per page (page-local); chunks per group (TLB-local) */
    permutation nodes;   /* random: over all nodes */
    permutation pages;   /* page-local: over pages */
    /* TLB-local: a pass visits one node of every chunk of `spread` nodes */
    unsigned spread, spread_bits;
    permutation groups[CHASE_MAX_SPREAD];     /* per pass: over groups */
} visit_order;

/* The node offset within a chunk that pass visits: bit-reversed, so offsets that
 * share a 128-byte pair (0 and 1) are visited half a traversal apart. */
static unsigned pass_offset(const visit_order *v, unsigned pass)
{
    unsigned r = 0;
    for (unsigned b = 0; b < v->spread_bits; b++)
        r |= ((pass >> b) & 1u) << (v->spread_bits - 1 - b);
    return r;
}

/* Each chunk's own offset, XORed into the pass's: a pass visits a random line of
 * every chunk, not the same line of each, as multichase's mixer puts each element
 * at a random slot of its 256 bytes. With one offset for every chunk of a pass,
 * the address bits below the chunk are fixed: on the Xeon guest that read 96-99 ns
 * against 149-153 ns with the offsets mixed and multichase's 143-150 (BENCHMARKS,
 * "The TLB-local chase's line within its chunk"). XOR keeps every line visited once
 * a traversal and a 128-byte pair's lines two passes apart. */
static unsigned chunk_offset(const visit_order *v, uint64_t chunk)
{
    if (v->spread_bits == 0)
        return 0;
    uint64_t z = (v->layout->seed ^ (chunk + 1) * 0xBF58476D1CE4E5B9ULL) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL; /* splitmix64's step, inline: the call cost 0.1 s a GiB */
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (unsigned)((z ^ (z >> 31)) >> (64 - v->spread_bits));
}

/* Permutation of the chunks within group g in a pass, rebuilt on demand like
 * page_permutation. */
static void group_permutation(const visit_order *v, uint64_t g, unsigned pass, permutation *out)
{
    permutation_init(out, v->per_page,
                     v->layout->seed ^ (g + 1) * 0xD6E8FEB86659FD93ULL ^ (pass + 1) * 0x9E3779B97F4A7C15ULL);
}

/* Permutation of the nodes within page p: derived from the seed and p, so it can
 * be rebuilt on demand without storing one per page. */
static void page_permutation(const visit_order *v, uint64_t page, permutation *out)
{
    permutation_init(out, v->per_page, v->layout->seed ^ (page + 1) * 0xD6E8FEB86659FD93ULL);
}

/* Random and strided orders: the node at position k, and the position of a node. */
static uint64_t node_at(const visit_order *v, uint64_t k)
{
    return v->layout->order == CHASE_RANDOM ? permutation_forward(&v->nodes, k) : k;
}

static uint64_t position_of(const visit_order *v, uint64_t node)
{
    return v->layout->order == CHASE_RANDOM ? permutation_inverse(&v->nodes, node) : node;
}

/* A group of the grouped orders at one place q of the visiting order (pass q /
 * groups, the pass's gi-th group): which group, its pass's offset and the order of
 * its chunks. */
typedef struct {
    uint64_t g;
    unsigned offset;
    permutation within;
} group_at;

/* The grouped orders' places: every group once a pass. */
static uint64_t grouped_places(const visit_order *v)
{
    return (uint64_t)v->spread * (v->layout->order == CHASE_TLB_LOCAL ? v->groups[0].n : v->pages.n);
}

static void group_at_place(const visit_order *v, uint64_t q, group_at *out)
{
    bool tlb = v->layout->order == CHASE_TLB_LOCAL;
    uint64_t groups = tlb ? v->groups[0].n : v->pages.n;
    unsigned pass = (unsigned)(q / groups);
    out->g = permutation_forward(tlb ? &v->groups[pass] : &v->pages, q % groups);
    out->offset = tlb ? pass_offset(v, pass) : 0;
    if (tlb)
        group_permutation(v, out->g, pass, &out->within);
    else
        page_permutation(v, out->g, &out->within);
}

/* The c-th node the chain visits in that group (tlb: the order is TLB-local, a
 * parameter so the loop need not read it again after each link it writes). */
static inline char *group_node(const visit_order *v, const group_at *at, char *base, size_t stride, uint64_t c,
                               bool tlb)
{
    uint64_t chunk = at->g * v->per_page + permutation_forward(&at->within, c);
    if (tlb)
        return base + (chunk * v->spread + (at->offset ^ chunk_offset(v, chunk))) * stride;
    return base + chunk * stride;
}

/* The first node of the grouped orders' cycle (place 0, its first node). */
static char *grouped_first(const visit_order *v, char *base, size_t stride)
{
    group_at at;
    group_at_place(v, 0, &at);
    return group_node(v, &at, base, stride, 0, v->layout->order == CHASE_TLB_LOCAL);
}

/* Page-local and TLB-local orders, linked in visiting order: each group's links
 * land within the group (a page, or 256 KiB that stays in the L2), and a group's
 * permutation is made once per pass, not once per node as address order needs
 * (a 1 GiB TLB-local chain took 300-500 ns a node that way on the loaded Xeon
 * guest). This links the nodes of places [from, to) of the passes' groups, the
 * last to the first node of place `to` (place 0 after the last: the cycle closes).
 * Returns false when a stop was requested. */
static bool link_grouped(const visit_order *v, char *base, size_t stride, uint64_t from, uint64_t to)
{
    uint64_t check_every = STOP_CHECK_BYTES / stride ? STOP_CHECK_BYTES / stride : 1, done = 0;
    const bool tlb = v->layout->order == CHASE_TLB_LOCAL;
    const uint64_t places = grouped_places(v), per_group = v->per_page;
    void **prev = NULL;
    group_at at;
    for (uint64_t q = from; q < to; q++) {
        group_at_place(v, q, &at);
        for (uint64_t c = 0; c < per_group; c++) {
            if (done++ % check_every == 0 && stop_poll())
                return false;
            char *node = group_node(v, &at, base, stride, c, tlb);
            if (prev)
                *prev = node;
            prev = (void **)(void *)node;
        }
    }
    if (prev) {
        group_at_place(v, to == places ? 0 : to, &at);
        *prev = group_node(v, &at, base, stride, 0, tlb);
    }
    return true;
}

/* The visiting order of a layout over bytes; false when the layout does not fit. */
static bool visit_order_init(visit_order *v, size_t bytes, const chase_layout *layout)
{
    size_t stride = layout->node_bytes;
    if (stride < sizeof(void *) || bytes < stride || bytes % stride != 0)
        return false;
    /* field by field, not `= {...}`: zeroing the whole struct (16 permutations) is a
     * memset call on some targets, and a kernel object calls no libc */
    v->layout = layout;
    v->n = bytes / stride;
    v->per_page = 1;
    v->spread = 1;
    v->spread_bits = 0;
    if (layout->order == CHASE_PAGE_LOCAL) {
        size_t page = layout->page_bytes;
        if (page < stride || page % stride != 0 || bytes % page != 0)
            return false;
        v->per_page = page / stride;
        permutation_init(&v->pages, bytes / page, layout->seed);
    } else if (layout->order == CHASE_TLB_LOCAL) {
        unsigned spread = layout->spread ? layout->spread : 1;
        if (spread > CHASE_MAX_SPREAD || (spread & (spread - 1)))
            return false;
        size_t group = layout->page_bytes, chunk = stride * spread;
        if (group < chunk || group % chunk != 0 || bytes % group != 0)
            return false;
        v->spread = spread;
        while ((1u << v->spread_bits) < spread)
            v->spread_bits++;
        v->per_page = group / chunk;
        for (unsigned pass = 0; pass < spread; pass++)
            permutation_init(&v->groups[pass], bytes / group, layout->seed + pass * 0xA0761D6478BD642FULL);
    } else if (layout->order == CHASE_RANDOM) {
        permutation_init(&v->nodes, v->n, layout->seed);
    }
    return true;
}

/* The part-th of parts equal shares of count (the first count % parts one more). */
static void share_of(uint64_t count, unsigned part, unsigned parts, uint64_t *from, uint64_t *to)
{
    uint64_t each = count / parts, more = count % parts;
    *from = each * part + (part < more ? part : more);
    *to = *from + each + (part < more ? 1 : 0);
}

void *chase_build_part(void *buf, size_t bytes, const chase_layout *layout, unsigned part, unsigned parts)
{
    visit_order v;
    if (parts == 0 || part >= parts || !visit_order_init(&v, bytes, layout))
        return NULL;
    size_t stride = layout->node_bytes;
    char *base = buf;
    uint64_t from, to;
    if (layout->order == CHASE_PAGE_LOCAL || layout->order == CHASE_TLB_LOCAL) {
        share_of(grouped_places(&v), part, parts, &from, &to);
        return link_grouped(&v, base, stride, from, to) ? grouped_first(&v, base, stride) : NULL;
    }
    /* random and strided: the part's nodes in address order */
    share_of(v.n, part, parts, &from, &to);
    uint64_t check_every = STOP_CHECK_BYTES / stride ? STOP_CHECK_BYTES / stride : 1;
    for (uint64_t i = from; i < to; i++) {
        if ((i - from) % check_every == 0 && stop_poll())
            return NULL;
        uint64_t k = position_of(&v, i);
        uint64_t next = node_at(&v, k + 1 == v.n ? 0 : k + 1);
        *(void **)(void *)(base + i * stride) = base + next * stride;
    }
    return base + node_at(&v, 0) * stride;
}

void *chase_build(void *buf, size_t bytes, const chase_layout *layout)
{
    return chase_build_part(buf, bytes, layout, 0, 1);
}

const char *chase_order_key(chase_order order)
{
    static const char *const keys[] = {"random", "page-local", "strided", "tlb-local"};
    return (unsigned)order < sizeof keys / sizeof *keys ? keys[order] : "unknown";
}

const char *chase_order_describe(const chase_layout *l, char *buf, size_t len)
{
    switch (l->order) {
    case CHASE_TLB_LOCAL:
        snprintf(buf, len,
                 "TLB-local random chase (multichase's order: within each %zu-byte group, a random one of every %u "
                 "nodes a pass, the groups in random order)",
                 l->page_bytes, l->spread);
        break;
    case CHASE_PAGE_LOCAL:
        snprintf(buf, len, "random chase within each %zu-byte range, the ranges in random order", l->page_bytes);
        break;
    case CHASE_STRIDED:
        snprintf(buf, len, "strided chase (lmbench's order: each node the next, prefetchers may help)");
        break;
    default:
        snprintf(buf, len, "random chase over the whole buffer (page walks included)");
        break;
    }
    return buf;
}

void *chase_run(void *p, uint64_t steps)
{
    void **q = p;
    uint64_t blocks = steps / 16, rest = steps % 16;
    for (uint64_t b = 0; b < blocks; b++) {
        /* Sixteen dependent loads per loop test keep loop overhead out of the result. */
        q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q;
        q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q; q = *q;
    }
    for (uint64_t r = 0; r < rest; r++)
        q = *q;
    return q;
}
