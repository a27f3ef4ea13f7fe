/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "output/topology_report.h"
#include "plan/traffic_plan.h"
#include "platform/arch.h"
#include "plan/dram_size.h"
#include "test.h"
#include "topology/topology.h"

static bool has_warning(const topology *t, const char *needle)
{
    for (size_t i = 0; i < t->nwarnings; i++)
        if (strstr(t->warnings[i], needle))
            return true;
    return false;
}

TEST(topology_two_socket_smt_server)
{
    topology t;
    CHECK(topology_load(fixture_two_socket_smt(), NULL, &t));
    CHECK_INT(t.ncpus, 16);
    CHECK_INT(t.usable.count, 16);
    CHECK_INT(t.ncores, 8);
    CHECK_INT(t.npackages, 2);
    CHECK_INT(t.nnodes, 2);
    CHECK_INT(topology_cpu(&t, 12)->node, 1);
    CHECK_INT(topology_cpu(&t, 12)->smt_rank, 1);
    CHECK_INT(topology_cpu(&t, 4)->smt_rank, 0);
    CHECK_INT(topology_cpu(&t, 5)->package_id, 1);
    CHECK_INT(topology_cache_level(&t, 1).size, 48 * 1024);
    CHECK(!topology_cache_level(&t, 1).defaulted);
    CHECK_INT(topology_cache_level(&t, 2).size, 2 << 20);
    CHECK_INT(topology_cache_level(&t, 3).size, 32 << 20);
    /* 8 L1d + 8 L2 + 2 L3 instances; instruction caches are not listed */
    CHECK_INT(t.ncaches, 18);
    CHECK_INT(t.nodes[0].mem_total, 64ULL << 30);
    CHECK_STR(t.thp_mode, "always");
    CHECK_INT(t.nhuge_sizes, 2);
    CHECK_INT(t.huge_sizes[0], 2 << 20);
    CHECK_INT(t.huge_sizes[1], 1 << 30);
    CHECK_INT(t.thp_size, 2 << 20);
    CHECK_INT(t.nwarnings, 0);
    /* sharers: CPUs 0 and 8 share an L1; 0,1,8 share one L3 among {0,1,4,8} */
    int cpus[] = {0, 1, 4, 8};
    CHECK_INT(topology_cache_sharers(&t, 1, 0, cpus, 4), 2);
    CHECK_INT(topology_cache_sharers(&t, 3, 0, cpus, 4), 3);
    CHECK_INT(topology_cache_sharers(&t, 3, 4, cpus, 4), 1);
    topology_free(&t);
}

TEST(topology_restricted_cpuset)
{
    topology t;
    cpu_list usable;
    CHECK(cpu_list_parse("2-3,10", &usable));
    CHECK(topology_load(fixture_two_socket_smt(), &usable, &t));
    CHECK_INT(t.ncpus, 16);
    CHECK_INT(t.usable.count, 3);
    CHECK(topology_cpu(&t, 10)->usable);
    CHECK(!topology_cpu(&t, 0)->usable);
    cpu_list_free(&usable);
    topology_free(&t);
}

TEST(topology_usable_mask_outside_online_falls_back)
{
    topology t;
    cpu_list usable;
    CHECK(cpu_list_parse("40-41", &usable));
    CHECK(topology_load(fixture_arm_no_l3(), &usable, &t));
    CHECK_INT(t.usable.count, 4);
    CHECK(has_warning(&t, "usable CPUs (affinity mask, or topology --usable) name no online CPU"));
    cpu_list_free(&usable);
    topology_free(&t);
}

TEST(topology_arm_without_l3_uses_default_and_warns)
{
    topology t;
    CHECK(topology_load(fixture_arm_no_l3(), NULL, &t));
    CHECK_INT(topology_cache_level(&t, 1).size, 64 * 1024);
    CHECK_INT(topology_cache_level(&t, 2).size, 1 << 20);
    cache_level l3 = topology_cache_level(&t, 3);
    CHECK(l3.defaulted);
    CHECK_INT(l3.size, 8 << 20);
    CHECK_INT(l3.line_size, 64); /* the reported L1 line, not the architecture's default */
    CHECK(has_warning(&t, "cache sizes: no source reports L3 per instance (sysfs, CPUID, device tree): using L3 8 MiB "
                         "(default)"));
    CHECK_INT(topology_max_cache_level(&t), 2);
    CHECK_STR(t.thp_mode, "madvise");
    topology_free(&t);
}

