/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/chase.h"
#include "kernels/permutation.h"
#include "test.h"
#include "util/splitmix64.h"

static chase_layout layout_of(chase_order order, size_t node, size_t page, uint64_t seed)
{
    chase_layout l = {order, node, page, seed, 0};
    return l;
}

/* Walks the chain n steps from start: every node must be visited exactly once and
 * the walk must be back at start after n steps (one cycle through all nodes).
 * Returns the visiting order (node indices), caller frees. */
static uint64_t *check_single_cycle(size_t bytes, const chase_layout *l)
{
    char *buf = aligned_alloc(64, bytes);
    void *start = chase_build(buf, bytes, l);
    CHECK(start != NULL);
    size_t n = bytes / l->node_bytes;
    unsigned char *seen = calloc(n, 1);
    uint64_t *order = calloc(n, sizeof *order);
    void *p = start;
    bool ok = start != NULL;
    for (size_t i = 0; i < n && ok; i++) {
        size_t off = (size_t)((char *)p - buf);
        ok = off % l->node_bytes == 0 && off / l->node_bytes < n && !seen[off / l->node_bytes];
        if (ok) {
            seen[off / l->node_bytes] = 1;
            order[i] = off / l->node_bytes;
        }
        p = *(void **)p;
    }
    if (!ok)
        test_fail(__FILE__, __LINE__, "chain of %zu nodes (order %d, node %zu B) revisits a node or leaves the buffer",
                  n, (int)l->order, l->node_bytes);
    CHECK(p == start);
    free(seen);
    free(buf);
    return order;
}

TEST(permutation_is_a_bijection_with_inverse)
{
    for (uint64_t n = 1; n <= 300; n++) {
        permutation p;
        permutation_init(&p, n, n * 7);
        unsigned char *hit = calloc(n, 1);
        bool ok = true;
        for (uint64_t x = 0; x < n && ok; x++) {
            uint64_t y = permutation_forward(&p, x);
            ok = y < n && !hit[y] && permutation_inverse(&p, y) == x;
            if (ok)
                hit[y] = 1;
        }
        if (!ok)
            test_fail(__FILE__, __LINE__, "not a bijection for n=%llu", (unsigned long long)n);
        free(hit);
    }
    permutation big;
    permutation_init(&big, (1ULL << 35) + 12345, 9); /* 2 TiB of nodes: no table, O(1) */
    uint64_t y = permutation_forward(&big, 1ULL << 34);
    CHECK(y < (1ULL << 35) + 12345);
    CHECK(permutation_inverse(&big, y) == 1ULL << 34);
}

TEST(permutation_depends_on_seed)
{
    permutation a, b;
    permutation_init(&a, 1000, 1);
    permutation_init(&b, 1000, 2);
    int same = 0;
    for (uint64_t x = 0; x < 1000; x++)
        same += permutation_forward(&a, x) == permutation_forward(&b, x);
    CHECK(same < 50);
}

TEST(chase_random_is_one_cycle_through_every_node)
{
    chase_layout l = layout_of(CHASE_RANDOM, 64, 0, 1);
    free(check_single_cycle(64, &l)); /* a single node pointing to itself */
    free(check_single_cycle(4096, &l));
    l.seed = 12345;
    free(check_single_cycle(1 << 20, &l));
    l.node_bytes = 128;
    free(check_single_cycle(3 << 20, &l)); /* not a power of two: cycle-walking */
    l.node_bytes = 4096;
    free(check_single_cycle(3 * 4096, &l));
}

TEST(chase_random_order_is_scattered)
{
    chase_layout l = layout_of(CHASE_RANDOM, 64, 0, 1);
    size_t n = (1 << 20) / 64;
    uint64_t *order = check_single_cycle(1 << 20, &l);
    size_t adjacent = 0;
    for (size_t i = 0; i + 1 < n; i++)
        adjacent += order[i + 1] == order[i] + 1 || order[i] == order[i + 1] + 1;
    CHECK(adjacent < n / 100); /* a prefetcher sees no sequential runs */
    free(order);
}

