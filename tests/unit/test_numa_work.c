/* SPDX-License-Identifier: MIT */
/* perf bench numa mem's per-buffer work (kernels/numa_work.h): the LFSR's values,
 * the order every sequential pass visits the words in (a read-modify-write over a
 * buffer of ones writes k + 1 into the k-th word visited, so the buffer shows the
 * order), the random walk's blocks against hand-computed seeds and against a plain
 * word-by-word model, the bytes counted for each access, the stop flag (also
 * mid-pass: the flag lives in a word the pass writes), and the edge cases. Every
 * buffer has a guard word on each side. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/numa_work.h"
#include "test.h"

#define GUARD 0xA5A5A5A5A5A5A5A5ULL
#define POLL ((size_t)NUMA_WORK_POLL_WORDS)
#define BLOCK ((size_t)NUMA_WORK_BLOCK_WORDS)

static const numa_access RMW = {.reads = true, .writes = true};
static const numa_access READ = {.reads = true};
static const numa_access WRITE = {.writes = true};

/* words words filled with fill, between two guard words; free with release(). */
static uint64_t *guarded(size_t words, uint64_t fill)
{
    uint64_t *b = malloc((words + 2) * sizeof *b);
    if (!b) {
        test_fail(__FILE__, __LINE__, "out of memory");
        exit(1);
    }
    b[0] = b[words + 1] = GUARD;
    for (size_t i = 0; i < words; i++)
        b[i + 1] = fill;
    return b + 1;
}

static bool guards_ok(const uint64_t *b, size_t words)
{
    return b[-1] == GUARD && b[words] == GUARD;
}

static void release(uint64_t *b)
{
    free(b - 1);
}

static size_t count_equal(const uint64_t *b, size_t lo, size_t hi, uint64_t x)
{
    size_t n = 0;
    for (size_t i = lo; i < hi; i++)
        n += b[i] == x;
    return n;
}

static numa_access with(numa_access a, bool backwards, bool random_walk, bool zero)
{
    a.backwards = backwards;
    a.random_walk = random_walk;
    a.zero = zero;
    return a;
}

/* A pointer to base with those three flags, for a call. */
#define WITH(base, backwards, random_walk, zero) ((const numa_access[]){with(base, backwards, random_walk, zero)})

/* ---- the LFSR ---- */

TEST(numa_lfsr_steps_from_known_states)
{
    /* By hand: shift right; if the bit shifted out was 1, xor 0x80000062. */
    CHECK(numa_work_lfsr(1) == 0x80000062u);
    CHECK(numa_work_lfsr(0x80000062u) == 0x40000031u);
    CHECK(numa_work_lfsr(0x40000031u) == 0xA000007Au);
    CHECK(numa_work_lfsr(0xA000007Au) == 0x5000003Du);
    CHECK(numa_work_lfsr(0x5000003Du) == 0xA800007Cu);
    CHECK(numa_work_lfsr(2) == 1u);
    CHECK(numa_work_lfsr(4000) == 2000u);
    CHECK(numa_work_lfsr(0xFFFFFFFFu) == (0x7FFFFFFFu ^ 0x80000062u));
    CHECK(numa_work_lfsr(0) == 0u); /* the fixed point the walk steps around */
}

TEST(numa_lfsr_has_no_short_cycle)
{
    uint32_t s = 1;
    bool ok = true;
    for (int i = 0; i < (1 << 20) && ok; i++) {
        s = numa_work_lfsr(s);
        ok = s != 0 && s != 1;
    }
    CHECK(ok);
}

/* ---- what each access counts and does ---- */