TEST(topology_vm_with_odd_reports)
{
    topology t;
    CHECK(topology_load(fixture_vm_odd_caches(), NULL, &t));
    CHECK_INT(t.ncpus, 2);
    CHECK_INT(t.nnodes, 1); /* no node directory: one node with every CPU */
    CHECK_INT(t.nodes[0].cpus.count, 2);
    CHECK_INT(topology_cache_level(&t, 3).size, 107520ULL * 1024);
    CHECK(has_warning(&t, "core/package ids missing"));
    CHECK(has_warning(&t, "THP mode unknown"));
    CHECK_STR(t.thp_mode, "unknown");
    CHECK_INT(t.nhuge_sizes, 0);
    CHECK_INT(t.ncores, 2);
    topology_free(&t);
}

TEST(topology_memoryless_node_is_reported)
{
    topology t;
    CHECK(topology_load(fixture_memoryless_node(), NULL, &t));
    CHECK_INT(t.nnodes, 3);
    CHECK_INT(t.nodes[1].mem_total, 0);
    CHECK_INT(topology_cpu(&t, 3)->node, 1);
    CHECK(has_warning(&t, "NUMA node 1 has CPUs but no memory: its threads' memory comes from node 2"));
    CHECK_INT(topology_memory_node(&t, 0), 0);
    CHECK_INT(topology_memory_node(&t, 1), 2); /* distance 12 beats 20 */
    CHECK_INT(topology_memory_node(&t, 2), 2);
    CHECK_INT(topology_memory_node(&t, 7), 7); /* unknown node: itself */
    CHECK_STR(t.thp_mode, "never");
    topology_free(&t);
}

/* The kernel's fallback for a memory-less node (find_next_best_node): at equal
 * distance a node with no CPUs beats one with CPUs, a node numbered above beats
 * one below; the lowest id wins the rest. */
TEST(topology_memoryless_node_falls_back_like_the_kernel)
{
    topology t;
    CHECK(topology_load(fixture_headless_tie(), NULL, &t));
    CHECK_INT(t.nnodes, 5);
    CHECK_INT(topology_memory_node(&t, 1), 2); /* 20 to 0 and 2: 2 is above it */
    CHECK_INT(topology_memory_node(&t, 4), 3); /* 20 to 0, 2 and 3: CPU-less 3 wins */
    CHECK_INT(topology_memory_node(&t, 0), 0);
    CHECK_INT(topology_memory_node(&t, 2), 2);
    topology_free(&t);
}

TEST(topology_empty_tree_fails_cleanly)
{
    topology t;
    CHECK(!topology_load(test_tempdir(), NULL, &t));
    cpu_list usable;
    CHECK(cpu_list_parse("0-2", &usable));
    CHECK(topology_load(test_tempdir(), &usable, &t)); /* affinity mask is the fallback */
    CHECK_INT(t.ncpus, 3);
    CHECK(has_warning(&t, "no CPU directories in sysfs"));
    CHECK(topology_cache_level(&t, 1).defaulted);
    CHECK_INT(topology_cache_level(&t, 1).line_size, arch_cache_line_bytes()); /* nothing in sysfs */
    cpu_list_free(&usable);
    topology_free(&t);
}

TEST(topology_live_system_loads)
{
    topology t;
    CHECK(topology_load("/sys", NULL, &t));
    CHECK(t.ncpus >= 1);
    CHECK(t.usable.count >= 1);
    topology_add_live_sources(&t); /* must not crash whatever the CPU says */
    topology_free(&t);
}

