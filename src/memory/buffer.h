/* SPDX-License-Identifier: MIT */
/* One benchmark buffer: allocated with the page size asked for, first-touched by
 * the thread that will use it, then inspected so reports say what the kernel
 * actually gave (huge-page coverage from /proc/self/smaps, node from move_pages). */
#ifndef MEMBENCH_BUFFER_H
#define MEMBENCH_BUFFER_H

#include "memory/beside.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PAGES_NORMAL,    /* whatever mmap gives (THP "always" may still back it) */
    PAGES_HUGE_AUTO, /* -H: buffers >= 2 huge pages: MAP_HUGETLB, else THP, else normal */
    PAGES_SMALL,     /* base pages only: MADV_NOHUGEPAGE */
    PAGES_THP,       /* THP via madvise at any size, aligned to the huge page size */
    PAGES_HUGE,      /* huge pages of huge_size at any size: MAP_HUGETLB, else THP when
                        huge_size is the THP size; the coverage says what came */
    PAGES_HUGETLB    /* MAP_HUGETLB of huge_size only (1 GiB pages); fails without a pool */
} page_request;

typedef struct {
    void *map;          /* what munmap gets */
    size_t map_len;
    void *ptr;          /* aligned start used by kernels */
    size_t len;         /* bytes usable at ptr */
    const char *method; /* "hugetlb", "thp", "normal" */
    double huge_coverage; /* fraction of [ptr, ptr+len) backed by huge pages, -1 unknown */
    int node;           /* node most sampled pages are on, -1 unknown */
    double node_fraction; /* fraction of sampled pages on `node` */
} buffer;

/* Allocates len bytes (len > 0). huge_size is the huge page size to use (for -H,
 * buffers smaller than 2x huge_size use normal pages, as sc-membench does).
 * node >= 0 asks for memory on that node (preferred policy). Nothing is touched. */
bool buffer_alloc(buffer *b, size_t len, page_request req, uint64_t huge_size, int node);
/* The same, the buffer starting `offset` bytes into its first page (a multiple of 64
 * under 4096; false otherwise): a copy's destination 2 KiB off its source's page
 * offset, so the loads do not wait on stores to addresses 4 KiB apart (4K aliasing). */
bool buffer_alloc_offset(buffer *b, size_t len, page_request req, uint64_t huge_size, int node, size_t offset);
/* The same with the node bound (strict, numactl --membind): refused, rather than
 * left to the OOM killer, when the node has not that much memory free. Where the
 * kernel has no NUMA (platform_numa_supported), node 0 is all memory: allocated
 * unbound; other nodes are refused. */
bool buffer_alloc_bound(buffer *b, size_t len, page_request req, uint64_t huge_size, int node);

/* Shared between the processes forked after it (MAP_SHARED): perf bench numa mem's
 * global memory. Never MAP_HUGETLB (PAGES_HUGETLB becomes THP); unbound: the pages
 * land where they are first touched. */
bool buffer_alloc_shared(buffer *b, size_t len, page_request req, uint64_t huge_size);
/* Backs [off, off+len) of b with memory now, from the calling thread (its node, as a
 * first touch there would), STOP_CHECK_BYTES at a time (platform_populate); the
 * writes that follow then take no page faults. False when a stop was requested. */
bool buffer_populate(buffer *b, size_t off, size_t len);
/* The same, shared with up to nhelpers threads, one pinned to each of helpers[]:
 * slices of whole 2 MiB from off (so no huge page of a buffer aligned for them is
 * split between two threads), the caller's first. The helpers must be CPUs of the caller's node, so the pages land
 * where the caller's own first touch would put them. A helper that cannot start or
 * be pinned leaves its slice to the caller. A fresh VM page is backed by the host at
 * first touch at about 0.8 GB/s a thread: two threads did 1.5 (BENCHMARKS). False
 * when a stop was requested (every thread has ended by then). */
bool buffer_populate_beside(buffer *b, size_t off, size_t len, const int *helpers, size_t nhelpers);
/* Helpers buffer_populate_beside starts at most, and the least each slice gets. */
#define POPULATE_MAX_HELPERS BESIDE_MAX_HELPERS
#define POPULATE_MIN_SLICE ((size_t)64 << 20)
/* Writes every byte (first touch happens in the calling thread, so pages land on
 * its node) with a pattern derived from seed; word i gets pattern_word(seed, i).
 * False when a stop was requested before the end (the rest is untouched). */
bool buffer_fill(buffer *b, uint64_t seed);
uint64_t pattern_word(uint64_t seed, size_t index);

/* Fills huge_coverage, node and node_fraction. Call after buffer_fill. */
void buffer_inspect(buffer *b);

/* The same for many buffers with one read of /proc/self/smaps (memory/smaps.h).
 * huge_coverage stays -1 when smaps cannot be read. */
void buffer_inspect_all(buffer *const *bufs, size_t n);

/* Pages sampled from a range: at most this many. */
#define BUFFER_RANGE_SAMPLES 64
/* Up to max page addresses spread evenly over the whole pages inside [off, off+len)
 * of b (a page the range shares with a neighbour's was first touched by whichever
 * came first, so it says nothing about this range); the page holding off when no
 * page is whole. Returns how many. */
size_t buffer_range_pages(const buffer *b, size_t off, size_t len, const void **addrs, size_t max);
/* nodes[i]: the node of the page at addrs[i] (move_pages), -1 when unknown. */
void page_nodes_query(const void *const *addrs, int *nodes, size_t n);
/* The node most sampled pages of [off, off+len) of b are on (move_pages), with their
 * share of the samples in *share; -1 when unknown. For a part of a buffer (STREAM's
 * chunks). */
int buffer_range_node(const buffer *b, size_t off, size_t len, double *share);
/* The node most of nodes[0..n) name and its share of n, or -1 (share -1) when fewer
 * than half of them are known: move_pages has no answer for a page the kernel's NUMA
 * balancing has just unmapped (some kernels, e.g. 6.1), and a few pages that did
 * answer cannot speak for the rest. */
int page_nodes_verdict(const int *nodes, size_t n, double *share);
/* Only node and node_fraction (move_pages on sampled pages; no smaps read). */
void buffer_inspect_nodes(buffer *b);
/* The node most entries of nodes[0..n) name (-1: unknown; ids of 64 and up are not
 * counted), or -1 when none is known; *count gets its entries, *known the known ones. */
int page_nodes_majority(const int *nodes, size_t n, size_t *count, size_t *known);
/* The `len` bytes of b from `back` bytes before its start, lent: the view has no
 * mapping of its own, so buffer_free on it only forgets it. */
buffer buffer_view(const buffer *b, size_t back, size_t len);
void buffer_free(buffer *b);

#endif
