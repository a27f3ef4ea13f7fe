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
 *   CHASE_TLB_LOCAL  multichase's default pattern, the headline DRAM latency:
 *                    groups of page_bytes (256 KiB: 64 pages of 4 KiB, few enough
 *                    for any TLB) in random order, within a group one node of
 *                    every `spread` nodes (256 B) in random order, so no
 *                    prefetcher helps and the page walks stay out of the time;
 *                    which node of a chunk, random chunk by chunk (multichase's
 *                    mixer: a fixed one fixes address bits, 0.62x its latency on
 *                    a Xeon guest). Unlike multichase, which leaves 3 of every 4
 *                    lines unused, the chain then goes round again `spread` times,
 *                    a chunk's offset XORed with the pass's in bit-reversed order
 *                    (0, 2, 1, 3), so every
 *                    node is visited once a traversal, as in CHASE_RANDOM: a cache
 *                    holds the chain exactly when it holds the buffer, and a
 *                    line's 128-byte buddy, which the adjacent-line prefetcher
 *                    fetches with it, comes two passes later;
 *   CHASE_STRIDED    node i -> node i+1, lmbench's fixed stride (prefetchable).
 * Random orders come from a keyed Feistel permutation seeded with splitmix64
 * (util/splitmix64.h, --seed), so a run can be repeated exactly. Links are
 * written in address order (sequential stores), so building a 2 GiB chain is a
 * streaming pass. */
#ifndef MEMBENCH_CHASE_H
#define MEMBENCH_CHASE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { CHASE_RANDOM, CHASE_PAGE_LOCAL, CHASE_STRIDED, CHASE_TLB_LOCAL } chase_order;

/* CHASE_TLB_LOCAL's shape, multichase's defaults: 64 pages of 4 KiB a group, one
 * 64-byte line of every 256 bytes in a pass. */
#define CHASE_TLB_GROUP_BYTES (256u * 1024)
#define CHASE_TLB_SPREAD 4
#define CHASE_MAX_SPREAD 16

typedef struct {
    chase_order order;
    size_t node_bytes; /* >= sizeof(void *); divides the buffer size */
    size_t page_bytes; /* CHASE_PAGE_LOCAL: multiple of node_bytes, divides the buffer size;
                          CHASE_TLB_LOCAL: the group, a multiple of node_bytes * spread,
                          divides the buffer size */
    uint64_t seed;
    unsigned spread; /* CHASE_TLB_LOCAL: nodes per visited node in a pass, a power of two
                        up to CHASE_MAX_SPREAD (0 or 1: every node in one pass) */
} chase_layout;

/* The order's name in records: "random", "page-local", "strided", "tlb-local". */
const char *chase_order_key(chase_order order);

/* The order in words, as the modes' headers state it (latency, latency-matrix):
 * "TLB-local random chase (multichase's order: within each 262144-byte group, ...)". */
const char *chase_order_describe(const chase_layout *layout, char *buf, size_t len);

/* Links buf (bytes long) into one cycle; returns the start, or NULL when the
 * layout does not fit the buffer or a stop was requested while linking (a
 * gigabyte chain takes seconds of random writes). */
void *chase_build(void *buf, size_t bytes, const chase_layout *layout);

/* One of `parts` shares of chase_build's links (random and strided orders: a share
 * of the nodes in address order; the grouped orders: a share of the groups the
 * passes visit, the last linked on to the next share's first node), so threads can
 * link one buffer together: once every part has run, the buffer holds the cycle
 * chase_build makes, byte for byte. Returns the cycle's start (the same for every
 * part), or NULL as chase_build does, or when part >= parts. */
void *chase_build_part(void *buf, size_t bytes, const chase_layout *layout, unsigned part, unsigned parts);
/* The least a part gets when threads link one chain (measure/latency.c; the plan's
 * estimate counts the threads so): starting a helper costs more than linking less. */
#define CHASE_LINK_MIN_PART ((size_t)16 << 20)

/* Follows steps links from p; returns where it ended (callers keep the result so
 * the loads cannot be removed). */
void *chase_run(void *p, uint64_t steps);

#endif
