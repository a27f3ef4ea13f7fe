/* SPDX-License-Identifier: MIT */
/* memory/smaps: the index of /proc/self/smaps the huge-page coverage of every
 * buffer is read from. What a user is promised: the share of each buffer in huge
 * pages, THP or hugetlb, whatever mappings it spans and however many exist. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/smaps.h"
#include "test.h"

TEST(smaps_huge_fraction_counts_overlap)
{
    const char *smaps = "7f0000000000-7f0000400000 rw-p 00000000 00:00 0 \n"
                        "Size:               4096 kB\n"
                        "AnonHugePages:      2048 kB\n"
                        "7f0000400000-7f0000600000 rw-p 00000000 00:00 0 \n"
                        "Size:               2048 kB\n"
                        "AnonHugePages:         0 kB\n"
                        "Private_Hugetlb:       0 kB\n";
    CHECK_NEAR(smaps_huge_fraction(smaps, 0x7f0000000000, 4 << 20), 0.5, 1e-12);
    CHECK_NEAR(smaps_huge_fraction(smaps, 0x7f0000000000, 6 << 20), 1.0 / 3.0, 1e-12);
    CHECK_NEAR(smaps_huge_fraction(smaps, 0x7f0000400000, 2 << 20), 0, 0);
    CHECK_NEAR(smaps_huge_fraction(smaps, 0x100000, 4096), -1, 0); /* no mapping there */
    const char *hugetlb = "7e0000000000-7e0000400000 rw-p 00000000 00:0f 1234 /anon_hugepage (deleted)\n"
                          "Size:               4096 kB\n"
                          "KernelPageSize:     2048 kB\n"
                          "Private_Hugetlb:    4096 kB\n";
    CHECK_NEAR(smaps_huge_fraction(hugetlb, 0x7e0000000000, 4 << 20), 1.0, 1e-12);
}

TEST(smaps_index_finds_each_of_many_mappings)
{
    /* 1000 mappings of 4 MiB, one page apart; mapping i has i % 3 huge pages of
     * 2 MiB. Every buffer's share comes out right, first, middle and last. */
    enum { N = 1000 };
    char *text = malloc(N * 160);
    size_t used = 0;
    for (int i = 0; i < N; i++) {
        unsigned long long start = 0x7f0000000000ULL + (unsigned long long)i * (5ULL << 20);
        used += (size_t)sprintf(text + used, "%llx-%llx rw-p 00000000 00:00 0 \nSize: 4096 kB\nAnonHugePages: %d kB\n",
                                start, start + (4ULL << 20), (i % 3) * 2048);
    }
    smaps_index ix;
    CHECK(smaps_index_parse(text, used, &ix));
    CHECK_INT(ix.n, N);
    for (int i = 0; i < N; i++) {
        uintptr_t start = (uintptr_t)(0x7f0000000000ULL + (unsigned long long)i * (5ULL << 20));
        CHECK_NEAR(smaps_index_huge_fraction(&ix, start, 4 << 20), (i % 3) * 0.5, 1e-12);
    }
    /* a range spanning mappings 3 and 4 and the gap between them: 4 MiB with 0 huge,
     * then 1 MiB of gap, then 4 MiB with 2 MiB huge, over 9 MiB */
    uintptr_t m3 = (uintptr_t)(0x7f0000000000ULL + 3 * (5ULL << 20));
    CHECK_NEAR(smaps_index_huge_fraction(&ix, m3, 9 << 20), 2.0 / 9.0, 1e-12);
    CHECK_NEAR(smaps_index_huge_fraction(&ix, m3 + (4 << 20), 1 << 20), -1, 0); /* the gap */
    CHECK_NEAR(smaps_index_huge_fraction(&ix, 0x1000, 4096), -1, 0);
    CHECK_NEAR(smaps_index_huge_fraction(&ix, (uintptr_t)0x7fff00000000ULL, 4096), -1, 0);
    smaps_index_free(&ix);
    free(text);
}

TEST(smaps_index_takes_text_out_of_order_and_skips_what_is_not_a_mapping)
{
    const char *text = "AnonHugePages: 2048 kB\n"                      /* before any mapping: nobody's */
                       "7f0000400000-7f0000600000 rw-p 0 00:00 0\n"
                       "AnonHugePages: 1024 kB\n"
                       "fffffffffffffffffffff-1 rw-p 0 00:00 0\n"    /* overflows: not a header */
                       "Private_Hugetlb: 1024 kB\n"                   /* so this still belongs above */
                       "7f0000000000-7f0000200000 rw-p 0 00:00 0\n"   /* lower: the index sorts */
                       "Shared_Hugetlb: 1024 kB\n"
                       "Rss: 99999 kB\n"
                       "7f0000800000-7f0000700000 rw-p 0 00:00 0\n";  /* end before start */
    smaps_index ix;
    CHECK(smaps_index_parse(text, strlen(text), &ix));
    CHECK_INT(ix.n, 2);
    CHECK_NEAR(smaps_index_huge_fraction(&ix, 0x7f0000400000, 2 << 20), 1.0, 1e-12);
    CHECK_NEAR(smaps_index_huge_fraction(&ix, 0x7f0000000000, 2 << 20), 0.5, 1e-12);
    CHECK_NEAR(smaps_index_huge_fraction(&ix, 0x7f0000000000, 6 << 20), 3.0 / 6.0, 1e-12);
    smaps_index_free(&ix);
    /* the length given is respected: a field past it is not read */
    const char *cut = "7f0000000000-7f0000200000 rw-p 0 00:00 0\nAnonHugePages: 2048 kB\n";
    CHECK(smaps_index_parse(cut, strlen(cut) - 10, &ix));
    CHECK_NEAR(smaps_index_huge_fraction(&ix, 0x7f0000000000, 2 << 20), 0.0, 0);
    smaps_index_free(&ix);
}

TEST(smaps_of_this_process_shows_a_mapping_it_made)
{
    /* the heap block exists in smaps; whatever its pages, the share is within [0,1] */
    size_t len = 8 << 20;
    char *p = malloc(len);
    memset(p, 1, len);
    smaps_index ix;
    CHECK(smaps_index_read_self(&ix));
    CHECK(ix.n > 3);
    double f = smaps_index_huge_fraction(&ix, (uintptr_t)p, len);
    CHECK(f >= 0 && f <= 1);
    smaps_index_free(&ix);
    free(p);
}
