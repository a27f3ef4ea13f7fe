#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/chase.h"
#include "test.h"

/* Walks the chain n steps from start: every node must be visited exactly once and
 * the walk must be back at start after n steps (one cycle through all nodes). */
static void check_single_cycle(size_t bytes, size_t stride, uint64_t seed)
{
    char *buf = aligned_alloc(64, bytes);
    void *start = chase_build(buf, bytes, stride, seed);
    CHECK(start != NULL);
    size_t n = bytes / stride;
    unsigned char *seen = calloc(n, 1);
    void *p = start;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        size_t off = (size_t)((char *)p - buf);
        ok = off % stride == 0 && off / stride < n && !seen[off / stride];
        if (ok)
            seen[off / stride] = 1;
        p = *(void **)p;
    }
    if (!ok)
        test_fail(__FILE__, __LINE__, "chain of %zu nodes (stride %zu) revisits a node or leaves the buffer", n,
                  stride);
    CHECK(p == start);
    free(seen);
    free(buf);
}

TEST(chase_is_one_cycle_through_every_node)
{
    check_single_cycle(64, 64, 1); /* a single node pointing to itself */
    check_single_cycle(4096, 64, 1);
    check_single_cycle(1 << 20, 64, 12345);
    check_single_cycle(1 << 20, 128, 7);
    check_single_cycle(3 * 4096, 4096, 99);
}

TEST(chase_order_is_repeatable_and_seeded)
{
    size_t bytes = 1 << 16;
    char *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes);
    void *sa = chase_build(a, bytes, 64, 5), *sb = chase_build(b, bytes, 64, 5);
    CHECK((char *)sa - a == (char *)sb - b);
    bool same = true;
    for (size_t i = 0; i < bytes / 64; i++)
        same = same && (char *)*(void **)(a + i * 64) - a == (char *)*(void **)(b + i * 64) - b;
    CHECK(same);
    chase_build(b, bytes, 64, 6);
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
    char *buf = aligned_alloc(64, bytes);
    void *start = chase_build(buf, bytes, 64, 3);
    CHECK(chase_run(start, 100) == start);   /* full cycle */
    CHECK(chase_run(start, 1000) == start);  /* ten cycles, exercising the unrolled loop */
    CHECK(chase_run(start, 1) == *(void **)start);
    CHECK(chase_run(start, 0) == start);
    free(buf);
}

TEST(chase_rejects_impossible_layouts)
{
    char buf[64];
    CHECK(chase_build(buf, 0, 64, 1) == NULL);
    CHECK(chase_build(buf, 64, 4, 1) == NULL);
}

TEST(chase_random_is_splitmix64)
{
    /* First outputs of splitmix64 seeded with 0: documented so other tools can
     * reproduce the chase order. */
    uint64_t s = 0;
    CHECK(chase_random(&s) == 0xE220A8397B1DCDAFULL);
    CHECK(chase_random(&s) == 0x6E789E6AA1B965F4ULL);
}
