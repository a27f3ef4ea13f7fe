/* Every kernel this CPU can run is checked against plain C reference loops, at
 * sizes from one block to several MiB, with guard words around the target. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "memory/buffer.h"
#include "test.h"

#define GUARD 64 /* bytes before and after each buffer */
#define GUARD_BYTE 0xA5

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

static void check_kernel(const kernel *k, size_t bytes)
{
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
    uint64_t ret = k->fn(dst, src, bytes, 0x1122334455667788ULL);
    switch (k->op) {
    case OP_READ:
        if (ret != reference_xor(src, words))
            test_fail(__FILE__, __LINE__, "%s read of %zu bytes: wrong XOR", k->isa, bytes);
        break;
    case OP_WRITE:
    case OP_WRITE_NT:
        for (size_t i = 0; i < words; i++)
            if (dst[i] != 0x1122334455667788ULL) {
                test_fail(__FILE__, __LINE__, "%s %s: word %zu not written", k->isa, op_name(k->op), i);
                break;
            }
        break;
    default:
        if (memcmp(dst, src, bytes) != 0)
            test_fail(__FILE__, __LINE__, "%s %s of %zu bytes: destination differs", k->isa, op_name(k->op), bytes);
        break;
    }
    if (!guards_intact(a, bytes) || !guards_intact(b, bytes))
        test_fail(__FILE__, __LINE__, "%s %s wrote outside its %zu bytes", k->isa, op_name(k->op), bytes);
    free(a);
    free(b);
}

TEST(every_supported_kernel_matches_reference)
{
    size_t n;
    const kernel *table = kernel_table(&n);
    const size_t sizes[] = {KERNEL_BLOCK, 4096, 65536 + KERNEL_BLOCK, 3u << 20};
    int run = 0;
    for (size_t i = 0; i < n; i++) {
        if (!kernel_isa_supported(table[i].isa))
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            check_kernel(&table[i], sizes[s]);
        run++;
    }
    CHECK(run >= 4); /* at least c read/write/copy and libc memcpy */
}

TEST(portable_c_kernels_exist_for_base_operations)
{
    CHECK(kernel_select(OP_READ, "c") != NULL);
    CHECK(kernel_select(OP_WRITE, "c") != NULL);
    CHECK(kernel_select(OP_COPY, "c") != NULL);
    CHECK(kernel_select(OP_MEMCPY, NULL) != NULL);
    CHECK(kernel_select(OP_WRITE_NT, "c") == NULL); /* portable C has no streaming stores */
    CHECK(kernel_select(OP_LATENCY, NULL) == NULL); /* latency is the chase, not a table kernel */
}

TEST(best_kernel_is_the_widest_supported_isa)
{
    const kernel *k = kernel_select(OP_READ, NULL);
    CHECK(k != NULL);
#if defined(__x86_64__)
    if (kernel_isa_supported("avx512"))
        CHECK_STR(k->isa, "avx512");
    else if (kernel_isa_supported("avx2"))
        CHECK_STR(k->isa, "avx2");
    else
        CHECK_STR(k->isa, "sse2");
    CHECK(kernel_select(OP_COPY_NT, NULL) != NULL);
#elif defined(__aarch64__)
    CHECK_STR(k->isa, "neon");
    CHECK_STR(kernel_select(OP_WRITE, NULL)->isa, "neon");
    CHECK_STR(kernel_select(OP_COPY, NULL)->isa, "neon");
    CHECK_STR(kernel_select_for_size(OP_COPY, NULL, 1)->isa, "neon");
    CHECK(kernel_select(OP_WRITE_NT, NULL) == NULL); /* no non-temporal kernel on arm64 */
    CHECK(strncmp(kernel_isa_list(), "neon,", 5) == 0);
#else
    CHECK_STR(k->isa, "c");
    CHECK(!kernel_isa_supported("neon") && !kernel_isa_supported("avx2"));
    CHECK_STR(kernel_isa_list(), "c");
#endif
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