TEST(numa_pass_counts_the_bytes_of_each_access)
{
    const size_t words = 1000;
    struct {
        numa_access a;
        uint64_t read, written, processed; /* processed: perf's data, a word once whatever the access */
    } cases[] = {
        {RMW, 8000, 8000, 8000},
        {READ, 8000, 0, 8000},
        {WRITE, 0, 8000, 8000},
        {{.reads = false, .writes = false}, 0, 0, 0},
        {with(RMW, true, false, false), 8000, 8000, 8000},
        {with(READ, true, false, false), 8000, 0, 8000},
        {with(WRITE, true, false, false), 0, 8000, 8000},
        {with(RMW, false, false, true), 0, 8000, 8000}, /* zero: a memset, whatever R/W say */
        {with(READ, false, false, true), 0, 8000, 8000},
        {{.zero = true}, 0, 8000, 8000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (unsigned loop = 0; loop < 2; loop++) {
            uint64_t *b = guarded(words, 3);
            uint64_t v = 5;
            /* added to, not replaced */
            numa_pass_count c = {.bytes_processed = 50, .bytes_read = 100, .bytes_written = 200};
            numa_work_pass(b, words, &cases[i].a, 1, 3, loop, &v, NULL, &c);
            if (c.bytes_read != 100 + cases[i].read || c.bytes_written != 200 + cases[i].written ||
                c.bytes_processed != 50 + cases[i].processed || c.stopped)
                test_fail(__FILE__, __LINE__, "case %zu loop %u: read %llu written %llu processed %llu stopped %d", i,
                          loop, (unsigned long long)c.bytes_read, (unsigned long long)c.bytes_written,
                          (unsigned long long)c.bytes_processed, c.stopped);
            CHECK(guards_ok(b, words));
            release(b);
        }
    }
}

TEST(numa_pass_with_neither_reads_nor_writes_touches_nothing)
{
    const size_t words = 3000;
    numa_access none[] = {{.reads = false}, with((numa_access){0}, true, false, false),
                          with((numa_access){0}, false, true, false)};
    for (size_t i = 0; i < 3; i++) {
        uint64_t *b = guarded(words, 7);
        uint64_t v = 9;
        numa_pass_count c = {0};
        numa_work_pass(b, words, &none[i], 0, 1, 0, &v, NULL, &c);
        CHECK_INT(count_equal(b, 0, words, 7), words);
        CHECK_INT(v, 9);
        CHECK_INT(c.bytes_read + c.bytes_written, 0);
        release(b);
    }
}

TEST(numa_pass_read_only_sums_every_word_once_and_changes_nothing)
{
    const size_t words = 1000;
    uint64_t *b = guarded(words, 0);
    for (size_t i = 0; i < words; i++)
        b[i] = (uint64_t)1 << (i % 61) | (uint64_t)i << 48; /* a skipped or doubled word shows */
    uint64_t sum = 0;
    for (size_t i = 0; i < words; i++)
        sum += b[i];
    for (int backwards = 0; backwards < 2; backwards++)
        for (unsigned index = 0; index < 4; index++) {
            uint64_t v = 1000;
            numa_pass_count c = {0};
            numa_work_pass(b, words, &(numa_access){.reads = true, .backwards = backwards}, index, 4, 0, &v, NULL, &c);
            CHECK(v == 1000 + sum);
            CHECK_INT(c.bytes_read, words * 8);
        }
    for (size_t i = 0; i < words; i++)
        if (b[i] != ((uint64_t)1 << (i % 61) | (uint64_t)i << 48)) {
            test_fail(__FILE__, __LINE__, "read-only pass changed word %zu", i);
            break;
        }
    CHECK(guards_ok(b, words));
    release(b);
}

TEST(numa_pass_write_only_stores_value_plus_one_everywhere)
{
    const size_t words = 777;
    for (int backwards = 0; backwards < 2; backwards++) {
        uint64_t *b = guarded(words, 0);
        uint64_t v = 41;
        numa_pass_count c = {0};
        numa_work_pass(b, words, WITH(WRITE, backwards, false, false), 2, 5, 0, &v, NULL, &c);
        CHECK_INT(count_equal(b, 0, words, 42), words);
        CHECK_INT(v, 41); /* nothing read: the running value is unchanged */
        CHECK_INT(c.bytes_written, words * 8);
        CHECK_INT(c.bytes_read, 0);
        CHECK(guards_ok(b, words));
        release(b);
    }
}

TEST(numa_pass_zero_clears_the_whole_buffer_whatever_the_direction)
{
    const size_t words = 5000;
    numa_access zs[] = {with(RMW, false, false, true), with(RMW, true, false, true), with(READ, true, false, true),
                        {.zero = true}};
    for (size_t i = 0; i < 4; i++) {
        uint64_t *b = guarded(words, 0xFF);
        uint64_t v = 12;
        numa_pass_count c = {0};
        numa_work_pass(b, words, &zs[i], 3, 4, 2, &v, NULL, &c);
        CHECK_INT(count_equal(b, 0, words, 0), words);
        CHECK_INT(c.bytes_written, words * 8);
        CHECK_INT(c.bytes_read, 0);
        CHECK_INT(v, 12);
        CHECK(guards_ok(b, words));
        release(b);
    }
}

TEST(numa_pass_on_an_empty_buffer_does_nothing)
{
    numa_access all[] = {RMW, READ, WRITE, with(RMW, true, false, false), with(RMW, false, true, false),
                         with(RMW, false, false, true), with(RMW, false, true, true)};
    int stop = 1;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        uint64_t v = 17;
        numa_pass_count c = {0};
        numa_work_pass(NULL, 0, &all[i], 0, 1, 0, &v, NULL, &c);
        numa_work_pass(NULL, 0, &all[i], 0, 1, 0, &v, &stop, &c);
        CHECK_INT(v, 17);
        CHECK_INT(c.bytes_read + c.bytes_written, 0);
        CHECK(!c.stopped);
    }
}

