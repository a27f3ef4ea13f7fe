/* SPDX-License-Identifier: MIT */
#include "fixtures_devicetree.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#define DT_BASE "firmware/devicetree/base"

/* Creates the parent directories of path (as test_main.c's mkdirs, which is static
 * there). */
static void make_parents(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
}

/* A property's raw bytes: test_write_file writes text and would stop at a NUL. */
static void put_bytes(const char *root, const char *node, const char *name, const void *bytes, size_t len)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/" DT_BASE "/%s/%s", root, node, name);
    make_parents(path);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static void put_cells(const char *root, const char *node, const char *name, const uint32_t *cells, size_t n)
{
    unsigned char b[64];
    for (size_t i = 0; i < n && i < 16; i++) {
        b[4 * i] = (unsigned char)(cells[i] >> 24);
        b[4 * i + 1] = (unsigned char)(cells[i] >> 16);
        b[4 * i + 2] = (unsigned char)(cells[i] >> 8);
        b[4 * i + 3] = (unsigned char)cells[i];
    }
    put_bytes(root, node, name, b, 4 * (n < 16 ? n : 16));
}

static void put_u32(const char *root, const char *node, const char *name, uint32_t v)
{
    put_cells(root, node, name, &v, 1);
}

/* A string property keeps its NUL, as the kernel shows it. */
static void put_str(const char *root, const char *node, const char *name, const char *s)
{
    put_bytes(root, node, name, s, strlen(s) + 1);
}

static void put_flag(const char *root, const char *node, const char *name)
{
    put_bytes(root, node, name, "", 0);
}

/* cpuN/of_node as the kernel links it: relative, into the tree under the same root. */
static void of_node_link(const char *root, int cpu, const char *node)
{
    char path[1024], target[512];
    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/of_node", root, cpu);
    snprintf(target, sizeof target, "../../../../" DT_BASE "/cpus/%s", node);
    make_parents(path);
    if (symlink(target, path) != 0) {
        fprintf(stderr, "cannot link %s\n", path);
        exit(1);
    }
}

static void sysfs_cpu(const char *root, int cpu, int core, int package)
{
    char rel[128], v[32];
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/topology/core_id", cpu);
    snprintf(v, sizeof v, "%d\n", core);
    test_write_file(root, rel, v);
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    snprintf(v, sizeof v, "%d\n", package);
    test_write_file(root, rel, v);
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    snprintf(v, sizeof v, "%d\n", cpu);
    test_write_file(root, rel, v);
}

/* A sysfs cache index with level, type and sharers but no size file. */
static void sysfs_cache_unsized(const char *root, int cpu, int index, int level, const char *type, const char *shared)
{
    char rel[128], v[64];
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/level", cpu, index);
    snprintf(v, sizeof v, "%d\n", level);
    test_write_file(root, rel, v);
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/type", cpu, index);
    snprintf(v, sizeof v, "%s\n", type);
    test_write_file(root, rel, v);
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
    snprintf(v, sizeof v, "%s\n", shared);
    test_write_file(root, rel, v);
}

/* A cpu node's own split L1: sizes, line and sets for both sides. */
static void l1_split(const char *root, const char *node, uint32_t dsize, uint32_t isize, uint32_t line,
                     uint32_t dsets, uint32_t isets)
{
    put_u32(root, node, "d-cache-size", dsize);
    put_u32(root, node, "d-cache-line-size", line);
    put_u32(root, node, "d-cache-sets", dsets);
    put_u32(root, node, "i-cache-size", isize);
    put_u32(root, node, "i-cache-line-size", line);
    put_u32(root, node, "i-cache-sets", isets);
}

/* An arm64 cache node as Linux's bindings write it (compatible "cache"). */
static void arm_cache(const char *root, const char *node, uint32_t level, uint32_t size, uint32_t sets,
                      uint32_t phandle, uint32_t next)
{
    put_str(root, node, "compatible", "cache");
    put_u32(root, node, "cache-level", level);
    put_flag(root, node, "cache-unified");
    put_u32(root, node, "cache-size", size);
    put_u32(root, node, "cache-line-size", 64);
    put_u32(root, node, "cache-sets", sets);
    put_u32(root, node, "phandle", phandle);
    if (next)
        put_u32(root, node, "next-level-cache", next);
}

