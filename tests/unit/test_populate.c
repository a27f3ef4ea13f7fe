/* SPDX-License-Identifier: MIT */
/* buffer_populate_beside (memory/buffer.h): the latency mode's chains first-touched
 * by the chasing thread and the idle CPUs of its node. Every page of the range is
 * backed when it returns (mincore), nothing outside it, whether the helpers started,
 * could not be pinned, or were not there; a stop ends it with false. Where this
 * kernel cannot populate ahead (MADV_POPULATE_WRITE: Linux 5.14, and some qemu-user
 * builds) only the return values are checked. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "measure/stop.h"
#include "memory/buffer.h"
#include "platform/platform.h"
#include "test.h"
#include "util/cpu_list.h"

#define MIB ((size_t)1 << 20)

/* Resident pages of [off, off + len) of b. */
static size_t resident(const buffer *b, size_t off, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = len / page, k = 0;
    unsigned char *v = malloc(n ? n : 1);
    if (!v || mincore((char *)b->ptr + off, n * page, v) != 0) {
        free(v);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        k += v[i] & 1;
    free(v);
    return k;
}

/* Whether a plain populate backs pages here (else the residency checks are moot). */
static bool populate_backs_pages(void)
{
    buffer b;
    if (!buffer_alloc(&b, 4 * MIB, PAGES_NORMAL, 2 * MIB, -1))
        return false;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    bool backs = buffer_populate(&b, 0, 4 * MIB) && resident(&b, 0, 4 * MIB) == 4 * MIB / page;
    buffer_free(&b);
    return backs;
}

static void check_range(const int *helpers, size_t n, const char *what)
{
    const size_t len = 200 * MIB, off = 4 * MIB, span = 136 * MIB; /* two slices of 68 MiB */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    buffer b;
    CHECK(buffer_alloc(&b, len, PAGES_NORMAL, 2 * MIB, -1));
    stop_reset();
    bool ok = buffer_populate_beside(&b, off, span, helpers, n);
    if (!ok)
        test_fail(__FILE__, __LINE__, "%s: populate returned false", what);
    if (populate_backs_pages()) {
        size_t in = resident(&b, off, span), before = resident(&b, 0, 2 * MIB),
               after = resident(&b, off + span + 2 * MIB, len - off - span - 2 * MIB);
        if (in != span / page || before || after)
            test_fail(__FILE__, __LINE__, "%s: %zu of %zu pages backed in the range, %zu before it, %zu after", what,
                      in, span / page, before, after);
    }
    buffer_free(&b);
}

TEST(populate_beside_backs_the_range_with_helpers_or_without)
{
    cpu_list cpus = {0};
    CHECK(platform_usable_cpus(&cpus));
    check_range(cpus.ids, cpus.count, "every usable CPU a helper");
    check_range(NULL, 0, "no helper");
    const int nowhere[] = {1 << 20, (1 << 20) + 1}; /* no such CPUs: the pins fail */
    check_range(nowhere, 2, "helpers that cannot be pinned");
    cpu_list_free(&cpus);
}

TEST(populate_beside_ends_false_on_a_stop)
{
    cpu_list cpus = {0};
    CHECK(platform_usable_cpus(&cpus));
    buffer b;
    CHECK(buffer_alloc(&b, 136 * MIB, PAGES_NORMAL, 2 * MIB, -1));
    stop_reset();
    stop_request(SIGINT);
    CHECK(!buffer_populate_beside(&b, 0, 136 * MIB, cpus.ids, cpus.count));
    stop_reset();
    buffer_free(&b);
    cpu_list_free(&cpus);
}