/* ---- the sequential order ---- */

/* A read-modify-write over ones from value 0: the k-th word visited (k from 1)
 * reads 1 into the value and gets k + 1. Checks word (off + step * k) mod words
 * got k + 1 for every k in 1..words (so off itself comes last), and the value. */
static void check_order_in(const char *what, size_t words, unsigned index, unsigned count, uint64_t loop,
                           bool backwards, size_t off, int step, bool tight)
{
    uint64_t *b = guarded(words, 1);
    uint64_t v = 0;
    numa_pass_count c = {0};
    numa_access a = with(RMW, backwards, false, false);
    a.tight_loop = tight;
    numa_work_pass(b, words, &a, index, count, loop, &v, NULL, &c);
    size_t bad = 0, first_bad = 0;
    for (size_t k = 1; k <= words; k++) {
        size_t w = step > 0 ? (off + k) % words : (off + words - k % words) % words;
        if (b[w] != k + 1 && bad++ == 0)
            first_bad = k;
    }
    if (bad)
        test_fail(__FILE__, __LINE__, "%s: %zu words out of order, first the %zu-th visit", what, bad, first_bad);
    CHECK_INT(v, words);
    CHECK_INT(c.bytes_read, words * 8);
    CHECK_INT(c.bytes_written, words * 8);
    CHECK(guards_ok(b, words));
    release(b);
}

/* The same order from perf's word loop (the default) and from --tight-loop's. */
static void check_order(const char *what, size_t words, unsigned index, unsigned count, uint64_t loop, bool backwards,
                        size_t off, int step)
{
    check_order_in(what, words, index, count, loop, backwards, off, step, false);
    check_order_in(what, words, index, count, loop, backwards, off, step, true);
}

TEST(numa_pass_sequential_forward_starts_after_the_threads_share_and_ends_on_it)
{
    /* words / count = 142, so index 5 starts at 710 (not 5 * 1000 / 7 = 714). */
    check_order("forward, no -B", 1000, 5, 7, 0, false, 710, +1);
    check_order("forward, no -B, even index + loop", 1000, 5, 7, 1, false, 710, +1);
    check_order("-B, odd index + loop", 1000, 5, 7, 0, true, 710, +1);
    check_order("-B, odd loop", 1000, 0, 7, 3, true, 0, +1);
    check_order("last share", 1000, 6, 7, 1, false, 852, +1);
    check_order("index 0", 64, 0, 1, 0, false, 0, +1);
    check_order("one word", 1, 0, 1, 1, true, 0, +1);
    check_order("more threads than words", 3, 2, 8, 0, false, 0, +1);
}

