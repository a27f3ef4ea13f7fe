/* SPDX-License-Identifier: MIT */
/* The one page policy (memory/page_policy.h) on recorded topologies, with a fake
 * huge page pool: every choice, and every refusal with its exact text. */
#include <string.h>

#include "fixtures.h"
#include "memory/page_policy.h"
#include "test.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static uint64_t pool_2m, pool_1g; /* free pages the fake pool reports */
static int pool_calls;

static uint64_t fake_pool(uint64_t page_size)
{
    pool_calls++;
    return page_size == 2 * MiB ? pool_2m : page_size == GiB ? pool_1g : 0;
}

static topology load(const char *root)
{
    topology t;
    topology_load(root, NULL, &t);
    return t;
}

static bool choose(const topology *t, page_choice c, uint64_t largest, uint64_t count, page_plan *p, char *err)
{
    page_policy_request rq = {c, "--pages", largest, count, fake_pool};
    memset(p, 0, sizeof *p);
    err[0] = '\0';
    return page_policy_choose(t, &rq, p, err, 256);
}

static void check_plan(const page_plan *p, page_request req, uint64_t huge, uint64_t chase_page, const char *name)
{
    CHECK_INT(p->request, req);
    CHECK_INT(p->huge_size, huge);
    CHECK_INT(p->chase_page_bytes, chase_page);
    CHECK_STR(p->name, name);
}

TEST(page_policy_default_auto_and_4k_never_refuse)
{
    topology t = load(fixture_two_socket_smt()); /* THP always, 2 MiB */
    page_plan p;
    char err[256];
    pool_2m = pool_1g = 0;
    pool_calls = 0;
    CHECK(choose(&t, PAGE_CHOICE_DEFAULT, 64 * GiB, 1, &p, err));
    check_plan(&p, PAGES_NORMAL, 2 * MiB, 4096, "default");
    CHECK(choose(&t, PAGE_CHOICE_AUTO, 64 * GiB, 1, &p, err));
    check_plan(&p, PAGES_HUGE_AUTO, 2 * MiB, 4096, "auto"); /* small buffers stay on base pages */
    CHECK(choose(&t, PAGE_CHOICE_4K, 64 * GiB, 1, &p, err));
    check_plan(&p, PAGES_SMALL, 2 * MiB, 4096, "4k");
    snprintf(t.thp_mode, sizeof t.thp_mode, "never");
    CHECK(choose(&t, PAGE_CHOICE_AUTO, 64 * GiB, 1, &p, err)); /* -H falls back, as sc-membench does */
    check_plan(&p, PAGES_HUGE_AUTO, 2 * MiB, 4096, "auto");
    CHECK_INT(pool_calls, 0); /* none of these depends on the pool */
    topology_free(&t);
}

TEST(page_policy_huge_size_follows_the_thp_size)
{
    topology t = load(fixture_two_socket_smt());
    page_plan p;
    char err[256];
    t.thp_size = 512 * MiB; /* arm64 with 64 KiB base pages */
    CHECK(choose(&t, PAGE_CHOICE_AUTO, GiB, 1, &p, err));
    check_plan(&p, PAGES_HUGE_AUTO, 512 * MiB, 4096, "auto");
    CHECK(choose(&t, PAGE_CHOICE_THP, GiB, 1, &p, err));
    check_plan(&p, PAGES_THP, 512 * MiB, 512 * MiB, "thp");
    topology_free(&t);
    t = load(fixture_vm_odd_caches()); /* no THP files: mode unknown, 2 MiB assumed */
    CHECK(choose(&t, PAGE_CHOICE_THP, GiB, 1, &p, err));
    check_plan(&p, PAGES_THP, 2 * MiB, 2 * MiB, "thp");
    topology_free(&t);
}

TEST(page_policy_thp_refused_when_never)
{
    topology t = load(fixture_arm_no_l3()); /* THP madvise */
    page_plan p;
    char err[256];
    CHECK(choose(&t, PAGE_CHOICE_THP, 8 * MiB, 1, &p, err));
    check_plan(&p, PAGES_THP, 2 * MiB, 2 * MiB, "thp");
    snprintf(t.thp_mode, sizeof t.thp_mode, "never");
    CHECK(!choose(&t, PAGE_CHOICE_THP, 8 * MiB, 1, &p, err));
    CHECK_STR(err, "--pages thp: transparent huge pages are 'never' on this system");
    page_policy_request rq = {PAGE_CHOICE_THP, "--huge", 8 * MiB, 1, fake_pool};
    CHECK(!page_policy_choose(&t, &rq, &p, err, sizeof err));
    CHECK_STR(err, "--huge thp: transparent huge pages are 'never' on this system"); /* the caller's flag */
    topology_free(&t);
}