TEST(topology_unsized_caches_give_one_warning_per_index)
{
    /* As QEMU's arm64 "virt" machine shows them: levels and types, no sizes. */
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-3\n");
    char rel[128];
    for (int cpu = 0; cpu < 4; cpu++) {
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index0/level", cpu);
        test_write_file(root, rel, "1\n");
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index0/type", cpu);
        test_write_file(root, rel, "Data\n");
    }
    topology t;
    CHECK(topology_load(root, NULL, &t));
    size_t n = 0;
    for (size_t i = 0; i < t.nwarnings; i++)
        n += strstr(t.warnings[i], "size unreadable") != NULL;
    CHECK_INT(n, 1);
    CHECK(has_warning(&t, "cache index0 (L1): size unreadable on CPU(s) 0-3, ignored"));
    CHECK(has_warning(&t, "cache sizes: no source reports L1"));
    CHECK(!has_warning(&t, "no cache information for CPU(s)")); /* they all have index dirs */
    topology_free(&t);
}

/* A cache index without a readable shared_cpu_list (seen in containers and odd
 * hypervisors) once freed an uninitialised list and crashed every mode: the cache
 * now counts as the CPU's own. */
TEST(topology_cache_without_shared_cpu_list_is_the_cpus_own)
{
    const char *root = fixture_two_socket_smt();
    char path[512];
    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu3/cache/index2/shared_cpu_list", root);
    CHECK_INT(unlink(path), 0);
    topology t;
    CHECK(topology_load(root, NULL, &t));
    bool own = false;
    for (size_t i = 0; i < t.ncaches; i++)
        own = own || (t.caches[i].level == 2 && t.caches[i].shared.count == 1 && t.caches[i].shared.ids[0] == 3);
    CHECK(own);
    CHECK_INT(topology_cache_level(&t, 2).size, 2048 << 10);
    topology_free(&t);
}

/* Absurd sysfs values (a package id beyond int, a MemTotal that overflows in bytes)
 * once printed "-2147483648 package(s)" and "17179869183 GiB": each is now said in a
 * warning and left out of the counts. Package ids need not be dense. */
TEST(topology_absurd_ids_and_sizes_are_bounded_and_said)
{
    const char *root = fixture_two_socket_smt();
    test_write_file(root, "devices/system/cpu/cpu5/topology/physical_package_id", "2147483648\n");
    test_write_file(root, "devices/system/cpu/cpu13/topology/physical_package_id", "7\n");
    test_write_file(root, "devices/system/node/node1/meminfo",
                    "Node 1 MemTotal:       18446744073709551615 kB\nNode 1 MemFree: 1 kB\n");
    topology t;
    CHECK(topology_load(root, NULL, &t));
    CHECK_INT(t.npackages, 3); /* ids 0, 1 and 7; the absurd one is not a package */
    CHECK(has_warning(&t, "CPU 5: package id 2147483648 is out of range"));
    CHECK(has_warning(&t, "node1: MemTotal 18446744073709551615 kB is not believable"));
    CHECK_INT(topology_node(&t, 1)->mem_total, 0);
    CHECK_INT(topology_node(&t, 0)->mem_total, 64LL << 30);
    topology_free(&t);
}

/* Without cpu/online the CPUs are the cpuN directories; a name the kernel never
 * writes ("cpu01", "cpu+1", "node00") once made CPU 1 or node 0 a second time
 * (found by fuzz/fuzz_sysfs.c). Only canonical names count. */
TEST(topology_cpu_and_node_directories_count_once)
{
    const char *root = test_tempdir();
    static const char *const dirs[] = {"cpu0", "cpu1", "cpu01", "cpu+1", "cpu 1", "cpu1x", "cpu99999999999", "cpufreq"};
    char rel[128];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(rel, sizeof rel, "devices/system/cpu/%s/uevent", dirs[i]);
        test_write_file(root, rel, "\n");
    }
    test_write_file(root, "devices/system/node/node0/cpulist", "0-1\n");
    test_write_file(root, "devices/system/node/node00/cpulist", "0-1\n");
    test_write_file(root, "devices/system/node/node1/cpulist", "\n");
    topology t;
    CHECK(topology_load(root, NULL, &t));
    CHECK_INT(t.ncpus, 2);
    CHECK_INT(t.cpus[0].id, 0);
    CHECK_INT(t.cpus[1].id, 1);
    CHECK_INT(t.nnodes, 2);
    CHECK_INT(t.nodes[0].id, 0);
    CHECK_INT(t.nodes[1].id, 1);
    topology_free(&t);
}

