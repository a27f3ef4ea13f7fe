/* SPDX-License-Identifier: MIT */
#include "memory/page_policy.h"

#include <stdio.h>
#include <string.h>

#include "platform/platform.h"

#define BASE_PAGE 4096ULL
#define PAGE_2M (2ULL << 20)
#define PAGE_1G (1ULL << 30)

const char *page_choice_name(page_choice c)
{
    static const char *names[] = {"default", "auto", "4k", "2m", "1g", "thp"};
    return (size_t)c < sizeof names / sizeof names[0] ? names[c] : "unknown";
}

bool page_choice_wants_huge(page_choice c, uint64_t bytes, uint64_t huge_size)
{
    if (c == PAGE_CHOICE_AUTO)
        return bytes >= 2 * huge_size;
    return c != PAGE_CHOICE_DEFAULT && c != PAGE_CHOICE_4K;
}

bool page_choice_parse(const char *text, page_choice *out, char *err, size_t errlen)
{
    static const page_choice values[] = {PAGE_CHOICE_4K, PAGE_CHOICE_2M, PAGE_CHOICE_1G, PAGE_CHOICE_THP};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        if (!strcmp(text, page_choice_name(values[i]))) {
            *out = values[i];
            return true;
        }
    snprintf(err, errlen, "--pages '%s': use 4k, 2m, 1g or thp", text);
    return false;
}

/* Pool pages of page_size the run needs: every buffer rounded up to whole pages. */
static uint64_t pages_needed(const page_policy_request *rq, uint64_t page_size)
{
    uint64_t per_buffer = rq->largest_buffer / page_size + (rq->largest_buffer % page_size != 0);
    uint64_t count = rq->buffer_count ? rq->buffer_count : 1;
    return per_buffer > UINT64_MAX / count ? UINT64_MAX : per_buffer * count;
}

static uint64_t pool_free(const page_policy_request *rq, uint64_t page_size)
{
    return rq->hugetlb_free ? rq->hugetlb_free(page_size) : platform_hugetlb_free_pages(page_size);
}

static void set_plan(page_plan *out, page_choice c, page_request req, uint64_t huge_size, uint64_t chase_page)
{
    out->request = req;
    out->huge_size = huge_size;
    out->chase_page_bytes = chase_page;
    out->name = page_choice_name(c);
}

bool page_policy_choose(const topology *t, const page_policy_request *rq, page_plan *out, char *err,
                        size_t errlen)
{
    uint64_t thp = topology_huge_page_size(t);
    bool thp_off = strcmp(t->thp_mode, "never") == 0;
    switch (rq->choice) {
    case PAGE_CHOICE_DEFAULT:
        set_plan(out, rq->choice, PAGES_NORMAL, thp, BASE_PAGE);
        return true;
    case PAGE_CHOICE_AUTO:
        /* Decided per buffer (those under two huge pages stay on base pages), so the
         * base page is the only grouping that fits every buffer. */
        set_plan(out, rq->choice, PAGES_HUGE_AUTO, thp, BASE_PAGE);
        return true;
    case PAGE_CHOICE_4K:
        set_plan(out, rq->choice, PAGES_SMALL, thp, BASE_PAGE);
        return true;
    case PAGE_CHOICE_THP:
        if (thp_off) {
            snprintf(err, errlen, "%s thp: transparent huge pages are 'never' on this system", rq->flag);
            return false;
        }
        set_plan(out, rq->choice, PAGES_THP, thp, thp);
        return true;
    case PAGE_CHOICE_2M:
        /* buffer_alloc falls back to THP when the pool is short: fine if THP gives 2 MiB. */
        if (pool_free(rq, PAGE_2M) < pages_needed(rq, PAGE_2M) && (thp_off || thp != PAGE_2M)) {
            snprintf(err, errlen, "%s 2m: no room in the 2 MiB huge page pool and THP cannot give 2 MiB pages",
                     rq->flag);
            return false;
        }
        set_plan(out, rq->choice, PAGES_HUGE, PAGE_2M, PAGE_2M);
        return true;
    case PAGE_CHOICE_1G: {
        uint64_t have = pool_free(rq, PAGE_1G), need = pages_needed(rq, PAGE_1G);
        if (have < need) {
            snprintf(err, errlen,
                     "%s 1g: needs %llu free 1 GiB huge pages, the pool has %llu (reserve them in "
                     "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)",
                     rq->flag, (unsigned long long)need, (unsigned long long)have);
            return false;
        }
        set_plan(out, rq->choice, PAGES_HUGETLB, PAGE_1G, PAGE_1G);
        return true;
    }
    }
    snprintf(err, errlen, "%s: unknown page choice", rq->flag);
    return false;
}
