/* SPDX-License-Identifier: MIT */
/* Device trees as Linux shows them under /sys/firmware/devicetree/base (a directory
 * per node, a file per property, big-endian cells), with the sysfs CPU directories
 * that go with them, written into fresh temporary directories. Each returns the
 * root (pass to topology_load and devicetree_caches); a tree is written once per
 * test binary and shared by the tests that ask for it. */
#ifndef MEMBENCH_TEST_FIXTURES_DEVICETREE_H
#define MEMBENCH_TEST_FIXTURES_DEVICETREE_H

/* 8 Neoverse N1 cores (cpu@0 .. cpu@700, reg = MPIDR in two cells): L1d 64K line 64
 * in each cpu node, a private L2 1M line 64 (cache-level 2) as a child of each cpu
 * node, and a 32M SLC (cache-level 3) at /l3-cache reached by all; cpuN/of_node links;
 * sysfs cache directories with level and type but no size (as arm64 guests have). */
const char *fixture_dt_arm64_n1(void);
/* The same tree with no of_node links (a recording that did not keep them). */
const char *fixture_dt_arm64_n1_no_of_node(void);

/* 72 such cores (cpu@0 .. cpu@47 by hex reg), each with its own L2 node: 73 cache
 * nodes, more than devicetree_caches keeps (DT_MAX_CACHE_NODES). */
const char *fixture_dt_arm64_many_l2(void);

/* A Rockchip RK3399 (big.LITTLE): cpu@0..cpu@3 Cortex-A53 (L1d 32K, L2 512K shared
 * by the four), cpu@100, cpu@101 Cortex-A72 (L1d 32K, L2 1M shared by the two),
 * L2 nodes under cpus/. Names sort (cpu@0, cpu@1, cpu@100, cpu@101, cpu@2, cpu@3)
 * differently from reg. big_boot: of_node links of a kernel that booted on a big
 * core (CPU 0-1 = cpu@100, cpu@101; CPU 2-5 = cpu@0..3), so they disagree with reg
 * order; no_of_node: no links at all (pairing by reg gives CPU 0-3 little). */
const char *fixture_dt_rk3399_big_boot(void);
const char *fixture_dt_rk3399_no_of_node(void);

/* An OpenPOWER POWER9 (PowerNV, SMT4) with 4 cores of 4 threads, 16 CPUs: cpu nodes
 * PowerPC,POWER9@8, @c, @10, @14 (reg = PIR), each CPUs 0-3, 4-7, 8-11, 12-15 by
 * of_node; L1d 32K line 128 in the cpu node; l2-cache links to cpus/l2-cache@2000
 * (cores @8, @c) and @2001 (cores @10, @14), 512K, d-cache-size with cache-unified;
 * each L2's l2-cache links to its own 10M L3 (cpus/l3-cache@3000, @3001). No
 * cache-level anywhere: levels come from the chain. */
const char *fixture_dt_power9(void);

/* A SiFive FU740 (HiFive Unmatched) shape: cpu@0 the S7 monitor hart (i-cache only,
 * status "disabled", not online), cpu@1..cpu@4 U74 harts (L1d 32K, d-cache-block-size
 * 64) as CPUs 0-3 by of_node; all link by next-level-cache to the 2M cache controller
 * at soc/cache-controller@2010000 (cache-block-size 64), which has no cache-level
 * (an older tree). no_of_node: the same without links (5 cpu nodes, 4 enabled, for
 * 4 online CPUs). */
const char *fixture_dt_riscv_fu740(void);
const char *fixture_dt_riscv_fu740_no_of_node(void);

/* QEMU's arm64 virt machine: 4 cpu nodes with no cache property at all. */
const char *fixture_dt_qemu_virt(void);

/* 8 CPUs by of_node, each cpu node broken in its own way (the fixture's comments
 * say how); tests/unit/test_devicetree_caches.c lists what must come out. */
const char *fixture_dt_malformed(void);

#endif
