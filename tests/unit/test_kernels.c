/* SPDX-License-Identifier: MIT */
/* The kernel table and the chooser. Every sweep kernel this CPU can run is checked
 * against plain C reference loops, at sizes from one block to several MiB, with
 * guard words around the target; every descriptor row is checked for consistency;
 * the choice rules are checked against the ISA table. Expectations are derived from
 * the tables, so adding an ISA touches no test; the only ISAs named are the portable
 * baselines ("c", "libc") and, in one test, the measured AVX-512 -> AVX2 policy.
 * (STREAM's kernels computing the right thing: test_stream.c.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/isa.h"
#include "kernels/kernel.h"
#include "memory/buffer.h"
#include "test.h"

#define GUARD 64 /* bytes before and after each buffer */
#define GUARD_BYTE 0xA5
#define PATTERN 0x1122334455667788ULL

static uint64_t reference_xor(const uint64_t *w, size_t words)
{
    uint64_t x = 0;
    for (size_t i = 0; i < words; i++)
        x ^= w[i];
    return x;
}

static bool guards_intact(const unsigned char *base, size_t bytes)
{
    for (size_t i = 0; i < GUARD; i++)
        if (base[i] != GUARD_BYTE || base[GUARD + bytes + i] != GUARD_BYTE)
            return false;
    return true;
}

/* Checks the kernel's output the way its descriptor says it is verified. */
static void check_output(const kernel *k, uint64_t ret, const uint64_t *src, const uint64_t *dst, size_t bytes)
{
    size_t words = bytes / 8;
    switch (k->verify) {
    case VERIFY_SOURCE_XOR:
        if (ret != reference_xor(src, words))
            test_fail(__FILE__, __LINE__, "%s %s of %zu bytes: wrong XOR", k->isa, k->name, bytes);
        break;
    case VERIFY_PATTERN:
        for (size_t i = 0; i < words; i++)
            if (dst[i] != PATTERN) {
                test_fail(__FILE__, __LINE__, "%s %s: word %zu not written", k->isa, k->name, i);
                break;
            }
        break;
    case VERIFY_EQUALS_SOURCE:
        if (memcmp(dst, src, bytes) != 0)
            test_fail(__FILE__, __LINE__, "%s %s of %zu bytes: destination differs", k->isa, k->name, bytes);
        break;
    default:
        test_fail(__FILE__, __LINE__, "%s %s: a sweep kernel with STREAM's verification", k->isa, k->name);
        break;
    }
}

static void check_kernel(const kernel *k, size_t bytes)
{
    /* the harness allocates only the streams the row declares: run nothing that
     * would touch one it did not declare */
    bool needs_in = k->verify != VERIFY_PATTERN, needs_out = k->verify != VERIFY_SOURCE_XOR;
    if ((needs_in && k->reads != 1) || (needs_out && k->writes != 1)) {
        test_fail(__FILE__, __LINE__, "%s %s: %d read and %d written streams for %s verification", k->isa, k->name,
                  k->reads, k->writes, kernel_verify_name(k->verify));
        return;
    }
    unsigned char *a = aligned_alloc(KERNEL_ALIGN, bytes + 2 * GUARD);
    unsigned char *b = aligned_alloc(KERNEL_ALIGN, bytes + 2 * GUARD);
    if (!a || !b) {
        CHECK(!"allocation");
        free(a);
        free(b);
        return;
    }
    memset(a, GUARD_BYTE, bytes + 2 * GUARD);
    memset(b, GUARD_BYTE, bytes + 2 * GUARD);
    uint64_t *src = (uint64_t *)(void *)(a + GUARD), *dst = (uint64_t *)(void *)(b + GUARD);
    size_t words = bytes / 8;
    for (size_t i = 0; i < words; i++) {
        src[i] = pattern_word(42, i);
        dst[i] = ~pattern_word(7, i);
    }
    const kernel_args args = {.out = k->writes ? dst : NULL, .in = {k->reads ? src : NULL}, .bytes = bytes,
                              .pattern = PATTERN};
    check_output(k, k->fn(&args), src, dst, bytes);
    if (!guards_intact(a, bytes) || !guards_intact(b, bytes))
        test_fail(__FILE__, __LINE__, "%s %s wrote outside its %zu bytes", k->isa, k->name, bytes);
    free(a);
    free(b);
}

/* The operation id within the row's family (mb_op or stream_func). */
static int op_of(const kernel *k)
{
    return k->family == KERNEL_SWEEP ? (int)k->op : (int)k->stream_op;
}

/* The kind of stores a sweep operation implies. */
static kernel_store sweep_stores(mb_op op)
{
    switch (op) {
    case OP_READ:
        return STORE_LOADS_ONLY;
    case OP_WRITE_NT:
    case OP_COPY_NT:
        return STORE_NONTEMPORAL;
    case OP_MEMCPY:
        return STORE_LIBC;
    default:
        return STORE_REGULAR;
    }
}