static void arm_cpu_node(const char *root, const char *node, uint32_t mpidr, const char *compatible, uint32_t phandle)
{
    uint32_t reg[2] = {0, mpidr};
    put_str(root, node, "device_type", "cpu");
    put_str(root, node, "compatible", compatible);
    put_cells(root, node, "reg", reg, 2);
    put_str(root, node, "enable-method", "psci");
    put_u32(root, node, "phandle", phandle);
}

/* Nodes every arm64 tree has that are no caches but have phandles (the walk sees them). */
static void arm_common(const char *root)
{
    put_u32(root, "cpus", "#address-cells", 2);
    put_u32(root, "cpus", "#size-cells", 0);
    put_str(root, "psci", "compatible", "arm,psci-1.0");
    put_str(root, "psci", "method", "smc");
    put_str(root, "interrupt-controller@8000000", "compatible", "arm,gic-v3");
    put_u32(root, "interrupt-controller@8000000", "phandle", 1);
    put_flag(root, "interrupt-controller@8000000", "interrupt-controller");
}

static const char *arm64_n1(bool links)
{
    const char *root = test_tempdir();
    arm_common(root);
    test_write_file(root, "devices/system/cpu/online", "0-7\n");
    for (int k = 0; k < 8; k++) {
        char cpu[64], l2[96], self[16], map[64];
        if (k == 0)
            snprintf(cpu, sizeof cpu, "cpus/cpu@0");
        else
            snprintf(cpu, sizeof cpu, "cpus/cpu@%x00", k);
        arm_cpu_node(root, cpu, (uint32_t)k << 8, "arm,neoverse-n1", 0x10 + (uint32_t)k);
        l1_split(root, cpu, 64 << 10, 64 << 10, 64, 256, 256);
        put_u32(root, cpu, "next-level-cache", 0x100 + (uint32_t)k);
        snprintf(l2, sizeof l2, "%s/l2-cache", cpu);
        arm_cache(root, l2, 2, 1 << 20, 2048, 0x100 + (uint32_t)k, 0x200);
        snprintf(map, sizeof map, "cpus/cpu-map/cluster0/core%d", k);
        put_u32(root, map, "cpu", 0x10 + (uint32_t)k);
        sysfs_cpu(root, k, k, 0);
        snprintf(self, sizeof self, "%d", k);
        sysfs_cache_unsized(root, k, 0, 1, "Data", self);
        sysfs_cache_unsized(root, k, 1, 1, "Instruction", self);
        sysfs_cache_unsized(root, k, 2, 2, "Unified", self);
        sysfs_cache_unsized(root, k, 3, 3, "Unified", "0-7");
        if (links)
            of_node_link(root, k, cpu + strlen("cpus/"));
    }
    arm_cache(root, "l3-cache", 3, 32 << 20, 32768, 0x200, 0);
    return root;
}

const char *fixture_dt_arm64_n1(void)
{
    static const char *root;
    return root ? root : (root = arm64_n1(true));
}

const char *fixture_dt_arm64_n1_no_of_node(void)
{
    static const char *root;
    return root ? root : (root = arm64_n1(false));
}

const char *fixture_dt_arm64_many_l2(void)
{
    static const char *root;
    if (root)
        return root;
    root = test_tempdir();
    arm_common(root);
    test_write_file(root, "devices/system/cpu/online", "0-71\n");
    for (uint32_t k = 0; k < 72; k++) {
        char cpu[64], l2[96];
        snprintf(cpu, sizeof cpu, "cpus/cpu@%x", k);
        arm_cpu_node(root, cpu, k, "arm,neoverse-n1", 0x1000 + k);
        l1_split(root, cpu, 64 << 10, 64 << 10, 64, 256, 256);
        put_u32(root, cpu, "next-level-cache", 0x2000 + k);
        snprintf(l2, sizeof l2, "%s/l2-cache", cpu);
        arm_cache(root, l2, 2, 1 << 20, 2048, 0x2000 + k, 0x200);
        sysfs_cpu(root, (int)k, (int)k, 0);
        of_node_link(root, (int)k, cpu + strlen("cpus/"));
    }
    arm_cache(root, "l3-cache", 3, 32 << 20, 32768, 0x200, 0);
    return root;
}