/* The SMT rank counts online siblings only: a thread_siblings_list naming an
 * offline CPU once gave ranks as large as the CPU count and 0 cores (found by
 * fuzz/fuzz_sysfs.c), and an empty list passed NULL to qsort. */
TEST(topology_smt_rank_counts_online_siblings)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "1-3\n");
    test_write_file(root, "devices/system/cpu/cpu1/topology/thread_siblings_list", "0-2\n");
    test_write_file(root, "devices/system/cpu/cpu2/topology/thread_siblings_list", "0-2\n");
    test_write_file(root, "devices/system/cpu/cpu3/topology/thread_siblings_list", "\n");
    topology t;
    CHECK(topology_load(root, NULL, &t));
    CHECK_INT(t.ncpus, 3);
    CHECK_INT(topology_cpu(&t, 1)->smt_rank, 0); /* CPU 0 is offline */
    CHECK_INT(topology_cpu(&t, 2)->smt_rank, 1);
    CHECK_INT(topology_cpu(&t, 3)->smt_rank, 0);
    CHECK_INT(t.ncores, 2);
    topology_free(&t);
}

/* The report sorts caches by level: sysfs may claim any int as a level, and the
 * comparison once subtracted them (signed overflow for INT_MAX against INT_MIN,
 * found by fuzz/fuzz_sysfs.c under UBSan; the order came out wrong). */
TEST(topology_report_sorts_any_cache_level)
{
    const char *root = test_tempdir();
    static const char *const levels[] = {"2147483647", "1", "-2147483648"};
    char rel[128];
    test_write_file(root, "devices/system/cpu/online", "0\n");
    for (int i = 0; i < 3; i++) {
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu0/cache/index%d/level", i);
        test_write_file(root, rel, levels[i]);
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu0/cache/index%d/type", i);
        test_write_file(root, rel, "Unified\n");
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu0/cache/index%d/size", i);
        test_write_file(root, rel, "1024K\n");
    }
    topology t;
    CHECK(topology_load(root, NULL, &t));
    CHECK_INT(t.ncaches, 3);
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    topology_report_text(f, &t);
    fclose(f);
    const char *lo = strstr(text, "  L-2147483648 "), *one = strstr(text, "  L1 "), *hi = strstr(text, "  L2147483647 ");
    CHECK(lo && one && hi && lo < one && one < hi);
    free(text);
    topology_free(&t);
}

/* The user-facing text of `membench topology` for a tree (stdout part). */
static char *report_text(const topology *t)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    topology_report_text(f, t);
    fclose(f);
    return text;
}

static size_t count_level(const topology *t, int level)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ncaches; i++)
        n += t->caches[i].level == level;
    return n;
}

/* What sharing the instance of `level` holding cpu has, as a list ("0,2,4,6"). */
static const char *shared_text(const topology *t, int level, int cpu)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "none");
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level && cpu_list_contains(&t->caches[i].shared, cpu))
            cpu_list_format(t->caches[i].shared.ids, t->caches[i].shared.count, buf, sizeof buf);
    return buf;
}