TEST(every_supported_sweep_kernel_matches_reference)
{
    size_t n;
    const kernel *table = kernel_table(&n);
    const size_t sizes[] = {KERNEL_BLOCK, 4096, 65536 + KERNEL_BLOCK, 3u << 20};
    int run = 0;
    for (size_t i = 0; i < n; i++) {
        if (table[i].family != KERNEL_SWEEP || !isa_supported(table[i].isa))
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            check_kernel(&table[i], sizes[s]);
        run++;
    }
    CHECK(run >= 4); /* at least c read/write/copy and libc memcpy */
}

TEST(every_descriptor_row_is_consistent)
{
    size_t n;
    const kernel *t = kernel_table(&n);
    for (size_t i = 0; i < n; i++) {
        const kernel *k = &t[i];
        CHECK(k->fn != NULL && k->name != NULL);
        CHECK(isa_find(k->isa) != NULL);
        CHECK_STR(k->store, kernel_store_name(k->stores));
        CHECK(k->stores != STORE_ANY);
        CHECK(k->writes <= 1 && k->reads <= 2 && k->reads + k->writes >= 1);
        CHECK((k->stores == STORE_LOADS_ONLY) == (k->writes == 0));
        CHECK(k->granule > 0 && k->granule % 8 == 0 && k->alignment % 8 == 0);
        if (k->family == KERNEL_SWEEP) {
            CHECK_STR(k->name, op_name(k->op));
            CHECK_INT(k->counted_bytes, 8); /* the buffer size once per pass, as sc-membench */
            CHECK_INT(k->granule, KERNEL_BLOCK);
            CHECK_INT(k->alignment, KERNEL_ALIGN);
            CHECK_INT(k->reads, op_buffers(k->op) == 2 || k->op == OP_READ);
            CHECK_INT(k->writes, k->op != OP_READ);
            CHECK_INT(k->stores, sweep_stores(k->op));
            CHECK_INT(k->verify, k->op == OP_READ                                  ? VERIFY_SOURCE_XOR
                                 : k->op == OP_WRITE || k->op == OP_WRITE_NT ? VERIFY_PATTERN
                                                                              : VERIFY_EQUALS_SOURCE);
        } else {
            static const char *const names[STREAM_NFUNCS] = {"copy", "scale", "add", "triad"};
            CHECK_INT(k->family, KERNEL_STREAM);
            CHECK((unsigned)k->stream_op < STREAM_NFUNCS);
            if ((unsigned)k->stream_op < STREAM_NFUNCS)
                CHECK_STR(k->name, names[k->stream_op]);
            /* Copy and Scale read one array, Add and Triad two; all write one */
            CHECK_INT(k->reads, k->stream_op == STREAM_ADD || k->stream_op == STREAM_TRIAD ? 2 : 1);
            CHECK_INT(k->writes, 1);
            CHECK(k->stores == STORE_REGULAR || k->stores == STORE_NONTEMPORAL);
            CHECK_INT(k->counted_bytes, 8 * (k->reads + k->writes)); /* STREAM counts every stream */
            CHECK_INT(k->granule, sizeof(double));
            CHECK_INT(k->verify, VERIFY_STREAM_REPLAY);
        }
        for (size_t j = 0; j < i; j++) /* one row per family, operation, stores and ISA */
            if (t[j].family == k->family && op_of(&t[j]) == op_of(k) && t[j].stores == k->stores &&
                !strcmp(t[j].isa, k->isa))
                test_fail(__FILE__, __LINE__, "%s %s %s listed twice", k->isa, k->name, k->store);
    }
    CHECK_INT(kernel_bytes_counted(&t[0], 4096), t[0].counted_bytes * 512);
}

TEST(isa_table_and_the_lists_derived_from_it)
{
    size_t n;
    const isa_info *isas = isa_table(&n);
    char usable[256] = "", choices[256] = "", buf[256];
    const char *const *names = isa_choice_names();
    size_t nnames = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK_INT(isa_rank(isas[i].name), i);
        CHECK(isa_find(isas[i].name) == &isas[i]);
        CHECK_INT(isa_supported(isas[i].name), isas[i].supported());
        CHECK(isas[i].description && *isas[i].description);
        CHECK(!isas[i].beyond_llc || isa_rank(isas[i].beyond_llc) > (int)i);
        if (!isas[i].forcible)
            continue;
        CHECK_STR(names[nnames++], isas[i].name);
        snprintf(choices + strlen(choices), sizeof choices - strlen(choices), "%s%s", *choices ? ", " : "",
                 isas[i].name);
        if (isas[i].supported())
            snprintf(usable + strlen(usable), sizeof usable - strlen(usable), "%s%s", *usable ? "," : "",
                     isas[i].name);
    }
    CHECK(names[nnames] == NULL);
    CHECK_STR(isa_usable_list(), usable);
    CHECK_STR(isa_choices(buf, sizeof buf), choices);
    CHECK(isa_supported("c") && isa_rank("c") >= 0);
    CHECK(!isa_supported("bogus") && isa_find("bogus") == NULL && isa_rank("bogus") == -1);
    isa_choices(buf, 5); /* truncated, still terminated */
    CHECK(strlen(buf) == 4 && strncmp(buf, choices, 4) == 0);
}