/* As mainline's rk3399.dtsi, trimmed to what caches need. */
static const char *rk3399(bool big_boot_links)
{
    static const char *const little[] = {"cpu@0", "cpu@1", "cpu@2", "cpu@3"};
    static const char *const big[] = {"cpu@100", "cpu@101"};
    const char *root = test_tempdir();
    arm_common(root);
    test_write_file(root, "devices/system/cpu/online", "0-5\n");
    for (uint32_t k = 0; k < 4; k++) {
        char cpu[64];
        snprintf(cpu, sizeof cpu, "cpus/%s", little[k]);
        arm_cpu_node(root, cpu, k, "arm,cortex-a53", 0x10 + k);
        l1_split(root, cpu, 32 << 10, 32 << 10, 64, 128, 256);
        put_u32(root, cpu, "next-level-cache", 0x30);
    }
    for (uint32_t k = 0; k < 2; k++) {
        char cpu[64];
        snprintf(cpu, sizeof cpu, "cpus/%s", big[k]);
        arm_cpu_node(root, cpu, 0x100 + k, "arm,cortex-a72", 0x20 + k);
        l1_split(root, cpu, 32 << 10, 48 << 10, 64, 256, 256);
        put_u32(root, cpu, "next-level-cache", 0x31);
    }
    arm_cache(root, "cpus/l2-cache-cluster0", 2, 512 << 10, 512, 0x30, 0);
    arm_cache(root, "cpus/l2-cache-cluster1", 2, 1 << 20, 1024, 0x31, 0);
    for (int cpu = 0; cpu < 6; cpu++) {
        sysfs_cpu(root, cpu, cpu, 0);
        if (big_boot_links)
            of_node_link(root, cpu, cpu < 2 ? big[cpu] : little[cpu - 2]);
    }
    return root;
}

const char *fixture_dt_rk3399_big_boot(void)
{
    static const char *root;
    return root ? root : (root = rk3399(true));
}

const char *fixture_dt_rk3399_no_of_node(void)
{
    static const char *root;
    return root ? root : (root = rk3399(false));
}

/* A POWER cache node as skiboot writes it: device_type "cache", the d- and i-
 * properties equal, cache-unified, no cache-level, the next level by l2-cache. */
static void power_cache(const char *root, const char *node, uint32_t size, uint32_t phandle, uint32_t next)
{
    put_str(root, node, "device_type", "cache");
    put_flag(root, node, "cache-unified");
    put_u32(root, node, "d-cache-size", size);
    put_u32(root, node, "i-cache-size", size);
    put_u32(root, node, "d-cache-line-size", 128);
    put_u32(root, node, "i-cache-line-size", 128);
    put_u32(root, node, "d-cache-sets", 8);
    put_u32(root, node, "i-cache-sets", 8);
    put_str(root, node, "status", "okay");
    put_u32(root, node, "phandle", phandle);
    if (next)
        put_u32(root, node, "l2-cache", next);
}

const char *fixture_dt_power9(void)
{
    static const char *root;
    if (root)
        return root;
    root = test_tempdir();
    put_u32(root, "cpus", "#address-cells", 1);
    put_u32(root, "cpus", "#size-cells", 0);
    test_write_file(root, "devices/system/cpu/online", "0-15\n");
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t pir = 8 + 4 * c, servers[4] = {pir, pir + 1, pir + 2, pir + 3};
        char name[64], cpu[96];
        snprintf(name, sizeof name, "PowerPC,POWER9@%x", pir);
        snprintf(cpu, sizeof cpu, "cpus/%s", name);
        put_str(root, cpu, "device_type", "cpu");
        put_u32(root, cpu, "reg", pir);
        put_cells(root, cpu, "ibm,ppc-interrupt-server#s", servers, 4);
        put_u32(root, cpu, "d-cache-block-size", 128);
        put_u32(root, cpu, "i-cache-block-size", 128);
        l1_split(root, cpu, 32 << 10, 32 << 10, 128, 8, 8);
        put_u32(root, cpu, "l2-cache", 0x40 + c / 2);
        put_u32(root, cpu, "phandle", 0x30 + c);
        put_str(root, cpu, "status", "okay");
        for (int t = 0; t < 4; t++) {
            sysfs_cpu(root, (int)(4 * c) + t, (int)pir, 0);
            of_node_link(root, (int)(4 * c) + t, name);
        }
    }
    power_cache(root, "cpus/l2-cache@2000", 512 << 10, 0x40, 0x50);
    power_cache(root, "cpus/l2-cache@2001", 512 << 10, 0x41, 0x51);
    power_cache(root, "cpus/l3-cache@3000", 10 << 20, 0x50, 0);
    power_cache(root, "cpus/l3-cache@3001", 10 << 20, 0x51, 0);
    return root;
}