TEST(chase_page_local_finishes_each_page_first)
{
    chase_layout l = layout_of(CHASE_PAGE_LOCAL, 64, 4096, 3);
    size_t bytes = 64 * 4096, per_page = 64, n = bytes / 64;
    uint64_t *order = check_single_cycle(bytes, &l);
    bool grouped = true, pages_scattered = false, lines_scattered = false;
    for (size_t i = 0; i < n; i++) {
        grouped = grouped && order[i] / per_page == order[i - i % per_page] / per_page;
        if (i % per_page == 0 && i > 0 && order[i] / per_page != order[i - 1] / per_page + 1)
            pages_scattered = true;
        if (i % per_page && order[i] != order[i - 1] + 1)
            lines_scattered = true;
    }
    CHECK(grouped);
    CHECK(pages_scattered);
    CHECK(lines_scattered);
    free(order);
    char *small = malloc(8192);
    CHECK(chase_build(small, 6000, &l) == NULL); /* not a whole number of pages */
    free(small);
}

/* multichase's default chase, as the headline latency uses it: each pass stays in
 * one 256 KiB group until it has visited one line of each of its 256-byte chunks,
 * groups and chunks in random order; a pass visits a random line of each chunk (as
 * multichase's mixer places each element at a random slot of its 256 bytes), about
 * a quarter of the chunks at each line; over the four passes every line is visited
 * once a traversal, and the two lines of a 128-byte pair two passes apart. */
TEST(chase_tlb_local_stays_in_a_group_and_visits_every_line)
{
    chase_layout l = layout_of(CHASE_TLB_LOCAL, 64, CHASE_TLB_GROUP_BYTES, 7);
    l.spread = CHASE_TLB_SPREAD;
    size_t bytes = 8 * CHASE_TLB_GROUP_BYTES, n = bytes / 64, per_group = CHASE_TLB_GROUP_BYTES / 64;
    size_t chunks_per_group = per_group / 4, per_pass = n / 4;
    uint64_t *order = check_single_cycle(bytes, &l); /* every line once: one cycle */
    bool grouped = true, groups_scattered = false, chunks_scattered = false;
    size_t at[4][4] = {{0}};                            /* [pass][line]: visits */
    unsigned char *line_of = calloc(4 * (n / 4), 1);    /* [pass * chunks + chunk] */
    for (size_t i = 0; i < n; i++) {
        size_t pass = i / per_pass, run = i % per_pass;
        at[pass][order[i] % 4]++;
        line_of[pass * (n / 4) + order[i] / 4] = (unsigned char)(order[i] % 4);
        /* the run of chunks_per_group visits from a group's start stays in that group */
        size_t first = i - run % chunks_per_group;
        grouped = grouped && order[i] / per_group == order[first] / per_group;
        if (run % chunks_per_group == 0 && run > 0 && order[i] / per_group != order[i - 1] / per_group + 1)
            groups_scattered = true;
        if (run % chunks_per_group && order[i] / 4 != order[i - 1] / 4 + 1)
            chunks_scattered = true;
    }
    CHECK(grouped);
    /* every pass visits each line of a chunk at about a quarter of the chunks (one
     * line for all of them fixes the address bits below the chunk: 0.65x
     * multichase's latency on the Xeon guest) */
    for (size_t p = 0; p < 4; p++)
        for (size_t k = 0; k < 4; k++)
            if (at[p][k] < per_pass / 5 || at[p][k] > per_pass * 3 / 10)
                test_fail(__FILE__, __LINE__, "pass %zu visits line %zu of %zu chunks of %zu", p, k, at[p][k],
                          per_pass);
    /* a 128-byte pair's two lines two passes apart: passes 0 and 2, 1 and 3 */
    size_t pairs_apart = 0;
    for (size_t c = 0; c < n / 4; c++)
        pairs_apart += (line_of[c] ^ line_of[2 * (n / 4) + c]) == 1 &&
                       (line_of[n / 4 + c] ^ line_of[3 * (n / 4) + c]) == 1;
    CHECK_INT(pairs_apart, n / 4);
    free(line_of);
    CHECK(groups_scattered);
    CHECK(chunks_scattered);
    /* the passes are not one order repeated at another offset */
    size_t same = 0;
    for (size_t i = 0; i < per_pass; i++)
        same += order[i] / 4 == order[per_pass + i] / 4;
    CHECK(same < per_pass / 10);
    free(order);
    /* a buffer of one group: random over the whole buffer, four passes */
    l.page_bytes = 4096;
    free(check_single_cycle(4096, &l));
    l.spread = 1; /* one pass: multichase's order over every line */
    free(check_single_cycle(3 * 4096, &l));
    char *buf = malloc(8192);
    l.spread = 3; /* not a power of two */
    CHECK(chase_build(buf, 8192, &l) == NULL);
    l.spread = 4;
    CHECK(chase_build(buf, 6000, &l) == NULL); /* not a whole number of groups */
    l.page_bytes = 128;                        /* a group smaller than a chunk */
    CHECK(chase_build(buf, 8192, &l) == NULL);
    free(buf);
}

