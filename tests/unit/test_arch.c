/* SPDX-License-Identifier: MIT */
/* The architecture layer (platform/arch.h) on whatever this binary was built for:
 * under qemu-user these run once per architecture (make check-cross). */
#include <string.h>
#include <time.h>

#include "measure/ref_counter.h"
#include "platform/arch.h"
#include "test.h"

TEST(arch_name_matches_the_build_target)
{
#if defined(__x86_64__)
    CHECK_STR(arch_name(), "x86_64");
#elif defined(__aarch64__)
    CHECK_STR(arch_name(), "aarch64");
#elif defined(__riscv)
    CHECK_STR(arch_name(), "riscv64");
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    CHECK_STR(arch_name(), "ppc64le");
#elif defined(__s390x__)
    CHECK_STR(arch_name(), "s390x");
#else
    CHECK_STR(arch_name(), "other");
#endif
}

TEST(byte_order_is_what_the_compiler_says)
{
    const unsigned int one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    CHECK_INT(first, 0);
#else
    CHECK_INT(first, 1);
#endif
}

TEST(counter_advances_at_a_plausible_constant_rate)
{
    if (!arch_counter_name()) {
        CHECK_INT(arch_counter_read(), 0);
        CHECK(ref_counter_hz() == 0);
        return;
    }
    uint64_t a = arch_counter_read();
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
    uint64_t b = arch_counter_read();
    CHECK(b > a);
    double hz = ref_counter_measured_hz();
    if (arch_counter_constant()) {
        /* Every architecture's counter runs between 1 MHz and 10 GHz. */
        CHECK(hz > 1e6 && hz < 1e10);
        /* The cycle conversion is offered only for counters of 500 MHz or more. */
        CHECK(ref_counter_hz() == (hz >= 500e6 ? hz : 0));
    } else {
        CHECK(hz == 0 && ref_counter_hz() == 0);
    }
}

TEST(counter_stated_rate_is_architectural)
{
#if defined(__aarch64__)
    double f = arch_counter_stated_hz(); /* CNTFRQ_EL0: set by firmware, never 0 on Linux */
    CHECK(f > 1e6 && f < 1e10);
    CHECK_STR(arch_counter_name(), "CNTVCT_EL0");
#elif defined(__s390x__)
    CHECK(arch_counter_stated_hz() == 4096e6);
    CHECK_STR(arch_counter_name(), "TOD clock");
#elif defined(__x86_64__)
    CHECK(arch_counter_stated_hz() == 0);
    CHECK_STR(arch_counter_name(), "TSC");
#elif defined(__powerpc64__)
    CHECK_STR(arch_counter_name(), "timebase");
#elif defined(__riscv)
    CHECK_STR(arch_counter_name(), "time CSR");
#endif
}

TEST(cache_line_is_the_architectures)
{
    int line = arch_cache_line_bytes();
    CHECK(line >= 16 && line <= 512 && (line & (line - 1)) == 0);
#if defined(__powerpc64__)
    CHECK_INT(line, 128);
#elif defined(__s390x__)
    CHECK_INT(line, 256);
#elif defined(__riscv)
    CHECK_INT(line, 64);
#endif
}