TEST(topology_arm64_n1_server)
{
    topology t;
    CHECK(topology_load(fixture_once(fixture_arm64_n1_server), NULL, &t));
    CHECK_INT(t.ncpus, 64);
    CHECK_INT(t.ncores, 64); /* no SMT */
    CHECK_INT(topology_cpu(&t, 63)->smt_rank, 0);
    CHECK_INT(t.npackages, 1);
    CHECK_INT(t.nnodes, 1);
    CHECK_INT(t.nodes[0].mem_total, 128ULL << 30);
    CHECK_INT(topology_cache_level(&t, 1).size, 64 << 10);
    CHECK_INT(topology_cache_level(&t, 2).size, 1 << 20);
    CHECK_INT(topology_cache_level(&t, 3).size, 32 << 20);
    CHECK_INT(topology_cache_level(&t, 3).line_size, 64);
    CHECK_INT(count_level(&t, 1), 64);
    CHECK_INT(count_level(&t, 2), 64);
    CHECK_INT(count_level(&t, 3), 1);
    CHECK_STR(shared_text(&t, 2, 5), "5");
    CHECK_STR(shared_text(&t, 3, 5), "0-63");
    /* the LLC: one 32M SLC; 4 threads on it get a quarter each */
    CHECK_INT(topology_max_cache_level(&t), 3);
    CHECK_INT(dram_basis_for(&t, NULL, 0).bytes, 32 << 20);
    int four[] = {0, 16, 32, 48};
    CHECK_INT(topology_cache_sharers(&t, 3, 0, four, 4), 4);
    CHECK_INT(topology_cache_sharers(&t, 2, 0, four, 4), 1);
    CHECK_INT(t.nhuge_sizes, 4);
    CHECK_INT(t.huge_sizes[0], 64 << 10);
    CHECK_INT(t.huge_sizes[1], 2 << 20);
    CHECK_INT(t.huge_sizes[2], 32 << 20);
    CHECK_INT(t.huge_sizes[3], 1 << 30);
    CHECK_INT(topology_huge_page_size(&t), 2 << 20);
    CHECK_INT(t.nwarnings, 0);
    char *text = report_text(&t);
    CHECK_CONTAINS(text, "CPUs: 64 online, 64 usable (0-63), 64 cores, 1 package(s)\n");
    CHECK_CONTAINS(text, "  L3 unified     32 MiB  line 64 B  x1  (first shared by CPUs 0-63)  from sysfs\n");
    CHECK_CONTAINS(text, "Huge page sizes: 64 KiB 2 MiB 32 MiB 1 GiB\n");
    free(text);
    topology_free(&t);
}

/* arm64 caches from a device tree that gives levels and types but no sizes (QEMU
 * "virt", many boards): nothing is invented, the defaults are said, and the line
 * size falls back to the architecture's. */
TEST(topology_arm64_device_tree_without_sizes)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-1\n");
    char rel[128];
    static const char *const types[] = {"Data", "Instruction", "Unified"};
    static const int levels[] = {1, 1, 2};
    for (int cpu = 0; cpu < 2; cpu++)
        for (int i = 0; i < 3; i++) {
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
            test_write_file(root, rel, levels[i] == 1 ? "1\n" : "2\n");
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/type", cpu, i);
            test_write_file(root, rel, types[i]);
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, i);
            test_write_file(root, rel, i == 2 ? "0-1\n" : cpu ? "1\n" : "0\n");
        }
    topology t;
    CHECK(topology_load(root, NULL, &t));
    CHECK_INT(t.ncaches, 0);
    CHECK_INT(topology_max_cache_level(&t), 0);
    CHECK(topology_cache_level(&t, 2).defaulted);
    CHECK_INT(topology_cache_level(&t, 2).size, 256 << 10);
    CHECK_INT(topology_cache_level(&t, 1).line_size, arch_cache_line_bytes());
    CHECK(has_warning(&t, "cache index0 (L1): size unreadable on CPU(s) 0-1, ignored"));
    CHECK(has_warning(&t, "cache index2 (L2): size unreadable on CPU(s) 0-1, ignored"));
    CHECK(!has_warning(&t, "index1")); /* instruction caches are not looked at */
    CHECK(dram_basis_none(&(dram_basis){0}) && dram_basis_for(&t, NULL, 0).bytes == 0); /* no L3 source: the floor */
    topology_free(&t);
}