TEST(numa_pass_sequential_backward_on_even_index_plus_loop)
{
    check_order("-B, even index + loop", 1000, 5, 7, 1, true, 710, -1);
    check_order("-B, index 2 loop 0", 1000, 2, 7, 0, true, 284, -1);
    check_order("-B, index 0 loop 0", 1000, 0, 7, 0, true, 0, -1);
    check_order("-B, large loop", 999, 1, 3, 1000001, true, 333, -1);
    check_order("-B, one word", 1, 0, 1, 0, true, 0, -1);
    check_order("-B, two words", 2, 1, 2, 1, true, 1, -1);
}

TEST(numa_pass_sequential_offset_is_reduced_into_the_buffer)
{
    /* index 10 of 3 over 100 words: 10 * 33 = 330, i.e. word 30; count 0 is taken as 1. */
    check_order("index past count", 100, 10, 3, 1, false, 30, +1);
    check_order("index past count, backward", 100, 10, 3, 0, true, 30, -1);
    check_order("count 0", 100, 3, 0, 0, false, 0, +1);
}

/* perf's word loop and the tight loop: the same words, values and counts for
 * every sequential access, in both directions, at sizes on both sides of a poll
 * chunk and with starts at the buffer's ends (where perf's wrap test fires). */
TEST(numa_pass_tight_loop_and_perfs_loop_do_the_same_work)
{
    const size_t sizes[] = {1, 2, 3, 1000, POLL - 1, POLL, POLL + 1, 3 * POLL + 5};
    const numa_access kinds[] = {RMW, READ, WRITE};
    const unsigned starts[][2] = {{0, 1}, {1, 2}, {2, 3}, {5, 7}};
    size_t cases = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t k = 0; k < 3; k++)
            for (size_t st = 0; st < 4; st++)
                for (uint64_t loop = 0; loop < 2; loop++) {
                    size_t words = sizes[z];
                    uint64_t *b[2], v[2];
                    numa_pass_count c[2] = {{0}, {0}};
                    for (int t = 0; t < 2; t++) {
                        b[t] = guarded(words, 0);
                        for (size_t i = 0; i < words; i++)
                            b[t][i] = i * 7 + 3;
                        v[t] = 11;
                        numa_access a = with(kinds[k], true, false, false);
                        a.tight_loop = t;
                        numa_work_pass(b[t], words, &a, starts[st][0], starts[st][1], loop, &v[t], NULL, &c[t]);
                    }
                    bool same = memcmp(b[0], b[1], words * 8) == 0 && v[0] == v[1] &&
                                c[0].bytes_processed == c[1].bytes_processed &&
                                c[0].bytes_read == c[1].bytes_read && c[0].bytes_written == c[1].bytes_written &&
                                c[0].bytes_processed == words * 8 && guards_ok(b[0], words) && guards_ok(b[1], words);
                    if (!same)
                        test_fail(__FILE__, __LINE__, "%zu words, access %zu, task %u of %u, loop %llu: the loops differ",
                                  words, k, starts[st][0], starts[st][1], (unsigned long long)loop);
                    cases += same;
                    release(b[0]);
                    release(b[1]);
                }
    CHECK_INT(cases, 8 * 3 * 4 * 2);
}

/* perf's loop reads its flags at every word (perf's compiler must: its stores may
 * alias them); the tight loop reads them once. With the flags inside a word the
 * pass writes, a write-only pass that writes 0 turns its own writes off there:
 * perf's loop leaves every word after it alone, the tight loop writes them all. */
