/* SPDX-License-Identifier: MIT */
/* devicetree_caches on recorded device trees (fixtures_devicetree.h): every instance's
 * level, type, size, line and exact CPU list, so that a wrong byte order, a level off
 * by one, sharing that ignores the chain or an ignored of_node link shows. */
#include <stdlib.h>
#include <string.h>

#include "fixtures_devicetree.h"
#include "test.h"
#include "topology/devicetree_caches.h"

/* One line per instance, in the order returned: "L2 U 1048576 64 0-7 dt". */
static const char *describe(const cache_instance *c, size_t n)
{
    static char buf[8192];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < sizeof buf; i++) {
        char cpus[512];
        cpu_list_format(c[i].shared.ids, c[i].shared.count, cpus, sizeof cpus);
        int w = snprintf(buf + used, sizeof buf - used, "L%d %c %llu %d %s %s\n", c[i].level,
                         c[i].type == CACHE_DATA ? 'D' : c[i].type == CACHE_UNIFIED ? 'U' : 'I',
                         (unsigned long long)c[i].size, c[i].line_size, cpus,
                         c[i].source == CACHE_FROM_DEVICE_TREE ? "dt" : "other");
        used += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

static void free_instances(cache_instance *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cpu_list_free(&c[i].shared);
    free(c);
}

typedef struct {
    bool found;
    char text[8192];
    char note[256];
} dt_result;

/* devicetree_caches on root with the topology sysfs under root gives. */
static dt_result run(const char *root)
{
    dt_result r = {0};
    topology t;
    cache_instance *c = NULL;
    size_t n = 0;
    if (!topology_load(root, NULL, &t)) {
        snprintf(r.text, sizeof r.text, "no topology");
        return r;
    }
    r.found = devicetree_caches(root, &t, &c, &n, r.note, sizeof r.note);
    snprintf(r.text, sizeof r.text, "%s", describe(c, n));
    free_instances(c, n);
    topology_free(&t);
    return r;
}

TEST(devicetree_arm64_n1_of_node)
{
    dt_result r = run(fixture_dt_arm64_n1());
    CHECK(r.found);
    CHECK_STR(r.note, "");
    CHECK_STR(r.text, "L1 D 65536 64 0 dt\nL1 D 65536 64 1 dt\nL1 D 65536 64 2 dt\nL1 D 65536 64 3 dt\n"
                      "L1 D 65536 64 4 dt\nL1 D 65536 64 5 dt\nL1 D 65536 64 6 dt\nL1 D 65536 64 7 dt\n"
                      "L2 U 1048576 64 0 dt\nL2 U 1048576 64 1 dt\nL2 U 1048576 64 2 dt\nL2 U 1048576 64 3 dt\n"
                      "L2 U 1048576 64 4 dt\nL2 U 1048576 64 5 dt\nL2 U 1048576 64 6 dt\nL2 U 1048576 64 7 dt\n"
                      "L3 U 33554432 64 0-7 dt\n");
}

/* Sysfs there has cache directories without sizes: the sizes only the tree has. */
TEST(devicetree_arm64_n1_sysfs_has_no_sizes)
{
    topology t;
    CHECK(topology_load(fixture_dt_arm64_n1(), NULL, &t));
    size_t sysfs = 0;
    for (size_t i = 0; i < t.ncaches; i++)
        sysfs += t.caches[i].source == CACHE_FROM_SYSFS;
    CHECK_INT(sysfs, 0);
    topology_free(&t);
}

TEST(devicetree_arm64_n1_paired_by_reg)
{
    dt_result r = run(fixture_dt_arm64_n1_no_of_node());
    CHECK(r.found);
    CHECK_STR(r.note, "no cpuN/of_node links: its 8 cpu nodes paired with the online CPUs in "
                      "ascending reg order");
    CHECK_STR(r.text, run(fixture_dt_arm64_n1()).text);
}

/* 73 cache nodes for 64 places: the first 63 L2s (in cpu node name order) are kept,
 * the rest said; the chains still reach the shared L3 through the L2s left out. */
TEST(devicetree_too_many_cache_nodes)
{
    topology t;
    CHECK(topology_load(fixture_dt_arm64_many_l2(), NULL, &t));
    cache_instance *c = NULL;
    size_t n = 0, per_level[4] = {0};
    char note[256];
    CHECK(devicetree_caches(fixture_dt_arm64_many_l2(), &t, &c, &n, note, sizeof note));
    CHECK_STR(note, "more than 64 cache nodes: the rest are left out");
    for (size_t i = 0; i < n; i++) {
        per_level[c[i].level < 4 ? c[i].level : 0]++;
        CHECK_INT(c[i].shared.count, c[i].level == 3 ? 72 : 1);
    }
    CHECK_INT(per_level[1], 72);
    CHECK_INT(per_level[2], 63);
    CHECK_INT(per_level[3], 1);
    CHECK_INT(per_level[0], 0);
    CHECK_STR(describe(c + n - 1, 1), "L3 U 33554432 64 0-71 dt\n");
    free_instances(c, n);
    topology_free(&t);
}

/* The links say CPU 0-1 are the big cores, against reg order: the links win. */
TEST(devicetree_rk3399_of_node_over_reg_order)
{
    dt_result r = run(fixture_dt_rk3399_big_boot());
    CHECK(r.found);
    CHECK_STR(r.note, "");
    CHECK_STR(r.text, "L1 D 32768 64 0 dt\nL1 D 32768 64 1 dt\nL1 D 32768 64 2 dt\nL1 D 32768 64 3 dt\n"
                      "L1 D 32768 64 4 dt\nL1 D 32768 64 5 dt\n"
                      "L2 U 1048576 64 0-1 dt\nL2 U 524288 64 2-5 dt\n");
}

/* By reg (not by name: cpu@100 sorts before cpu@2): CPU 0-3 are cpu@0..3. */
TEST(devicetree_rk3399_paired_by_reg)
{
    dt_result r = run(fixture_dt_rk3399_no_of_node());
    CHECK(r.found);
    CHECK_CONTAINS(r.note, "6 cpu nodes paired with the online CPUs in ascending reg order");
    CHECK_STR(r.text, "L1 D 32768 64 0 dt\nL1 D 32768 64 1 dt\nL1 D 32768 64 2 dt\nL1 D 32768 64 3 dt\n"
                      "L1 D 32768 64 4 dt\nL1 D 32768 64 5 dt\n"
                      "L2 U 524288 64 0-3 dt\nL2 U 1048576 64 4-5 dt\n");
}

/* One cpu node per SMT4 core: its four threads share its L1; l2-cache links; levels
 * 2 and 3 from the chain, as the tree has no cache-level. */
TEST(devicetree_power9_l2_cache_links_and_threads)
{
    dt_result r = run(fixture_dt_power9());
    CHECK(r.found);
    CHECK_STR(r.note, "");
    CHECK_STR(r.text, "L1 D 32768 128 0-3 dt\nL1 D 32768 128 4-7 dt\nL1 D 32768 128 8-11 dt\n"
                      "L1 D 32768 128 12-15 dt\n"
                      "L2 U 524288 128 0-7 dt\nL2 U 524288 128 8-15 dt\n"
                      "L3 U 10485760 128 0-7 dt\nL3 U 10485760 128 8-15 dt\n");
}

/* The disabled S7 hart (i-cache only) adds nothing; the cache controller under soc/
 * is level 2 by the chain; block sizes are the line sizes. */
TEST(devicetree_riscv_fu740_level_from_chain)
{
    dt_result r = run(fixture_dt_riscv_fu740());
    CHECK(r.found);
    CHECK_STR(r.note, "");
    CHECK_STR(r.text, "L1 D 32768 64 0 dt\nL1 D 32768 64 1 dt\nL1 D 32768 64 2 dt\nL1 D 32768 64 3 dt\n"
                      "L2 U 2097152 64 0-3 dt\n");
}

/* Pairing by reg counts only the enabled cpu nodes: the S7 hart is not a CPU. */
TEST(devicetree_riscv_fu740_paired_without_disabled_hart)
{
    dt_result r = run(fixture_dt_riscv_fu740_no_of_node());
    CHECK(r.found);
    CHECK_STR(r.note, "no cpuN/of_node links: its 4 cpu nodes paired with the online CPUs in "
                      "ascending reg order");
    CHECK_STR(r.text, run(fixture_dt_riscv_fu740()).text);
}

TEST(devicetree_malformed_bounded)
{
    dt_result r = run(fixture_dt_malformed());
    CHECK(r.found);
    CHECK_STR(r.note, "");
    CHECK_STR(r.text, "L1 D 32768 64 1 dt\nL1 D 32768 0 2 dt\nL1 D 32768 64 3 dt\nL1 D 32768 64 4 dt\n"
                      "L1 D 32768 64 5 dt\nL1 D 65536 64 7 dt\n"
                      "L2 U 262144 64 0 dt\nL2 U 1048576 64 4 dt\n"
                      "L3 U 1048576 0 0 dt\nL3 U 2097152 64 4 dt\nL3 U 4194304 64 6 dt\n"
                      "L4 U 3145728 64 4 dt\nL5 U 4194304 64 4 dt\nL6 U 5242880 64 4 dt\n"
                      "L7 U 6291456 64 4 dt\nL8 U 7340032 64 4 dt\n");
}

TEST(devicetree_qemu_virt_has_no_caches)
{
    dt_result r = run(fixture_dt_qemu_virt());
    CHECK(!r.found);
    CHECK_STR(r.note, "");
    CHECK_STR(r.text, "");
}

TEST(devicetree_absent)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-1\n");
    dt_result r = run(root);
    CHECK(!r.found);
    CHECK_STR(r.note, "");
}

