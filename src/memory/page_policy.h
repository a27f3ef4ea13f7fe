/* SPDX-License-Identifier: MIT */
/* One page policy for every mode. The user says which pages they want (nothing,
 * sc-membench's -H, or --pages 4k|2m|1g|thp); this decides what buffer_alloc is
 * asked for, which page a page-local chase groups by, and refuses up front, in
 * one line, what this machine cannot give, instead of each mode deciding on its
 * own and a run silently measuring other pages than the ones asked for.
 * Pure given its inputs: the huge page pool is read through a function, so tests
 * need no pool. What the kernel really gave is still checked after allocation
 * (buffer_inspect). */
#ifndef MEMBENCH_PAGE_POLICY_H
#define MEMBENCH_PAGE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memory/buffer.h"
#include "topology/topology.h"

typedef enum {
    PAGE_CHOICE_DEFAULT, /* no flag: normal pages (THP "always" may still back them) */
    PAGE_CHOICE_AUTO,    /* -H: huge pages for buffers of at least two, else normal */
    PAGE_CHOICE_4K,      /* --pages 4k: base pages only */
    PAGE_CHOICE_2M,      /* --pages 2m: 2 MiB pages from the pool, else from THP */
    PAGE_CHOICE_1G,      /* --pages 1g: 1 GiB pages from the pool only */
    PAGE_CHOICE_THP      /* --pages thp: transparent huge pages via madvise */
} page_choice;

/* Free pages in the explicit huge page pool of page_size bytes. */
typedef uint64_t (*hugetlb_free_fn)(uint64_t page_size);

typedef struct {
    page_choice choice;
    const char *flag;                /* the flag the choice came from, named in refusals: "--pages" */
    uint64_t largest_buffer;         /* bytes of the largest single buffer the run allocates */
    uint64_t buffer_count;           /* buffers of that size alive at once (STREAM: 3); 0 counts as 1 */
    hugetlb_free_fn hugetlb_free;    /* NULL: the live system (platform_hugetlb_free_pages) */
} page_policy_request;

typedef struct {
    page_request request;      /* for buffer_alloc */
    uint64_t huge_size;        /* for buffer_alloc */
    uint64_t chase_page_bytes; /* the page a page-local chase finishes before the next */
    const char *name;          /* for reports: "default", "auto", "4k", "2m", "1g", "thp" */
} page_plan;

/* Fills out; when the machine cannot give the pages asked for, returns false with
 * a one-line message naming rq->flag in err. */
bool page_policy_choose(const topology *t, const page_policy_request *rq, page_plan *out, char *err,
                        size_t errlen);

/* The --pages value: "4k", "2m", "1g" or "thp" (exactly). */
bool page_choice_parse(const char *text, page_choice *out, char *err, size_t errlen);

/* Under this share of a result's bytes in huge pages, huge pages asked for are
 * reported as not obtained (and a latency includes TLB misses). */
#define HUGE_COVERAGE_WARN 0.9

/* Whether a buffer of bytes was meant to be in huge pages (so a short coverage is
 * worth a warning): always for 2m, 1g and thp; for -H when it spans at least two
 * huge pages of huge_size; never for the default or 4k. */
bool page_choice_wants_huge(page_choice c, uint64_t bytes, uint64_t huge_size);

/* The short name of a choice (as page_plan.name). */
const char *page_choice_name(page_choice c);

#endif