static const char *riscv_fu740(bool links)
{
    const char *root = test_tempdir();
    put_u32(root, "cpus", "#address-cells", 1);
    put_u32(root, "cpus", "#size-cells", 0);
    test_write_file(root, "devices/system/cpu/online", "0-3\n");
    for (uint32_t k = 0; k < 5; k++) {
        char cpu[64], intc[96];
        snprintf(cpu, sizeof cpu, "cpus/cpu@%u", k);
        put_str(root, cpu, "device_type", "cpu");
        put_u32(root, cpu, "reg", k);
        put_u32(root, cpu, "i-cache-block-size", 64);
        put_u32(root, cpu, "i-cache-sets", 128);
        put_u32(root, cpu, "i-cache-size", k ? 32 << 10 : 16 << 10);
        put_u32(root, cpu, "next-level-cache", 0x20);
        put_u32(root, cpu, "phandle", 1 + k);
        snprintf(intc, sizeof intc, "%s/interrupt-controller", cpu);
        put_str(root, intc, "compatible", "riscv,cpu-intc");
        put_u32(root, intc, "phandle", 0x10 + k);
        if (k == 0) { /* the S7 monitor hart: a DTIM, no data cache; Linux does not run on it */
            put_str(root, cpu, "compatible", "sifive,bullet0");
            put_str(root, cpu, "riscv,isa", "rv64imac");
            put_str(root, cpu, "status", "disabled");
            continue;
        }
        put_str(root, cpu, "compatible", "sifive,u74-mc");
        put_str(root, cpu, "riscv,isa", "rv64imafdc");
        put_u32(root, cpu, "d-cache-block-size", 64);
        put_u32(root, cpu, "d-cache-sets", 64);
        put_u32(root, cpu, "d-cache-size", 32 << 10);
        put_str(root, cpu, "status", "okay");
        sysfs_cpu(root, (int)k - 1, (int)k - 1, 0);
        snprintf(cpu, sizeof cpu, "cpu@%u", k);
        if (links)
            of_node_link(root, (int)k - 1, cpu);
    }
    static const char ccache_compatible[] = "sifive,fu740-c000-ccache\0cache";
    const char *cc = "soc/cache-controller@2010000";
    put_bytes(root, cc, "compatible", ccache_compatible, sizeof ccache_compatible);
    put_u32(root, cc, "cache-block-size", 64);
    put_u32(root, cc, "cache-sets", 2048);
    put_u32(root, cc, "cache-size", 2 << 20);
    put_flag(root, cc, "cache-unified");
    put_u32(root, cc, "phandle", 0x20);
    return root;
}

const char *fixture_dt_riscv_fu740(void)
{
    static const char *root;
    return root ? root : (root = riscv_fu740(true));
}

const char *fixture_dt_riscv_fu740_no_of_node(void)
{
    static const char *root;
    return root ? root : (root = riscv_fu740(false));
}

const char *fixture_dt_qemu_virt(void)
{
    static const char *root;
    if (root)
        return root;
    root = test_tempdir();
    arm_common(root);
    test_write_file(root, "devices/system/cpu/online", "0-3\n");
    for (uint32_t k = 0; k < 4; k++) {
        char cpu[64];
        snprintf(cpu, sizeof cpu, "cpus/cpu@%u", k);
        arm_cpu_node(root, cpu, k, "arm,cortex-a57", 0x8000 + k);
        sysfs_cpu(root, (int)k, (int)k, 0);
        of_node_link(root, (int)k, cpu + strlen("cpus/"));
    }
    return root;
}

/* Eight cpu nodes cpu@0..cpu@7 (CPU N by of_node), each broken in its own way:
 *   0: d-cache-size 8 bytes long (no L1); next-level-cache -> cpus/l2-a (cache-level
 *      2, 256K) -> /l3-b (no cache-level, 1M) -> back to l2-a: a loop;
 *   1: next-level-cache names phandle 0x99, which only /l-badphandle "has" in a
 *      5-byte phandle property (a valid-looking 2M L2 that must not appear);
 *   2: no line size; next-level-cache 8 bytes long (two phandles): ignored;
 *   3: next-level-cache -> cpus/cpu@3/self, whose next-level-cache is itself and
 *      whose cache-size is 3 bytes long;
 *   4: a chain of 10 cache nodes /chain/dN (N MiB, no cache-level): levels 2..8 kept;
 *   5: next-level-cache -> /e-level1 (cache-level 1: not above L1), which links on
 *      to /f-l3 (cache-level 3): neither may appear;
 *   6: i-cache only -> /h-icache (i-cache-size only) -> /i-l3 (cache-level 3, 4M);
 *   7: L1d 64K (0x00010000: read little-endian it would be 256 bytes) -> /j-level9
 *      (cache-level 9, beyond any chain). */