static void flags_in_the_buffer(bool tight, bool backwards)
{
    const size_t words = 3 * POLL + 5, at = backwards ? words - 10 : 10;
    uint64_t *b = guarded(words, UINT64_MAX);
    numa_access a = {.writes = true, .backwards = backwards, .tight_loop = tight};
    memcpy(&b[at], &a, sizeof a);
    uint64_t v = UINT64_MAX; /* each word written gets v + 1 = 0 */
    numa_pass_count c = {0};
    numa_work_pass(b, words, (const numa_access *)(void *)&b[at], 0, 1, 0, &v, NULL, &c);
    /* forward from index 0: words 1, 2, ..., words - 1, then 0; backward: words - 1 down to 0 */
    size_t written = backwards ? count_equal(b, at, words, 0) : count_equal(b, 1, at + 1, 0);
    size_t after = backwards ? at : words - at;
    CHECK_INT(written, backwards ? words - at : at);
    CHECK_INT(count_equal(b, 0, words, 0), tight ? words : written);
    CHECK_INT(count_equal(b, 0, words, UINT64_MAX), tight ? 0 : after);
    CHECK_INT(c.bytes_processed, words * 8); /* every word visited either way */
    CHECK(guards_ok(b, words));
    release(b);
}

TEST(numa_pass_perfs_loop_reads_its_flags_at_every_word_the_tight_loop_once)
{
    flags_in_the_buffer(false, false);
    flags_in_the_buffer(false, true);
    flags_in_the_buffer(true, false);
    flags_in_the_buffer(true, true);
}

/* ---- the random walk ---- */

/* The walk, word by word: blocks from the LFSR as the header describes. */
static void model_walk(uint64_t *b, size_t words, const numa_access *a, uint32_t seed, uint64_t *v,
                       numa_pass_count *c)
{
    size_t blocks = words / BLOCK ? words / BLOCK : 1;
    uint32_t s = seed;
    for (size_t n = 0; n < blocks; n++) {
        s = numa_work_lfsr(s);
        if (s == 0)
            s = 1;
        for (size_t w = s % words, k = 0; k < BLOCK && w < words; k++, w++) {
            c->bytes_processed += 8;
            if (a->zero) {
                b[w] = 0;
                c->bytes_written += 8;
                continue;
            }
            if (a->reads) {
                *v += b[w];
                c->bytes_read += 8;
            }
            if (a->writes) {
                b[w] = *v + 1;
                c->bytes_written += 8;
            }
        }
    }
}

TEST(numa_random_walk_matches_the_word_by_word_model)
{
    size_t sizes[] = {1, 7, 1023, 1024, 1025, 4096, 10000, 3 * BLOCK + 1000};
    numa_access kinds[] = {with(RMW, false, true, false), with(READ, true, true, false),
                           with(WRITE, false, true, false), with(RMW, true, true, true)};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t ki = 0; ki < 4; ki++)
            for (unsigned index = 0; index < 3; index++) {
                size_t words = sizes[si];
                uint64_t *got = guarded(words, 0), *want = guarded(words, 0);
                for (size_t i = 0; i < words; i++)
                    got[i] = want[i] = i * 0x9E3779B97F4A7C15ULL;
                uint64_t gv = 0x123456789ULL + si, wv = gv;
                numa_pass_count gc = {0}, wc = {0};
                uint64_t loop = 3 + ki;
                numa_work_pass(got, words, &kinds[ki], index, 3, loop, &gv, NULL, &gc);
                model_walk(want, words, &kinds[ki], (uint32_t)(index + loop + wv), &wv, &wc);
                if (memcmp(got, want, words * 8) != 0 || gv != wv || gc.bytes_read != wc.bytes_read ||
                    gc.bytes_written != wc.bytes_written || gc.bytes_processed != wc.bytes_processed)
                    test_fail(__FILE__, __LINE__, "%zu words, access %zu, index %u: differs from the model", words,
                              ki, index);
                CHECK(guards_ok(got, words));
                release(got);
                release(want);
            }
}

TEST(numa_random_walk_is_deterministic_for_a_seed)
{
    const size_t words = 8 * BLOCK;
    uint64_t *b1 = guarded(words, 1), *b2 = guarded(words, 1);
    uint64_t v1 = 99, v2 = 99;
    numa_pass_count c1 = {0}, c2 = {0};
    for (uint64_t loop = 0; loop < 3; loop++) { /* each pass seeded from the last one's value */
        numa_work_pass(b1, words, WITH(RMW, false, true, false), 2, 4, loop, &v1, NULL, &c1);
        numa_work_pass(b2, words, WITH(RMW, false, true, false), 2, 4, loop, &v2, NULL, &c2);
    }
    CHECK(memcmp(b1, b2, words * 8) == 0);
    CHECK(v1 == v2);
    CHECK(v1 != 99);
    CHECK(c1.bytes_read == c2.bytes_read && c1.bytes_written == c2.bytes_written);
    CHECK(c1.bytes_read > 0);
    release(b1);
    release(b2);
}