TEST(page_policy_2m_from_the_pool_or_thp)
{
    topology t = load(fixture_two_socket_smt());
    page_plan p;
    char err[256];
    const char *refusal = "--pages 2m: no room in the 2 MiB huge page pool and THP cannot give 2 MiB pages";
    pool_2m = 3;
    snprintf(t.thp_mode, sizeof t.thp_mode, "never"); /* only the pool can give them */
    CHECK(choose(&t, PAGE_CHOICE_2M, 6 * MiB, 1, &p, err)); /* exactly fills the pool */
    check_plan(&p, PAGES_HUGE, 2 * MiB, 2 * MiB, "2m");
    CHECK(!choose(&t, PAGE_CHOICE_2M, 6 * MiB + 1, 1, &p, err)); /* a fourth page needed */
    CHECK_STR(err, refusal);
    CHECK(!choose(&t, PAGE_CHOICE_2M, 4 * MiB, 2, &p, err)); /* two buffers of two pages */
    CHECK_STR(err, refusal);
    pool_2m = 0;
    snprintf(t.thp_mode, sizeof t.thp_mode, "madvise"); /* an empty pool: THP gives 2 MiB */
    CHECK(choose(&t, PAGE_CHOICE_2M, 64 * GiB, 1, &p, err));
    check_plan(&p, PAGES_HUGE, 2 * MiB, 2 * MiB, "2m");
    t.thp_size = 512 * MiB; /* THP pages are not 2 MiB here */
    CHECK(!choose(&t, PAGE_CHOICE_2M, 2 * MiB, 1, &p, err));
    CHECK_STR(err, refusal);
    CHECK(choose(&t, PAGE_CHOICE_2M, 0, 1, &p, err)); /* nothing to allocate, nothing refused */
    topology_free(&t);
}

TEST(page_policy_1g_only_from_the_pool)
{
    topology t = load(fixture_two_socket_smt());
    page_plan p;
    char err[256];
    pool_1g = 2;
    CHECK(choose(&t, PAGE_CHOICE_1G, 2 * GiB, 1, &p, err));
    check_plan(&p, PAGES_HUGETLB, GiB, GiB, "1g");
    CHECK(choose(&t, PAGE_CHOICE_1G, GiB, 0, &p, err)); /* a count of 0 means one buffer */
    CHECK(!choose(&t, PAGE_CHOICE_1G, 2 * GiB + 1, 1, &p, err)); /* THP cannot stand in */
    CHECK_STR(err, "--pages 1g: needs 3 free 1 GiB huge pages, the pool has 2 (reserve them in "
                   "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)");
    CHECK(!choose(&t, PAGE_CHOICE_1G, GiB + GiB / 2, 3, &p, err)); /* three buffers of 2 pages each */
    CHECK_CONTAINS(err, "needs 6 free 1 GiB huge pages, the pool has 2");
    pool_1g = 0;
    CHECK(!choose(&t, PAGE_CHOICE_1G, 4096, 1, &p, err));
    CHECK_CONTAINS(err, "needs 1 free 1 GiB huge pages, the pool has 0");
    topology_free(&t);
}

TEST(page_policy_reads_the_live_pool_by_default)
{
    topology t = load(fixture_two_socket_smt());
    page_plan p;
    char err[256];
    /* No machine has 2^32 free 1 GiB pages: refused whatever this one has. */
    page_policy_request rq = {PAGE_CHOICE_1G, "--pages", 1ULL << 62, 1, NULL};
    CHECK(!page_policy_choose(&t, &rq, &p, err, sizeof err));
    CHECK_CONTAINS(err, "--pages 1g: needs 4294967296 free 1 GiB huge pages, the pool has ");
    topology_free(&t);
}

TEST(page_choice_parse_values)
{
    static const struct {
        const char *text;
        page_choice c;
    } good[] = {{"4k", PAGE_CHOICE_4K}, {"2m", PAGE_CHOICE_2M}, {"1g", PAGE_CHOICE_1G}, {"thp", PAGE_CHOICE_THP}};
    char err[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        page_choice c = PAGE_CHOICE_DEFAULT;
        CHECK(page_choice_parse(good[i].text, &c, err, sizeof err));
        CHECK_INT(c, good[i].c);
        CHECK_STR(page_choice_name(c), good[i].text);
    }
    const char *bad[] = {"", "4K", "2M", "thp ", "default", "auto", "huge", "4kb", "2048k"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        page_choice c;
        CHECK(!page_choice_parse(bad[i], &c, err, sizeof err));
    }
    page_choice c;
    CHECK(!page_choice_parse("2M", &c, err, sizeof err));
    CHECK_STR(err, "--pages '2M': use 4k, 2m, 1g or thp");
}

/* Which buffers a short huge-page coverage is warned about (sweep and stream). */
TEST(page_choice_wants_huge_for_what_was_asked)
{
    const uint64_t huge = 2ULL << 20;
    CHECK(!page_choice_wants_huge(PAGE_CHOICE_DEFAULT, 1ULL << 30, huge));
    CHECK(!page_choice_wants_huge(PAGE_CHOICE_4K, 1ULL << 30, huge));
    CHECK(page_choice_wants_huge(PAGE_CHOICE_AUTO, 2 * huge, huge));
    CHECK(!page_choice_wants_huge(PAGE_CHOICE_AUTO, 2 * huge - 1, huge));
    CHECK(page_choice_wants_huge(PAGE_CHOICE_2M, 4096, huge));
    CHECK(page_choice_wants_huge(PAGE_CHOICE_1G, 4096, huge));
    CHECK(page_choice_wants_huge(PAGE_CHOICE_THP, 4096, huge));
}