/* Without links, 8 cpu nodes cannot be paired with 7 online CPUs: nothing, said. */
TEST(devicetree_unpairable_counts)
{
    cpu_info cpus[7];
    for (int i = 0; i < 7; i++)
        cpus[i] = (cpu_info){.id = i, .usable = true};
    topology t = {.cpus = cpus, .ncpus = 7};
    cache_instance *c = NULL;
    size_t n = 0;
    char note[256];
    CHECK(!devicetree_caches(fixture_dt_arm64_n1_no_of_node(), &t, &c, &n, note, sizeof note));
    CHECK_INT(n, 0);
    CHECK(c == NULL);
    CHECK_STR(note, "no cpuN/of_node links, and 8 enabled cpu nodes for 7 online CPUs cannot be "
                    "paired by reg: its caches are not used");
}

/* Appends after what the caller has; a NULL note is allowed. */
TEST(devicetree_appends)
{
    topology t;
    CHECK(topology_load(fixture_dt_riscv_fu740(), NULL, &t));
    cache_instance *c = malloc(sizeof *c);
    int *ids = malloc(sizeof(int));
    ids[0] = 3;
    c[0] = (cache_instance){1, CACHE_DATA, 4096, 32, {ids, 1}, CACHE_FROM_SYSFS};
    size_t n = 1;
    CHECK(devicetree_caches(fixture_dt_riscv_fu740(), &t, &c, &n, NULL, 0));
    CHECK_INT(n, 6);
    CHECK_STR(describe(c, n), "L1 D 4096 32 3 other\nL1 D 32768 64 0 dt\nL1 D 32768 64 1 dt\n"
                              "L1 D 32768 64 2 dt\nL1 D 32768 64 3 dt\nL2 U 2097152 64 0-3 dt\n");
    free_instances(c, n);
    topology_free(&t);
}