/* Write-only from an even seed: lfsr(s) = s / 2, so the blocks are easy to place by hand. */
TEST(numa_random_walk_blocks_are_where_the_lfsr_says_and_clamp_at_the_end)
{
    const size_t words = 2048; /* two blocks */
    uint64_t *b = guarded(words, 0);
    uint64_t v = 4000; /* seed 0 + 0 + 4000: blocks at lfsr(4000) = 2000, then lfsr(2000) = 1000 */
    numa_pass_count c = {0};
    numa_work_pass(b, words, WITH(WRITE, false, true, false), 0, 1, 0, &v, NULL, &c);
    CHECK_INT(count_equal(b, 0, 1000, 0), 1000);
    CHECK_INT(count_equal(b, 1000, 2048, 4001), 1048); /* [2000, 2048) clamped, and [1000, 2024) */
    CHECK_INT(c.bytes_written, (48 + 1024) * 8);       /* overlap counted twice: it was written twice */
    CHECK_INT(c.bytes_read, 0);
    CHECK(guards_ok(b, words));
    release(b);

    /* The same with -Z: zeroes the blocks, counts them written, leaves the value. */
    b = guarded(words, 5);
    v = 4000;
    c = (numa_pass_count){0};
    numa_work_pass(b, words, WITH(RMW, false, true, true), 0, 1, 0, &v, NULL, &c);
    CHECK_INT(count_equal(b, 0, 1000, 5), 1000);
    CHECK_INT(count_equal(b, 1000, 2048, 0), 1048);
    CHECK_INT(c.bytes_written, (48 + 1024) * 8);
    CHECK_INT(c.bytes_read, 0);
    CHECK_INT(v, 4000);
    CHECK(guards_ok(b, words));
    release(b);

    /* Read-modify-write over ones: the first block, [2000, 2048), gets 4002, 4003, ...
     * (its first 24 words are visited again by the second block, from 1000 on). */
    b = guarded(words, 1);
    v = 4000;
    c = (numa_pass_count){0};
    numa_work_pass(b, words, WITH(RMW, false, true, false), 0, 1, 0, &v, NULL, &c);
    CHECK_INT(b[2024], 4026);
    CHECK_INT(b[2047], 4049); /* the last word is visited (perf stops one short) */
    CHECK_INT(b[1000], 4000 + 48 + 2);
    CHECK_INT(c.bytes_read, (48 + 1024) * 8);
    release(b);
}

TEST(numa_random_walk_seed_is_index_plus_loop_plus_value_in_32_bits)
{
    const size_t words = 2048;
    struct {
        unsigned index;
        uint64_t loop, value;
    } seeds[] = {{0, 0, 4000}, {1, 0, 3999}, {0, 1000, 3000}, {3, 997, 3000}, {0, 0, 4000 + ((uint64_t)1 << 32)},
                 {0, ((uint64_t)7 << 32) + 4000, 0}};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        uint64_t *b = guarded(words, 0);
        uint64_t v = seeds[i].value;
        numa_pass_count c = {0};
        numa_work_pass(b, words, WITH(WRITE, false, true, false), seeds[i].index, 4, seeds[i].loop, &v, NULL, &c);
        if (count_equal(b, 0, 1000, 0) != 1000 || count_equal(b, 1000, 2048, seeds[i].value + 1) != 1048)
            test_fail(__FILE__, __LINE__, "seed %zu: blocks not at 2000 and 1000", i);
        release(b);
    }
}