/* The kernel the chooser should give, derived from the ISA and kernel tables. */
static const kernel *expected_choice(kernel_family family, int op, kernel_store stores, bool beyond)
{
    size_t n;
    const isa_info *isas = isa_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (!isas[i].supported())
            continue;
        const kernel *k = kernel_choose(family, op, stores, isas[i].name, false);
        if (!k)
            continue;
        const char *instead = isa_beyond_llc(&isas[i], k->stores == STORE_NONTEMPORAL);
        const kernel *alt = beyond && instead ? kernel_choose(family, op, stores, instead, false) : NULL;
        return alt ? alt : k;
    }
    return NULL;
}

TEST(chooser_prefers_the_best_isa_and_its_replacement_beyond_the_llc_share)
{
    size_t n;
    const kernel *t = kernel_table(&n);
    for (size_t i = 0; i < n; i++) {
        const kernel *k = &t[i];
        int op = op_of(k);
        for (int beyond = 0; beyond < 2; beyond++)
            CHECK(kernel_choose(k->family, op, k->stores, NULL, beyond) ==
                  expected_choice(k->family, op, k->stores, beyond));
        /* a forced ISA is used at every size, and only where this CPU runs it */
        const kernel *forced = isa_supported(k->isa) ? k : NULL;
        CHECK(kernel_choose(k->family, op, k->stores, k->isa, false) == forced);
        CHECK(kernel_choose(k->family, op, k->stores, k->isa, true) == forced);
        /* the sweep asks with STORE_ANY (its operations imply their stores) */
        if (k->family == KERNEL_SWEEP) {
            CHECK(kernel_choose(KERNEL_SWEEP, op, STORE_ANY, k->isa, true) == forced);
            for (int beyond = 0; beyond < 2; beyond++)
                CHECK(kernel_choose(KERNEL_SWEEP, op, STORE_ANY, NULL, beyond) ==
                      expected_choice(KERNEL_SWEEP, op, STORE_ANY, beyond));
        }
    }
    CHECK(kernel_choose(KERNEL_SWEEP, OP_READ, STORE_ANY, "bogus", false) == NULL);
    CHECK(kernel_choose(KERNEL_SWEEP, OP_LATENCY, STORE_ANY, NULL, false) == NULL); /* the chase, not a row */
}

/* The policy BENCHMARKS.md measured: AVX-512 in cache; beyond the LLC share AVX2 on
 * AMD family 19h (Zen 4: AVX2 faster from DRAM there) and AVX-512 elsewhere (an Intel
 * Xeon read 11% faster with it), for every kernel both ISAs have, in both families.
 * Checked on CPUs with both. */
static bool zen4_family(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") && __builtin_cpu_is("amdfam19h");
#else
    return false;
#endif
}

TEST(chooser_uses_avx2_instead_of_avx512_beyond_the_llc_share_on_zen4_only)
{
    const isa_info *avx512 = isa_find("avx512");
    CHECK(avx512 && avx512->beyond_llc && !strcmp(avx512->beyond_llc, "avx2"));
    CHECK(avx512 && (isa_beyond_llc(avx512, false) != NULL) == zen4_family());
    CHECK(avx512 && isa_beyond_llc(avx512, true) && !strcmp(isa_beyond_llc(avx512, true), "avx2"));
    size_t nisa;
    const isa_info *isas = isa_table(&nisa);
    for (size_t i = 0; i < nisa; i++) /* no other row has a replacement */
        CHECK(&isas[i] == avx512 || (isa_beyond_llc(&isas[i], false) == NULL && isa_beyond_llc(&isas[i], true) == NULL));
    if (!isa_supported("avx512") || !isa_supported("avx2"))
        return;
    bool zen4 = zen4_family();
    size_t n;
    const kernel *t = kernel_table(&n);
    int pairs = 0;
    for (size_t i = 0; i < n; i++) {
        const kernel *k = &t[i];
        int op = op_of(k);
        if (strcmp(k->isa, "avx512") != 0 || !kernel_choose(k->family, op, k->stores, "avx2", false))
            continue;
        const kernel *in_cache = kernel_choose(k->family, op, k->stores, NULL, false);
        const kernel *beyond = kernel_choose(k->family, op, k->stores, NULL, true);
        CHECK(in_cache == k);
        const char *want = zen4 || k->stores == STORE_NONTEMPORAL ? "avx2" : "avx512";
        CHECK(beyond && !strcmp(beyond->isa, want) && beyond->stores == k->stores && op_of(beyond) == op);
        pairs++;
    }
    CHECK(pairs >= 5 + 8); /* sweep read, write, copy, write-nt, copy-nt; STREAM 4 x 2 stores */
}

