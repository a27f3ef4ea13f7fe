/* SPDX-License-Identifier: MIT */
/* Pointer chasing for latency: a buffer cut into nodes of `node_bytes` (one cache
 * line by default), linked in one cycle that visits every node exactly once before
 * returning to the start, so every load depends on the one before.
 *
 * Orders:
 *   CHASE_RANDOM     uniformly scattered: no prefetcher can guess the next line
 *                    (TLB misses included unless the buffer is in huge pages);
 *   CHASE_PAGE_LOCAL every node of a page, in random order, before the next page,
 *                    pages in random order: separates TLB cost from cache cost;
 *   CHASE_STRIDED    node i -> node i+1, lmbench's fixed stride (prefetchable).
 * Random orders come from a keyed Feistel permutation seeded with splitmix64
 * (util/splitmix64.h, --seed), so a run can be repeated exactly. Links are
 * written in address order (sequential stores), so building a 2 GiB chain is a
 * streaming pass. */
#ifndef MEMBENCH_CHASE_H
#define MEMBENCH_CHASE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { CHASE_RANDOM, CHASE_PAGE_LOCAL, CHASE_STRIDED } chase_order;

typedef struct {
    chase_order order;
    size_t node_bytes; /* >= sizeof(void *); divides the buffer size */
    size_t page_bytes; /* CHASE_PAGE_LOCAL: multiple of node_bytes, divides the buffer size */
    uint64_t seed;
} chase_layout;

/* Links buf (bytes long) into one cycle; returns the start, or NULL when the
 * layout does not fit the buffer or a stop was requested while linking (a
 * gigabyte chain takes seconds of random writes). */
void *chase_build(void *buf, size_t bytes, const chase_layout *layout);

/* Follows steps links from p; returns where it ended (callers keep the result so
 * the loads cannot be removed). */
void *chase_run(void *p, uint64_t steps);

#endif