TEST(numa_random_walk_gives_a_small_buffer_one_block)
{
    /* 100 words, seed 60: one block from lfsr(60) = 30 to the end (perf: no block at all). */
    uint64_t *b = guarded(100, 0);
    uint64_t v = 59;
    numa_pass_count c = {0};
    numa_work_pass(b, 100, WITH(WRITE, false, true, false), 1, 2, 0, &v, NULL, &c);
    CHECK_INT(count_equal(b, 0, 30, 0), 30);
    CHECK_INT(count_equal(b, 30, 100, 60), 70);
    CHECK_INT(c.bytes_written, 70 * 8);
    CHECK(guards_ok(b, 100));
    release(b);

    /* 1025 words: still one block. */
    b = guarded(1025, 0);
    v = 2 * 1000;
    c = (numa_pass_count){0};
    numa_work_pass(b, 1025, WITH(WRITE, false, true, false), 0, 1, 0, &v, NULL, &c);
    CHECK_INT(count_equal(b, 0, 1000, 0), 1000);
    CHECK_INT(c.bytes_written, 25 * 8);
    release(b);
}

TEST(numa_random_walk_steps_off_a_zero_seed)
{
    /* Seed 0: lfsr(0) = 0 becomes 1, so block one is [1, 1025); block two is at
     * lfsr(1) = 0x80000062, i.e. word 98 of 2048. perf would put both at word 0. */
    const size_t words = 2048;
    uint64_t *b = guarded(words, 0);
    uint64_t v = 0;
    numa_pass_count c = {0};
    numa_work_pass(b, words, WITH(WRITE, false, true, false), 0, 1, 0, &v, NULL, &c);
    CHECK_INT(b[0], 0);
    CHECK_INT(count_equal(b, 1, 1122, 1), 1121);
    CHECK_INT(count_equal(b, 1122, words, 0), words - 1122);
    CHECK_INT(c.bytes_written, 2 * 1024 * 8);
    release(b);
}

/* ---- the stop flag ---- */

TEST(numa_pass_stop_already_raised_does_nothing)
{
    const size_t words = 3 * POLL;
    numa_access all[] = {RMW, READ, WRITE, with(RMW, true, false, false), with(RMW, false, true, false),
                         with(RMW, false, false, true), with(RMW, false, true, true)};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        uint64_t *b = guarded(words, 1);
        uint64_t v = 3;
        int stop = 1;
        numa_pass_count c = {0};
        numa_work_pass(b, words, &all[i], 0, 1, 0, &v, &stop, &c);
        CHECK(c.stopped);
        CHECK_INT(c.bytes_read + c.bytes_written, 0);
        CHECK_INT(count_equal(b, 0, words, 1), words);
        CHECK_INT(v, 3);
        release(b);
    }
}

TEST(numa_pass_stop_not_raised_lets_the_pass_finish)
{
    const size_t words = 3 * POLL + 5;
    numa_access all[] = {RMW, with(RMW, true, false, false), with(RMW, false, true, false),
                         with(RMW, false, false, true)};
    for (size_t i = 0; i < 4; i++) {
        uint64_t *b1 = guarded(words, 1), *b2 = guarded(words, 1);
        uint64_t v1 = 3, v2 = 3;
        int stop = 0;
        numa_pass_count c1 = {0}, c2 = {0};
        numa_work_pass(b1, words, &all[i], 1, 2, 0, &v1, &stop, &c1);
        numa_work_pass(b2, words, &all[i], 1, 2, 0, &v2, NULL, &c2);
        CHECK(!c1.stopped);
        CHECK(memcmp(b1, b2, words * 8) == 0);
        CHECK(v1 == v2);
        CHECK(c1.bytes_read == c2.bytes_read && c1.bytes_written == c2.bytes_written);
        CHECK(c1.bytes_written > 0);
        c1.stopped = true; /* counts add up over passes: a stop seen earlier is never cleared */
        numa_work_pass(b1, words, &all[i], 1, 2, 1, &v1, &stop, &c1);
        CHECK(c1.stopped);
        release(b1);
        release(b2);
    }
}

/* The flag is an int inside a word the pass writes (0x100000001: non-zero in
 * either half, whatever the byte order), so it rises mid-pass at a known word. */
static const volatile int *flag_in(uint64_t *word)
{
    return (const volatile int *)(void *)word;
}