/* What the harnesses run when no vector ISA is there: every sweep operation but the
 * non-temporal ones (C has no portable streaming store) and every STREAM kernel
 * with regular stores has a row of an ISA every CPU runs, so the chooser never
 * comes back empty for them. */
TEST(portable_rows_cover_what_the_harnesses_need)
{
    static const struct {
        kernel_family family;
        int op;
        kernel_store stores;
        const char *isa;
    } needed[] = {
        {KERNEL_SWEEP, OP_READ, STORE_LOADS_ONLY, "c"},    {KERNEL_SWEEP, OP_WRITE, STORE_REGULAR, "c"},
        {KERNEL_SWEEP, OP_COPY, STORE_REGULAR, "c"},       {KERNEL_SWEEP, OP_MEMCPY, STORE_LIBC, "libc"},
        {KERNEL_STREAM, STREAM_COPY, STORE_REGULAR, "c"},  {KERNEL_STREAM, STREAM_SCALE, STORE_REGULAR, "c"},
        {KERNEL_STREAM, STREAM_ADD, STORE_REGULAR, "c"},   {KERNEL_STREAM, STREAM_TRIAD, STORE_REGULAR, "c"},
    };
    size_t n;
    const kernel *t = kernel_table(&n);
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        CHECK(isa_supported(needed[i].isa));
        int rows = 0;
        for (size_t j = 0; j < n; j++)
            rows += t[j].family == needed[i].family && op_of(&t[j]) == needed[i].op &&
                    t[j].stores == needed[i].stores && !strcmp(t[j].isa, needed[i].isa);
        if (rows != 1)
            test_fail(__FILE__, __LINE__, "%s operation %d with %s stores: %d rows of ISA %s, want 1",
                      kernel_family_name(needed[i].family), needed[i].op, kernel_store_name(needed[i].stores), rows,
                      needed[i].isa);
        for (int beyond = 0; beyond < 2; beyond++)
            CHECK(kernel_choose(needed[i].family, needed[i].op, needed[i].stores, NULL, beyond) != NULL);
    }
    /* every row's ISA is a row of the ISA table, and the sweep's forcible ISAs are
     * forcible in STREAM too (checked in test_stream.c) */
    for (size_t j = 0; j < n; j++)
        if (!isa_find(t[j].isa))
            test_fail(__FILE__, __LINE__, "%s %s: ISA '%s' is not in the ISA table", kernel_family_name(t[j].family),
                      t[j].name, t[j].isa);
    for (int f = 0; f < STREAM_NFUNCS; f++)
        CHECK(kernel_choose(KERNEL_STREAM, f, STORE_NONTEMPORAL, "c", false) == NULL);
    CHECK(kernel_choose(KERNEL_SWEEP, OP_WRITE_NT, STORE_ANY, "c", false) == NULL);
}

TEST(kernel_enum_names)
{
    CHECK_STR(kernel_family_name(KERNEL_SWEEP), "sweep");
    CHECK_STR(kernel_family_name(KERNEL_STREAM), "stream");
    CHECK_STR(kernel_store_name(STORE_LOADS_ONLY), "loads");
    CHECK_STR(kernel_store_name(STORE_REGULAR), "regular");
    CHECK_STR(kernel_store_name(STORE_NONTEMPORAL), "non-temporal");
    CHECK_STR(kernel_store_name(STORE_LIBC), "libc");
    CHECK_STR(kernel_verify_name(VERIFY_STREAM_REPLAY), "stream-replay");
    CHECK_STR(kernel_family_name((kernel_family)99), "?");
}

TEST(operation_names_round_trip)
{
    for (int op = 0; op < OP_COUNT; op++) {
        mb_op parsed;
        CHECK(op_parse(op_name((mb_op)op), &parsed));
        CHECK_INT(parsed, op);
    }
    mb_op x;
    CHECK(!op_parse("bogus", &x));
    CHECK(!op_parse("READ", &x));
    CHECK_INT(op_buffers(OP_COPY), 2);
    CHECK_INT(op_buffers(OP_COPY_NT), 2);
    CHECK_INT(op_buffers(OP_READ), 1);
    CHECK_INT(op_buffers(OP_WRITE_NT), 1);
}