const char *fixture_dt_malformed(void)
{
    static const char *root;
    if (root)
        return root;
    root = test_tempdir();
    put_u32(root, "cpus", "#address-cells", 1);
    test_write_file(root, "devices/system/cpu/online", "0-7\n");
    for (uint32_t k = 0; k < 8; k++) {
        char cpu[64];
        snprintf(cpu, sizeof cpu, "cpus/cpu@%u", k);
        put_str(root, cpu, "device_type", "cpu");
        put_u32(root, cpu, "reg", k);
        put_u32(root, cpu, "phandle", 1 + k);
        if (k != 0 && k != 6)
            put_u32(root, cpu, "d-cache-size", k == 7 ? 64 << 10 : 32 << 10);
        if (k != 0 && k != 2 && k != 6)
            put_u32(root, cpu, "d-cache-line-size", 64);
        sysfs_cpu(root, (int)k, (int)k, 0);
        of_node_link(root, (int)k, cpu + strlen("cpus/"));
    }
    static const uint32_t two[2] = {0x10, 0x11};
    static const unsigned char eight[8] = {0, 0, 0, 0, 0, 1, 0, 0};
    put_bytes(root, "cpus/cpu@0", "d-cache-size", eight, sizeof eight);
    put_u32(root, "cpus/cpu@0", "i-cache-size", 32 << 10);
    put_u32(root, "cpus/cpu@0", "next-level-cache", 0x10);
    arm_cache(root, "cpus/l2-a", 2, 256 << 10, 256, 0x10, 0x11);
    put_u32(root, "l3-b", "cache-size", 1 << 20);
    put_u32(root, "l3-b", "phandle", 0x11);
    put_u32(root, "l3-b", "next-level-cache", 0x10);

    static const unsigned char bad_phandle[5] = {0, 0, 0, 0x99, 0};
    put_u32(root, "cpus/cpu@1", "next-level-cache", 0x99);
    arm_cache(root, "l-badphandle", 2, 2 << 20, 2048, 0x98, 0);
    put_bytes(root, "l-badphandle", "phandle", bad_phandle, sizeof bad_phandle);

    put_cells(root, "cpus/cpu@2", "next-level-cache", two, 2);

    static const unsigned char three[3] = {0, 1, 0};
    put_u32(root, "cpus/cpu@3", "next-level-cache", 0x30);
    put_bytes(root, "cpus/cpu@3/self", "cache-size", three, sizeof three);
    put_flag(root, "cpus/cpu@3/self", "cache-unified");
    put_u32(root, "cpus/cpu@3/self", "phandle", 0x30);
    put_u32(root, "cpus/cpu@3/self", "next-level-cache", 0x30);

    put_u32(root, "cpus/cpu@4", "next-level-cache", 0x40);
    for (uint32_t i = 1; i <= 10; i++) {
        char node[32];
        snprintf(node, sizeof node, "chain/d%u", i);
        put_u32(root, node, "cache-size", i << 20);
        put_u32(root, node, "cache-line-size", 64);
        put_u32(root, node, "phandle", 0x40 + i - 1);
        if (i < 10)
            put_u32(root, node, "next-level-cache", 0x40 + i);
    }

    put_u32(root, "cpus/cpu@5", "next-level-cache", 0x50);
    arm_cache(root, "e-level1", 1, 16 << 10, 64, 0x50, 0x51);
    arm_cache(root, "f-l3", 3, 8 << 20, 8192, 0x51, 0);

    put_u32(root, "cpus/cpu@6", "i-cache-size", 32 << 10);
    put_u32(root, "cpus/cpu@6", "next-level-cache", 0x60);
    put_u32(root, "h-icache", "i-cache-size", 256 << 10);
    put_u32(root, "h-icache", "phandle", 0x60);
    put_u32(root, "h-icache", "next-level-cache", 0x61);
    arm_cache(root, "i-l3", 3, 4 << 20, 4096, 0x61, 0);

    put_u32(root, "cpus/cpu@7", "next-level-cache", 0x70);
    arm_cache(root, "j-level9", 9, 64 << 20, 65536, 0x70, 0);
    return root;
}