TEST(numa_pass_stop_raised_mid_pass_ends_it_at_the_next_poll)
{
    const size_t words = 4 * POLL;
    const uint64_t x = ((uint64_t)1 << 32) + 1;
    /* Forward from word 0: word k is the k-th visited, so word POLL + 100 is written
     * in the second poll chunk and the pass stops after exactly 2 * POLL words. */
    uint64_t *b = guarded(words, 0);
    uint64_t v = x - 1;
    numa_pass_count c = {0};
    numa_work_pass(b, words, &WRITE, 0, 1, 0, &v, flag_in(&b[POLL + 100]), &c);
    CHECK(c.stopped);
    CHECK_INT(c.bytes_written, 2 * POLL * 8);
    CHECK_INT(count_equal(b, 1, 2 * POLL + 1, x), 2 * POLL);
    CHECK_INT(count_equal(b, 2 * POLL + 1, words, 0), words - 2 * POLL - 1);
    CHECK_INT(b[0], 0);
    release(b);

    /* Backward (index 0, loop 0, -B) from word 0: words - 1 down; the flag in
     * word words - 1 - POLL is the (POLL + 1)-th visited: stop after 2 * POLL. */
    b = guarded(words, 0);
    v = x - 1;
    c = (numa_pass_count){0};
    numa_work_pass(b, words, WITH(WRITE, true, false, false), 0, 1, 0, &v, flag_in(&b[words - 1 - POLL]), &c);
    CHECK(c.stopped);
    CHECK_INT(c.bytes_written, 2 * POLL * 8);
    CHECK_INT(count_equal(b, words - 2 * POLL, words, x), 2 * POLL);
    CHECK_INT(count_equal(b, 0, words - 2 * POLL, 0), words - 2 * POLL);
    release(b);

    /* Read-modify-write: the bytes read stop with the bytes written. */
    b = guarded(words, 0);
    v = x - 1;
    c = (numa_pass_count){0};
    numa_work_pass(b, words, &RMW, 0, 1, 0, &v, flag_in(&b[3 * POLL]), &c);
    CHECK(c.stopped);
    CHECK_INT(c.bytes_read, 3 * POLL * 8);
    CHECK_INT(c.bytes_written, 3 * POLL * 8);
    CHECK_INT(b[3 * POLL + 1], 0);
    release(b);
}

TEST(numa_random_walk_stop_raised_mid_pass_ends_it_at_the_next_poll)
{
    /* 256 blocks; the flag sits at the first block's first word, so the pass
     * stops after the first poll chunk, i.e. its first POLL / BLOCK blocks. */
    const size_t words = 4 * POLL;
    const uint64_t x = ((uint64_t)1 << 32) + 1;
    uint64_t v = x - 1;
    uint32_t seed = (uint32_t)(2 + 5 + v);
    size_t first = numa_work_lfsr(seed) % words;
    uint64_t *b = guarded(words, 0), *want = guarded(words, 0);
    numa_pass_count c = {0};
    numa_work_pass(b, words, WITH(WRITE, false, true, false), 2, 4, 5, &v, flag_in(&b[first]), &c);
    CHECK(c.stopped);
    CHECK_INT(c.bytes_written, POLL * 8);
    uint32_t s = seed;
    for (size_t n = 0; n < POLL / BLOCK; n++) {
        s = numa_work_lfsr(s);
        for (size_t w = s % words, k = 0; k < BLOCK && w < words; k++, w++)
            want[w] = x;
    }
    CHECK(memcmp(b, want, words * 8) == 0);
    release(b);
    release(want);
}

TEST(numa_pass_zeroing_stops_at_a_raised_flag)
{
    const size_t words = 2 * POLL;
    uint64_t *b = guarded(words, 1);
    uint64_t v = 0;
    int stop = 1;
    numa_pass_count c = {0};
    numa_work_pass(b, words, &(numa_access){.zero = true}, 0, 1, 0, &v, &stop, &c);
    CHECK(c.stopped);
    CHECK_INT(c.bytes_written, 0);
    CHECK_INT(count_equal(b, 0, words, 1), words);
    release(b);
}