TEST(chase_strided_is_sequential)
{
    chase_layout l = layout_of(CHASE_STRIDED, 256, 0, 0);
    uint64_t *order = check_single_cycle(256 * 100, &l);
    for (size_t i = 0; i < 100; i++)
        CHECK_INT(order[i], i);
    free(order);
}

TEST(chase_order_is_repeatable_and_seeded)
{
    size_t bytes = 1 << 16;
    chase_layout l = layout_of(CHASE_RANDOM, 64, 0, 5);
    char *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes);
    void *sa = chase_build(a, bytes, &l), *sb = chase_build(b, bytes, &l);
    CHECK((char *)sa - a == (char *)sb - b);
    bool same = true;
    for (size_t i = 0; i < bytes / 64; i++)
        same = same && (char *)*(void **)(a + i * 64) - a == (char *)*(void **)(b + i * 64) - b;
    CHECK(same);
    l.seed = 6;
    chase_build(b, bytes, &l);
    bool differs = false;
    for (size_t i = 0; i < bytes / 64; i++)
        differs = differs || (char *)*(void **)(a + i * 64) - a != (char *)*(void **)(b + i * 64) - b;
    CHECK(differs);
    free(a);
    free(b);
}

TEST(chase_run_follows_links)
{
    size_t bytes = 64 * 100;
    chase_layout l = layout_of(CHASE_RANDOM, 64, 0, 3);
    char *buf = aligned_alloc(64, bytes);
    void *start = chase_build(buf, bytes, &l);
    CHECK(chase_run(start, 100) == start);  /* full cycle */
    CHECK(chase_run(start, 1000) == start); /* ten cycles, exercising the unrolled loop */
    CHECK(chase_run(start, 1) == *(void **)start);
    CHECK(chase_run(start, 0) == start);
    free(buf);
}

TEST(chase_rejects_impossible_layouts)
{
    char buf[128];
    chase_layout l = layout_of(CHASE_RANDOM, 64, 0, 1);
    CHECK(chase_build(buf, 0, &l) == NULL);
    CHECK(chase_build(buf, 100, &l) == NULL);
    l.node_bytes = 4;
    CHECK(chase_build(buf, 64, &l) == NULL);
    l = layout_of(CHASE_PAGE_LOCAL, 64, 96, 1);
    CHECK(chase_build(buf, 128, &l) == NULL);
}

TEST(splitmix64_known_outputs)
{
    /* First outputs of splitmix64 seeded with 0: documented so other tools can
     * reproduce the chase order. */
    uint64_t s = 0;
    CHECK(splitmix64_next(&s) == 0xE220A8397B1DCDAFULL);
    CHECK(splitmix64_next(&s) == 0x6E789E6AA1B965F4ULL);
}

TEST(chase_order_for_a_seed_is_pinned)
{
    /* The first nodes of a random chain as membench has always built it: the same
     * --seed must give the same chain from one version to the next. */
    static const uint64_t expect[8] = {115, 738, 459, 37, 47, 511, 223, 88};
    chase_layout l = layout_of(CHASE_RANDOM, 64, 0, 12352);
    uint64_t *order = check_single_cycle(1 << 16, &l);
    for (size_t i = 0; i < 8; i++)
        CHECK_INT(order[i], expect[i]);
    free(order);
    /* the TLB-local chain as built since its lines were mixed within their chunks
     * (2026-12; before, every chunk of a pass at one line) */
    static const uint64_t expect_tlb[8] = {577, 566, 558, 531, 669, 737, 521, 688};
    l = layout_of(CHASE_TLB_LOCAL, 64, 16384, 12352);
    l.spread = CHASE_TLB_SPREAD;
    order = check_single_cycle(1 << 18, &l);
    for (size_t i = 0; i < 8; i++)
        CHECK_INT(order[i], expect_tlb[i]);
    free(order);
}

/* chase_build_part: parts run in any order (here last first) leave the buffer
 * exactly as chase_build does - every node's link, none left unwritten (the buffer
 * starts poisoned) - and each returns chase_build's start; more parts than groups
 * leaves some parts empty. */
