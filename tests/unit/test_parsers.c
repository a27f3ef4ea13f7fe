/* SPDX-License-Identifier: MIT */
#include <stdint.h>

#include "test.h"
#include "util/cpu_list.h"
#include "util/parse_number.h"

TEST(parse_u64_accepts_plain_decimal)
{
    uint64_t v = 0;
    CHECK(parse_u64("1024", 1, 2048, &v));
    CHECK_INT(v, 1024);
    CHECK(parse_u64("0", 0, 5, &v));
    CHECK_INT(v, 0);
    CHECK(parse_u64("18446744073709551615", 0, UINT64_MAX, &v));
    CHECK(v == UINT64_MAX);
}

TEST(parse_u64_rejects_junk_signs_and_range)
{
    uint64_t v = 77;
    const char *bad[] = {"", "-5", "+5", " 5", "5 ", "abc", "12abc", "1.5", "0x10", "1e3", "18446744073709551616"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!parse_u64(bad[i], 0, UINT64_MAX, &v));
    CHECK(!parse_u64(NULL, 0, 10, &v));
    CHECK(!parse_u64("0", 1, 10, &v));
    CHECK(!parse_u64("11", 1, 10, &v));
    CHECK(!parse_u64("4294967297", 1, 4096, &v)); /* would wrap to 1 as a 32-bit int */
    CHECK_INT(v, 77);                              /* untouched on failure */
}

TEST(parse_double_accepts_decimal_and_exponent)
{
    double d = 0;
    CHECK(parse_double("1.5", 0, 10, &d));
    CHECK_NEAR(d, 1.5, 1e-12);
    CHECK(parse_double("2e1", 0, 100, &d));
    CHECK_NEAR(d, 20, 1e-12);
    CHECK(parse_double("0", 0, 1, &d));
}

TEST(parse_double_rejects_nan_inf_hex_and_negative)
{
    double d = 0;
    const char *bad[] = {"", "-1", "abc", "nan", "inf", "0x1p3", "1.5s", " 1", "1e999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!parse_double(bad[i], 0, 1e9, &d));
}

TEST(cpu_list_parses_ranges_in_order)
{
    cpu_list l;
    CHECK(cpu_list_parse("0-3,8,10-11\n", &l));
    CHECK_INT(l.count, 7);
    int expect[] = {0, 1, 2, 3, 8, 10, 11};
    for (size_t i = 0; i < 7 && i < l.count; i++)
        CHECK_INT(l.ids[i], expect[i]);
    cpu_list_free(&l);
    CHECK(cpu_list_parse("7,2", &l)); /* order as written: thread 0 -> CPU 7 */
    CHECK_INT(l.ids[0], 7);
    CHECK_INT(l.ids[1], 2);
    cpu_list_free(&l);
}

TEST(cpu_list_empty_set_from_sysfs)
{
    cpu_list l;
    CHECK(cpu_list_parse("\n", &l));
    CHECK_INT(l.count, 0);
    CHECK(cpu_list_parse("", &l));
    CHECK_INT(l.count, 0);
}

TEST(cpu_list_rejects_bad_syntax)
{
    cpu_list l;
    const char *bad[] = {"a", "1-", "-1", "3-1", "1,,2", "1,", "1 2", "0-3,2", "70000", "1-99999", "1\n2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!cpu_list_parse(bad[i], &l));
        CHECK(l.ids == NULL);
    }
}

TEST(cpu_list_formats_compactly)
{
    int ids[] = {0, 1, 2, 3, 8, 10, 11};
    char buf[64];
    CHECK_STR(cpu_list_format(ids, 7, buf, sizeof buf), "0-3,8,10-11");
    CHECK_STR(cpu_list_format(ids, 0, buf, sizeof buf), "");
    char tiny[5];
    cpu_list_format(ids, 7, tiny, sizeof tiny); /* truncates without overflowing */
    CHECK_STR(tiny, "0-3");
}

TEST(cpu_list_largest_range_and_far_duplicates)
{
    cpu_list l;
    CHECK(cpu_list_parse("0-65535", &l));
    CHECK_INT(l.count, 65536);
    CHECK_INT(l.ids[65535], 65535);
    cpu_list_free(&l);
    CHECK(!cpu_list_parse("0-65535,65535", &l)); /* duplicate found at the far end */
    CHECK(!cpu_list_parse("65535,0-65535", &l));
    CHECK(!cpu_list_parse("0-65536", &l)); /* above CPU_LIST_MAX_ID */
    CHECK(l.ids == NULL && l.count == 0);
}
