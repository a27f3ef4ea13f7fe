/* SPDX-License-Identifier: MIT */
#include "kernels/chase.h"

#include "kernels/permutation.h"
#include "util/stop_flag.h"

/* The visiting order is a bijection k -> node; the cycle links node(k) to
 * node(k + 1). Writing node i's link needs k = inverse(i) and node(k + 1). */
typedef struct {
    const chase_layout *layout;
    uint64_t n;          /* nodes */
    uint64_t per_page;   /* nodes per page (page-local) */
    permutation nodes;   /* random: over all nodes */
    permutation pages;   /* page-local: over pages */
} visit_order;

/* Permutation of the nodes within page p: derived from the seed and p, so it can
 * be rebuilt on demand without storing one per page. */
static void page_permutation(const visit_order *v, uint64_t page, permutation *out)
{
    permutation_init(out, v->per_page, v->layout->seed ^ (page + 1) * 0xD6E8FEB86659FD93ULL);
}

static uint64_t node_at(const visit_order *v, uint64_t k)
{
    switch (v->layout->order) {
    case CHASE_RANDOM:
        return permutation_forward(&v->nodes, k);
    case CHASE_PAGE_LOCAL: {
        uint64_t page = permutation_forward(&v->pages, k / v->per_page);
        permutation within;
        page_permutation(v, page, &within);
        return page * v->per_page + permutation_forward(&within, k % v->per_page);
    }
    default:
        return k;
    }
}

static uint64_t position_of(const visit_order *v, uint64_t node)
{
    switch (v->layout->order) {
    case CHASE_RANDOM:
        return permutation_inverse(&v->nodes, node);
    case CHASE_PAGE_LOCAL: {
        uint64_t page = node / v->per_page;
        permutation within;
        page_permutation(v, page, &within);
        return permutation_inverse(&v->pages, page) * v->per_page +
               permutation_inverse(&within, node % v->per_page);
    }
    default:
        return node;
    }
}

void *chase_build(void *buf, size_t bytes, const chase_layout *layout)
{
    size_t stride = layout->node_bytes;
    if (stride < sizeof(void *) || bytes < stride || bytes % stride != 0)
        return NULL;
    visit_order v = {layout, bytes / stride, 1, {0}, {0}};
    if (layout->order == CHASE_PAGE_LOCAL) {
        size_t page = layout->page_bytes;
        if (page < stride || page % stride != 0 || bytes % page != 0)
            return NULL;
        v.per_page = page / stride;
        permutation_init(&v.pages, bytes / page, layout->seed);
    } else if (layout->order == CHASE_RANDOM) {
        permutation_init(&v.nodes, v.n, layout->seed);
    }
    char *base = buf;
    uint64_t check_every = STOP_CHECK_BYTES / stride ? STOP_CHECK_BYTES / stride : 1;
    for (uint64_t i = 0; i < v.n; i++) {
        if (i % check_every == 0 && stop_poll())
            return NULL;
        uint64_t k = position_of(&v, i);
        uint64_t next = node_at(&v, k + 1 == v.n ? 0 : k + 1);
        *(void **)(void *)(base + i * stride) = base + next * stride;
    }
    return base + node_at(&v, 0) * stride;
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