static void check_parts_equal_whole(const chase_layout *l, size_t bytes, unsigned parts, const char *what)
{
    char *whole = aligned_alloc(64, bytes), *split = aligned_alloc(64, bytes);
    memset(split, 0xA5, bytes);
    void *start = chase_build(whole, bytes, l);
    bool starts = start != NULL;
    for (unsigned k = parts; k-- > 0;) {
        void *s = chase_build_part(split, bytes, l, k, parts);
        starts = starts && s != NULL && (char *)s - split == (char *)start - whole;
    }
    size_t wrong = 0, first = 0;
    for (size_t off = 0; off < bytes; off += l->node_bytes)
        if ((char *)*(void **)(whole + off) - whole != (char *)*(void **)(split + off) - split && wrong++ == 0)
            first = off;
    if (!starts || wrong)
        test_fail(__FILE__, __LINE__, "%s in %u parts: start %s, %zu links differ from the whole build (first at %zu)",
                  what, parts, starts ? "the same" : "differs", wrong, first);
    free(whole);
    free(split);
}

TEST(chase_built_in_parts_is_the_chain_built_whole)
{
    chase_layout random = layout_of(CHASE_RANDOM, 64, 0, 11), strided = layout_of(CHASE_STRIDED, 128, 0, 0);
    chase_layout pages = layout_of(CHASE_PAGE_LOCAL, 64, 4096, 12);
    chase_layout tlb = layout_of(CHASE_TLB_LOCAL, 64, 16384, 13); /* 64 chunks of 4 nodes a group */
    tlb.spread = 4;
    for (unsigned parts = 1; parts <= 9; parts++) {
        check_parts_equal_whole(&random, 64 * 1001, parts, "random, 1001 nodes");
        check_parts_equal_whole(&strided, 128 * 37, parts, "strided, 37 nodes");
        check_parts_equal_whole(&pages, 4096 * 7, parts, "page-local, 7 pages");
        check_parts_equal_whole(&tlb, 16384 * 5, parts, "TLB-local, 5 groups of 4 passes");
    }
    check_parts_equal_whole(&tlb, 16384 * 2, 13, "TLB-local, 8 places"); /* 5 parts with none */
    check_parts_equal_whole(&pages, 4096, 3, "page-local, one page");
    char buf[4096];
    CHECK(chase_build_part(buf, sizeof buf, &pages, 3, 3) == NULL);
    CHECK(chase_build_part(buf, sizeof buf, &pages, 0, 0) == NULL);
}

/* The chains a seed makes are part of what a run records (chase_seed): the same
 * seed links the same chain release to release, whatever the linking does to be
 * faster. Hashes of the visiting order (offsets from the buffer, FNV-1a, one
 * traversal from the start) as membench 0.2.0 linked them, before chase_build_part. */
static uint64_t chain_hash(const chase_layout *l, size_t bytes, size_t *start_off)
{
    char *buf = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096); /* C11: a multiple of the alignment */
    void *start = chase_build(buf, bytes, l), *p = start;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; p && i < bytes / l->node_bytes; i++) {
        h = (h ^ (uint64_t)((char *)p - buf)) * 1099511628211ULL;
        p = *(void **)p;
    }
    *start_off = start ? (size_t)((char *)start - buf) : (size_t)-1;
    free(buf);
    return h;
}

TEST(chase_orders_are_the_ones_a_seed_always_made)
{
    chase_layout tlb = layout_of(CHASE_TLB_LOCAL, 64, 16384, 13), tlb_default = layout_of(CHASE_TLB_LOCAL, 64, 262144, 1);
    tlb.spread = tlb_default.spread = 4;
    const struct {
        chase_layout l;
        size_t bytes, start;
        uint64_t hash;
    } want[] = {
        {layout_of(CHASE_RANDOM, 64, 0, 11), 64 * 1001, 21248, 0x5515d395056c66b9ULL},
        {layout_of(CHASE_PAGE_LOCAL, 64, 4096, 12), 4096 * 7, 4544, 0xc2dddbb232e3c803ULL},
        {tlb, 16384 * 5, 77696, 0x5abb6e89bd69c783ULL},
        {layout_of(CHASE_RANDOM, 64, 0, 1), 64 * 100000, 1155392, 0x872fbbc8eb553a03ULL},
        {tlb_default, 262144 * 9, 417472, 0x64c155ef92a18803ULL},
    };
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        size_t start;
        uint64_t h = chain_hash(&want[k].l, want[k].bytes, &start);
        if (h != want[k].hash || start != want[k].start)
            test_fail(__FILE__, __LINE__, "chain %zu (%s, %zu bytes): start %zu hash %016llx, want %zu %016llx", k,
                      chase_order_key(want[k].l.order), want[k].bytes, start, (unsigned long long)h, want[k].start,
                      (unsigned long long)want[k].hash);
    }
}