TEST(topology_power9_lpar)
{
    topology t;
    CHECK(topology_load(fixture_once(fixture_power9_lpar), NULL, &t));
    CHECK_INT(t.ncpus, 32);
    CHECK_INT(t.ncores, 4); /* SMT8 */
    CHECK_INT(topology_cpu(&t, 13)->smt_rank, 5);
    CHECK_INT(topology_cpu(&t, 13)->core_id, 8);
    CHECK_INT(topology_cpu(&t, 13)->package_id, -1);
    /* package -1 everywhere: one package, said once, and not "ids missing" */
    CHECK_INT(t.npackages, 1);
    CHECK(has_warning(&t, "physical package id -1 (not known to the kernel, as on PowerVM) on 32 of 32 CPUs: "
                          "counted as one package"));
    CHECK(!has_warning(&t, "ids missing"));
    /* nodes 0 and 8 */
    CHECK_INT(t.nnodes, 2);
    CHECK_INT(t.nodes[1].id, 8);
    CHECK_INT(topology_cpu(&t, 16)->node, 8);
    CHECK_INT(topology_cpu(&t, 15)->node, 0);
    CHECK_INT(topology_node(&t, 8)->mem_total, 96ULL << 30);
    CHECK_INT(topology_memory_node(&t, 8), 8);
    CHECK(topology_node(&t, 1) == NULL);
    /* 128-byte lines at every level */
    CHECK_INT(topology_cache_level(&t, 1).line_size, 128);
    CHECK_INT(topology_cache_level(&t, 3).line_size, 128);
    CHECK_INT(topology_cache_level(&t, 1).size, 32 << 10);
    CHECK_INT(topology_cache_level(&t, 2).size, 512 << 10);
    CHECK_INT(topology_cache_level(&t, 3).size, 10 << 20);
    CHECK_STR(shared_text(&t, 1, 13), "9,11,13,15");
    CHECK_STR(shared_text(&t, 3, 13), "8-15");
    CHECK_INT(count_level(&t, 1), 8);
    CHECK_INT(count_level(&t, 3), 4);
    CHECK_INT(dram_basis_for(&t, NULL, 0).bytes, 40 << 20);
    int cpus[] = {8, 9, 10, 16};
    CHECK_INT(topology_cache_sharers(&t, 1, 8, cpus, 4), 2);
    CHECK_INT(topology_cache_sharers(&t, 3, 8, cpus, 4), 3);
    /* 64K base pages: 16M and 16G hugetlb, 16M THP */
    CHECK_INT(t.nhuge_sizes, 2);
    CHECK_INT(t.huge_sizes[0], 16 << 20);
    CHECK_INT(t.huge_sizes[1], 16ULL << 30);
    CHECK_INT(topology_huge_page_size(&t), 16 << 20);
    CHECK_INT(t.nwarnings, 1);
    char *text = report_text(&t);
    CHECK_CONTAINS(text, "CPUs: 32 online, 32 usable (0-31), 4 cores, 1 package(s)\n");
    CHECK_CONTAINS(text, "  node 8: CPUs 16-31, memory 96 GiB\n");
    CHECK_CONTAINS(text, "  L1 data        32 KiB  line 128 B  x8  (first shared by CPUs 0,2,4,6)  from sysfs\n");
    CHECK_CONTAINS(text, "Huge page sizes: 16 MiB 16 GiB\nTHP: always (16 MiB pages)\n");
    free(text);
    topology_free(&t);
}

