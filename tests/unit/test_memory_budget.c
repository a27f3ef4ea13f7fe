/* SPDX-License-Identifier: MIT */
/* The memory budget from the files a machine shows, through a fixture tree (its
 * root/proc/meminfo, root/proc/self/cgroup, root/proc/self/mountinfo and a v2
 * cgroup's files): small cgroups get small budgets, never none; absurd meminfo
 * values are clamped to the machine's memory with a warning, never wrapped. */
#include <stdio.h>
#include <unistd.h>

#include "memory/memory_budget.h"
#include "platform/platform.h"
#include "test.h"

#define MIB (1ULL << 20)

/* A tree whose process sits in v2 cgroup /job (memory.max limit, memory.current
 * usage: NULL for no files; the directory is there either way) with meminfo's text. */
static const char *machine(const char *meminfo, const char *limit, const char *usage)
{
    const char *root = test_tempdir();
    test_write_file(root, "proc/meminfo", meminfo);
    test_write_file(root, "proc/self/cgroup", "0::/job\n");
    test_write_file(root, "proc/self/mountinfo",
                    "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n");
    test_write_file(root, "sys/fs/cgroup/job/cgroup.procs", "1\n");
    if (limit)
        test_write_file(root, "sys/fs/cgroup/job/memory.max", limit);
    if (usage)
        test_write_file(root, "sys/fs/cgroup/job/memory.current", usage);
    return root;
}

#define ROOMY "MemTotal:       16777216 kB\nMemAvailable:    8388608 kB\n" /* 16 GiB, 8 available */

static uint64_t physical(void)
{
    return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The margin scales down for small amounts: 10% and a quarter, the quarter at least
 * 16 MiB and at most 64 MiB. A fixed 64 MiB left a 64 MiB cgroup nothing. */
TEST(memory_budget_of_a_64_mib_cgroup_is_small_not_none)
{
    char why[256] = "";
    uint64_t avail = 0;
    CHECK(platform_memory_available_at(machine(ROOMY, "67108864\n", "4194304\n"), &avail, why, sizeof why));
    CHECK_STR(why, "");
    CHECK_INT(avail, 60 * MIB); /* the cgroup's room, not MemAvailable */
    CHECK_INT(memory_budget_from(avail), 60 * MIB - 60 * MIB / 100 * 10 - 16 * MIB);
    CHECK(memory_budget_from(64 * MIB) >= 40 * MIB);
    /* the reserve: a quarter, 16 to 64 MiB; from 256 MiB up the full 64 MiB */
    CHECK_INT(memory_budget_from(128 * MIB), 128 * MIB - 128 * MIB / 100 * 10 - 32 * MIB);
    CHECK_INT(memory_budget_from(256 * MIB), 256 * MIB - 256 * MIB / 100 * 10 - 64 * MIB);
    CHECK_INT(memory_budget_from(4096 * MIB), 4096 * MIB - 4096 * MIB / 100 * 10 - 64 * MIB);
    CHECK_INT(memory_budget_from(16 * MIB), 0); /* at least 16 MiB stays free */
    /* never more than is available, and never less for more */
    for (uint64_t a = 0, last = 0; a <= 1024 * MIB; a += MIB) {
        uint64_t b = memory_budget_from(a);
        CHECK(b < a || a == 0);
        CHECK(b >= last);
        last = b;
    }
}

/* platform_memory_available_at on a machine without cgroups showing meminfo; why
 * is cleared first (256 bytes). */
static bool available(const char *meminfo, uint64_t *bytes, char *why)
{
    why[0] = '\0';
    return platform_memory_available_at(machine(meminfo, NULL, NULL), bytes, why, 256);
}

TEST(memory_available_is_memavailable_not_memtotal)
{
    char why[256];
    uint64_t bytes = 0;
    /* on a machine whose memory is mostly in use, MemTotal would push it into swap */
    CHECK(available("MemTotal:       67108864 kB\nMemFree:          524288 kB\nMemAvailable:    1048576 kB\n", &bytes,
                    why));
    CHECK_STR(why, "");
    CHECK_INT(bytes, 1024 * MIB);
    /* without a MemAvailable line there is no budget, and why names it */
    CHECK(!available("MemTotal:       67108864 kB\nMemFree:          524288 kB\n", &bytes, why));
    CHECK_CONTAINS(why, "/proc/meminfo has no MemAvailable line");
    CHECK_INT(bytes, 0);
}

/* MemAvailable of 2^64-1 kB (a bind-mounted meminfo) made -f plan without end; 2^55 kB
 * wrapped to 0 bytes. Both are clamped to MemTotal, or to the machine's pages when
 * MemTotal is absurd too, and why holds the warning. */
TEST(memory_available_beyond_the_machine_is_clamped_not_wrapped)
{
    char why[256];
    uint64_t bytes = 0, gib = physical() < 1024 * MIB ? physical() : 1024 * MIB;
    CHECK(available("MemTotal:        1048576 kB\nMemAvailable:   18446744073709551615 kB\n", &bytes, why));
    CHECK_INT(bytes, gib);
    CHECK_CONTAINS(why, "/proc/meminfo: MemAvailable is more than the machine has: taken as ");
    CHECK(available("MemTotal:        1048576 kB\nMemAvailable:   36028797018963968 kB\n", &bytes, why));
    CHECK_INT(bytes, gib); /* 2^55 kB: 2^65 bytes, 0 when it wrapped */
    CHECK(available("MemTotal:       99999999999999999999999 kB\nMemAvailable:   99999999999999999999999 kB\n",
                    &bytes, why));
    CHECK_INT(bytes, physical());
    CHECK_CONTAINS(why, "the kernel's count of physical pages");
    /* a sane value is taken as it is, without a word */
    CHECK(available(ROOMY, &bytes, why));
    CHECK_STR(why, "");
}

/* An empty root (the static binary chrooted with only /proc and /sys mounted) or a
 * container without the cgroup filesystem: /proc/self/cgroup names a cgroup whose
 * directory is not there. No limit was read, so the budget is MemAvailable and why
 * says which directory was missing, never silence as if no limit existed. */
TEST(memory_available_says_when_the_cgroup_is_not_there)
{
    char why[256] = "stale";
    uint64_t bytes = 0;
    const char *root = test_tempdir();
    test_write_file(root, "proc/meminfo", ROOMY);
    test_write_file(root, "proc/self/cgroup", "4:memory:/process_api/job\n0::/\n");
    test_write_file(root, "proc/self/mountinfo", "22 1 0:20 / /sys rw,relatime - sysfs sysfs rw\n");
    test_write_file(root, "sys/fs/cgroup/.keep", "");
    CHECK(platform_memory_available_at(root, &bytes, why, sizeof why));
    CHECK_INT(bytes, 8192 * MIB);
    char want[256];
    snprintf(want, sizeof want, "no cgroup memory limit read: %s/sys/fs/cgroup/memory/process_api/job is not there",
             root);
    CHECK_CONTAINS(why, want);
    CHECK_CONTAINS(why, "the budget is MemAvailable alone");
    /* the same tree with the cgroup there and no limit in it: no word */
    test_write_file(root, "sys/fs/cgroup/memory/process_api/job/cgroup.procs", "1\n");
    CHECK(platform_memory_available_at(root, &bytes, why, sizeof why));
    CHECK_STR(why, "");
    CHECK_INT(bytes, 8192 * MIB);
}