TEST(topology_s390x_z15_lpar)
{
    topology t;
    CHECK(topology_load(fixture_once(fixture_s390x_z15_lpar), NULL, &t));
    CHECK_INT(t.ncpus, 8);
    CHECK_INT(t.ncores, 4);
    CHECK_INT(topology_cpu(&t, 7)->smt_rank, 1);
    CHECK_INT(t.npackages, 2); /* socket ids 1 and 2 */
    CHECK_INT(t.nnodes, 1);
    CHECK_INT(topology_cache_level(&t, 1).size, 128 << 10);
    CHECK_INT(topology_cache_level(&t, 1).line_size, 256);
    CHECK_INT(topology_cache_level(&t, 2).size, 4 << 20);
    CHECK_INT(topology_cache_level(&t, 2).line_size, 256);
    CHECK_STR(shared_text(&t, 2, 3), "3");
    CHECK_INT(count_level(&t, 2), 8); /* the data L2s; instruction halves are not listed */
    CHECK_INT(t.nhuge_sizes, 2);
    CHECK_INT(t.huge_sizes[0], 1 << 20);
    CHECK_INT(t.huge_sizes[1], 2ULL << 30);
    CHECK_INT(topology_huge_page_size(&t), 1 << 20);
    /* sysfs alone: no L3, the default is said */
    CHECK(topology_cache_level(&t, 3).defaulted);
    CHECK(has_warning(&t, "no source reports L3"));
    CHECK_INT(topology_cache_level(&t, 3).line_size, 256); /* the L1's line, not the default 64 */
    /* /proc/cpuinfo adds the shared L3 and L4 */
    topology_add_cpuinfo_caches(&t, fixture_s390x_z15_cpuinfo);
    CHECK(!topology_cache_level(&t, 3).defaulted);
    CHECK_INT(topology_cache_level(&t, 3).size, 256 << 20);
    CHECK_INT(topology_cache_level(&t, 3).line_size, 256);
    CHECK_INT(topology_max_cache_level(&t), 4);
    CHECK_INT(dram_basis_for(&t, NULL, 0).bytes, 960ULL << 20);
    CHECK_STR(shared_text(&t, 4, 5), "0-7");
    CHECK_INT(count_level(&t, 1), 8); /* sysfs levels untouched */
    CHECK_INT(count_level(&t, 2), 8);
    CHECK(!has_warning(&t, "no source reports"));
    CHECK(has_warning(&t, "L3 (256 MiB, shared) is not in sysfs: taken from /proc/cpuinfo as shared by all 8 CPUs"));
    CHECK(has_warning(&t, "L4 (960 MiB, shared) is not in sysfs"));
    char *text = report_text(&t);
    CHECK_CONTAINS(text, "CPUs: 8 online, 8 usable (0-7), 4 cores, 2 package(s)\n");
    CHECK_CONTAINS(text, "  L1 data       128 KiB  line 256 B  x8  (first shared by CPUs 0)  from sysfs\n");
    CHECK_CONTAINS(text, "  L4 unified    960 MiB  line 256 B  x1  (first shared by CPUs 0-7)  from /proc/cpuinfo\n");
    CHECK_CONTAINS(text, "Huge page sizes: 1 MiB 2 GiB\nTHP: madvise (1 MiB pages)\n");
    free(text);
    topology_free(&t);
}

/* A machine whose sysfs has every level adds nothing from cpuinfo; a private cache
 * sysfs lacks is one per CPU. */
TEST(topology_cpuinfo_caches_only_fill_gaps)
{
    topology t;
    CHECK(topology_load(fixture_two_socket_smt(), NULL, &t));
    size_t before = t.ncaches;
    topology_add_cpuinfo_caches(&t, fixture_s390x_z15_cpuinfo);
    CHECK_INT(t.ncaches, before + 1); /* only the L4 */
    CHECK_INT(topology_cache_level(&t, 3).size, 32 << 20);
    topology_add_cpuinfo_caches(&t, NULL);
    CHECK_INT(t.ncaches, before + 1);
    topology_free(&t);
    CHECK(topology_load(test_tempdir(), NULL, &t) == false);
    cpu_list two;
    CHECK(cpu_list_parse("0-1", &two));
    CHECK(topology_load(test_tempdir(), &two, &t));
    topology_add_cpuinfo_caches(&t, "cache0 : level=1 type=Data scope=Private size=128K line_size=256 associativity=8\n");
    CHECK_INT(count_level(&t, 1), 2);
    CHECK_STR(shared_text(&t, 1, 1), "1");
    CHECK_INT(topology_cache_level(&t, 1).line_size, 256);
    CHECK(has_warning(&t, "L1 (128 KiB, private) is not in sysfs: taken from /proc/cpuinfo, one per CPU"));
    cpu_list_free(&two);
    topology_free(&t);
}
