/* SPDX-License-Identifier: MIT */
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "util/read_file.h"

static void put(const char *root, const char *value, const char *fmt, int a, int b)
{
    char rel[256];
    snprintf(rel, sizeof rel, fmt, a, b);
    test_write_file(root, rel, value);
}

static void cpu_topology(const char *root, int cpu, int core, int pkg, const char *siblings)
{
    char v[64];
    snprintf(v, sizeof v, "%d\n", core);
    put(root, v, "devices/system/cpu/cpu%d/topology/core_id%.0d", cpu, 0);
    snprintf(v, sizeof v, "%d\n", pkg);
    put(root, v, "devices/system/cpu/cpu%d/topology/physical_package_id%.0d", cpu, 0);
    snprintf(v, sizeof v, "%s\n", siblings);
    put(root, v, "devices/system/cpu/cpu%d/topology/thread_siblings_list%.0d", cpu, 0);
}

static void cpu_cache(const char *root, int cpu, int index, int level, const char *type, const char *size,
                      const char *shared)
{
    char v[64];
    snprintf(v, sizeof v, "%d\n", level);
    put(root, v, "devices/system/cpu/cpu%d/cache/index%d/level", cpu, index);
    snprintf(v, sizeof v, "%s\n", type);
    put(root, v, "devices/system/cpu/cpu%d/cache/index%d/type", cpu, index);
    snprintf(v, sizeof v, "%s\n", size);
    put(root, v, "devices/system/cpu/cpu%d/cache/index%d/size", cpu, index);
    put(root, "64\n", "devices/system/cpu/cpu%d/cache/index%d/coherency_line_size", cpu, index);
    snprintf(v, sizeof v, "%s\n", shared);
    put(root, v, "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
}

static void node(const char *root, int id, const char *cpus, long long mem_kb)
{
    char v[128];
    snprintf(v, sizeof v, "%s\n", cpus);
    put(root, v, "devices/system/node/node%d/cpulist%.0d", id, 0);
    snprintf(v, sizeof v, "Node %d MemTotal:       %lld kB\nNode %d MemFree:        %lld kB\n", id, mem_kb, id,
             mem_kb / 2);
    put(root, v, "devices/system/node/node%d/meminfo%.0d", id, 0);
}

static void pages(const char *root, const char *thp)
{
    test_write_file(root, "kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "0\n");
    test_write_file(root, "kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", "0\n");
    test_write_file(root, "kernel/mm/transparent_hugepage/enabled", thp);
    test_write_file(root, "kernel/mm/transparent_hugepage/hpage_pmd_size", "2097152\n");
}

const char *fixture_two_socket_smt(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-15\n");
    for (int cpu = 0; cpu < 16; cpu++) {
        int first = cpu % 8, pkg = first / 4, core = first % 4;
        char sib[32], l3[32];
        snprintf(sib, sizeof sib, "%d,%d", first, first + 8);
        snprintf(l3, sizeof l3, "%d-%d,%d-%d", pkg * 4, pkg * 4 + 3, pkg * 4 + 8, pkg * 4 + 11);
        cpu_topology(root, cpu, core, pkg, sib);
        cpu_cache(root, cpu, 0, 1, "Data", "48K", sib);
        cpu_cache(root, cpu, 1, 1, "Instruction", "32K", sib);
        cpu_cache(root, cpu, 2, 2, "Unified", "2048K", sib);
        cpu_cache(root, cpu, 3, 3, "Unified", "32768K", l3);
    }
    node(root, 0, "0-3,8-11", 64LL << 20);
    node(root, 1, "4-7,12-15", 64LL << 20);
    pages(root, "[always] madvise never\n");
    return root;
}

const char *fixture_arm_no_l3(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-3\n");
    for (int cpu = 0; cpu < 4; cpu++) {
        char self[16];
        snprintf(self, sizeof self, "%d", cpu);
        cpu_topology(root, cpu, cpu, 0, self);
        cpu_cache(root, cpu, 0, 1, "Data", "64K", self);
        cpu_cache(root, cpu, 1, 1, "Instruction", "64K", self);
        cpu_cache(root, cpu, 2, 2, "Unified", "1024K", self);
    }
    node(root, 0, "0-3", 8LL << 20);
    pages(root, "always [madvise] never\n");
    return root;
}

const char *fixture_small_caches(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-1\n");
    for (int cpu = 0; cpu < 2; cpu++) {
        char self[16];
        snprintf(self, sizeof self, "%d", cpu);
        cpu_topology(root, cpu, cpu, 0, self);
        cpu_cache(root, cpu, 0, 1, "Data", "16K", self);
        cpu_cache(root, cpu, 1, 2, "Unified", "64K", self);
        cpu_cache(root, cpu, 2, 3, "Unified", "256K", "0-1");
    }
    node(root, 0, "0-1", 1LL << 20);
    pages(root, "always [madvise] never\n");
    return root;
}

const char *fixture_vm_odd_caches(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-1\n");
    for (int cpu = 0; cpu < 2; cpu++) {
        char self[16];
        snprintf(self, sizeof self, "%d", cpu);
        /* no topology/ directory at all, as some hypervisors present it */
        cpu_cache(root, cpu, 0, 1, "Data", "32K", self);
        cpu_cache(root, cpu, 1, 2, "Unified", "512K", self);
        cpu_cache(root, cpu, 2, 3, "Unified", "107520K", "0-1");
    }
    /* no node/ directory, no hugepages, THP file missing */
    return root;
}

const char *fixture_memoryless_node(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-3\n");
    for (int cpu = 0; cpu < 4; cpu++) {
        char self[16], l3[16];
        snprintf(self, sizeof self, "%d", cpu);
        snprintf(l3, sizeof l3, "%s", cpu < 2 ? "0-1" : "2-3");
        cpu_topology(root, cpu, cpu % 2, cpu / 2, self);
        cpu_cache(root, cpu, 0, 1, "Data", "32K", self);
        cpu_cache(root, cpu, 1, 2, "Unified", "1024K", self);
        cpu_cache(root, cpu, 2, 3, "Unified", "16384K", l3);
    }
    node(root, 0, "0-1", 16LL << 20);
    node(root, 1, "2-3", 0);
    node(root, 2, "", 8LL << 20); /* memory only (e.g. CXL): nearer to node 1 than node 0 is */
    test_write_file(root, "devices/system/node/node0/distance", "10 20 30\n");
    test_write_file(root, "devices/system/node/node1/distance", "20 10 12\n");
    test_write_file(root, "devices/system/node/node2/distance", "30 12 10\n");
    pages(root, "always madvise [never]\n");
    return root;
}

const char *fixture_headless_tie(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-5\n");
    for (int cpu = 0; cpu < 6; cpu++) {
        char self[16];
        snprintf(self, sizeof self, "%d", cpu);
        cpu_topology(root, cpu, cpu % 2, cpu / 2, self);
        cpu_cache(root, cpu, 0, 1, "Data", "32K", self);
    }
    node(root, 0, "0-1", 16LL << 20);
    node(root, 1, "2-3", 0);          /* CPUs, no memory */
    node(root, 2, "4-5", 16LL << 20);
    node(root, 3, "", 8LL << 20);     /* memory, no CPUs */
    node(root, 4, "", 0);             /* neither */
    test_write_file(root, "devices/system/node/node0/distance", "10 20 30 30 20\n");
    test_write_file(root, "devices/system/node/node1/distance", "20 10 20 30 30\n");
    test_write_file(root, "devices/system/node/node2/distance", "30 20 10 30 20\n");
    test_write_file(root, "devices/system/node/node3/distance", "30 30 30 10 20\n");
    test_write_file(root, "devices/system/node/node4/distance", "20 30 20 20 10\n");
    pages(root, "always madvise [never]\n");
    return root;
}

const char *fixture_many_cpus(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-255\n");
    for (int cpu = 0; cpu < 256; cpu++) {
        char self[16], l3[32];
        int node = cpu / 128;
        snprintf(self, sizeof self, "%d", cpu);
        snprintf(l3, sizeof l3, "%d-%d", node * 128, node * 128 + 127);
        cpu_topology(root, cpu, cpu % 128, node, self);
        cpu_cache(root, cpu, 0, 1, "Data", "32K", self);
        cpu_cache(root, cpu, 1, 2, "Unified", "1024K", self);
        cpu_cache(root, cpu, 2, 3, "Unified", "262144K", l3);
    }
    node(root, 0, "0-127", 64LL << 20);
    node(root, 1, "128-255", 64LL << 20);
    pages(root, "always [madvise] never\n");
    return root;
}

/* A guest's sysfs with its CPUs, cores, one node and THP, and no caches. */
static const char *no_caches(int ncpus, int ncores)
{
    const char *root = test_tempdir();
    char v[64], line[80];
    snprintf(v, sizeof v, "0-%d", ncpus - 1);
    snprintf(line, sizeof line, "%s\n", v);
    test_write_file(root, "devices/system/cpu/online", line);
    for (int cpu = 0; cpu < ncpus; cpu++) {
        int core = cpu % ncores;
        char siblings[32];
        if (ncpus > ncores)
            snprintf(siblings, sizeof siblings, "%d,%d", core, core + ncores);
        else
            snprintf(siblings, sizeof siblings, "%d", cpu);
        cpu_topology(root, cpu, core, 0, siblings);
    }
    node(root, 0, v, 4LL << 20);
    pages(root, "always [madvise] never\n");
    return root;
}

const char *fixture_microvm_no_caches(void)
{
    return no_caches(2, 2);
}

const char *fixture_zen4_no_caches(void)
{
    return no_caches(32, 16);
}

const char *fixture_wrong_sysfs(void)
{
    const char *root = no_caches(2, 2);
    for (int cpu = 0; cpu < 2; cpu++) {
        char self[16];
        snprintf(self, sizeof self, "%d", cpu);
        cpu_cache(root, cpu, 0, 1, "Data", "32K", self);
        cpu_cache(root, cpu, 1, 2, "Unified", "512K", self);
        cpu_cache(root, cpu, 2, 3, "Unified", "8192K", "0-1");
    }
    return root;
}

bool fixture_cpuid(const char *name, cpuid_dump *out)
{
    char path[256], why[256], *text = NULL;
    size_t len;
    snprintf(path, sizeof path, "tests/fixtures/cpuid/%s", name);
    if (!read_file_limited(path, 1 << 20, &text, &len, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", path, why);
        return false;
    }
    bool ok = cpuid_dump_parse(text, out, why, sizeof why);
    if (!ok)
        fprintf(stderr, "%s: %s\n", path, why);
    free(text);
    return ok;
}

const char *fixture_no_env(const char *name)
{
    (void)name;
    return NULL;
}

bool fixture_four_gib(uint64_t *bytes, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *bytes = 4ULL << 30;
    return true;
}

const char *fixture_once(const char *(*make)(void))
{
    static struct {
        const char *(*make)(void);
        const char *root;
    } made[16];
    size_t i = 0;
    while (i < sizeof made / sizeof made[0] && made[i].make && made[i].make != make)
        i++;
    if (i == sizeof made / sizeof made[0])
        return make(); /* cannot happen: there are fewer fixtures */
    if (!made[i].make) {
        made[i].make = make;
        made[i].root = make();
    }
    return made[i].root;
}

void fixture_load(topology *t, const char *root, const char *usable)
{
    cpu_list u = {0};
    if (usable)
        cpu_list_parse(usable, &u);
    topology_load(root, usable ? &u : NULL, t);
    cpu_list_free(&u);
}

size_t fixture_latency_steps(const uint64_t *sizes, const double *lat, size_t n, latency_step *steps)
{
    latency_point p[64];
    for (size_t i = 0; i < n && i < 64; i++)
        p[i] = (latency_point){sizes[i], lat[i], lat[i], lat[i]};
    return find_latency_steps(p, n < 64 ? n : 64, steps);
}

/* A cache index as the kernel writes it, with the line size it reports. */
static void cpu_cache_line(const char *root, int cpu, int index, int level, const char *type, const char *size,
                           int line, const char *shared)
{
    char v[64];
    cpu_cache(root, cpu, index, level, type, size, shared);
    snprintf(v, sizeof v, "%d\n", line);
    put(root, v, "devices/system/cpu/cpu%d/cache/index%d/coherency_line_size", cpu, index);
}

static void huge_dirs(const char *root, const char *const *kb_sizes, const char *thp, const char *pmd_bytes)
{
    char rel[128];
    for (; *kb_sizes; kb_sizes++) {
        snprintf(rel, sizeof rel, "kernel/mm/hugepages/hugepages-%skB/nr_hugepages", *kb_sizes);
        test_write_file(root, rel, "0\n");
    }
    test_write_file(root, "kernel/mm/transparent_hugepage/enabled", thp);
    test_write_file(root, "kernel/mm/transparent_hugepage/hpage_pmd_size", pmd_bytes);
}

/* An arm64 server of the AWS Graviton2 kind (Neoverse N1, ACPI PPTT firmware):
 * 64 cores without SMT, each with a 64K L1d and a private 1M L2, one 32M system
 * level cache shared by all (sysfs index3), package 0, one node; Linux 5.16+
 * adds cluster_cpus_list, which membench does not need. 4K base pages give
 * hugetlb sizes 64K (contiguous PTEs), 2M, 32M (contiguous PMDs) and 1G. */
const char *fixture_arm64_n1_server(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-63\n");
    for (int cpu = 0; cpu < 64; cpu++) {
        char self[16];
        snprintf(self, sizeof self, "%d", cpu);
        cpu_topology(root, cpu, cpu, 0, self);
        put(root, "0-63\n", "devices/system/cpu/cpu%d/topology/core_siblings_list%.0d", cpu, 0);
        snprintf(self, sizeof self, "%d\n", cpu);
        put(root, self, "devices/system/cpu/cpu%d/topology/cluster_cpus_list%.0d", cpu, 0);
        snprintf(self, sizeof self, "%d", cpu);
        cpu_cache(root, cpu, 0, 1, "Data", "64K", self);
        cpu_cache(root, cpu, 1, 1, "Instruction", "64K", self);
        cpu_cache(root, cpu, 2, 2, "Unified", "1024K", self);
        cpu_cache(root, cpu, 3, 3, "Unified", "32768K", "0-63");
    }
    node(root, 0, "0-63", 128LL << 20);
    static const char *const sizes[] = {"64", "2048", "32768", "1048576", NULL};
    huge_dirs(root, sizes, "always [madvise] never\n", "2097152\n");
    return root;
}

/* A POWER9 PowerVM LPAR (pseries, hash MMU, SMT8 "big cores"): 4 cores of 8
 * threads, 2 on each of two nodes numbered 0 and 8 (node ids follow the firmware's
 * domains, not a count). PowerVM shows no chip id, so physical_package_id is -1;
 * core_id is the core's first hardware thread (0, 8, ...). Each SMT4 half of a big
 * core has its own L1 (threads 0,2,4,6 and 1,3,5,7); L2 512K and L3 10M are per
 * core pair, i.e. per big core. Lines are 128 B. 64K base pages: hugetlb 16M and
 * 16G, THP's PMD page 16M. */
const char *fixture_power9_lpar(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-31\n");
    for (int cpu = 0; cpu < 32; cpu++) {
        int core = cpu / 8 * 8, half = cpu % 2;
        char sib[32], l1[64];
        snprintf(sib, sizeof sib, "%d-%d", core, core + 7);
        snprintf(l1, sizeof l1, "%d,%d,%d,%d", core + half, core + half + 2, core + half + 4, core + half + 6);
        cpu_topology(root, cpu, core, -1, sib);
        cpu_cache_line(root, cpu, 0, 1, "Data", "32K", 128, l1);
        cpu_cache_line(root, cpu, 1, 1, "Instruction", "32K", 128, l1);
        cpu_cache_line(root, cpu, 2, 2, "Unified", "512K", 128, sib);
        cpu_cache_line(root, cpu, 3, 3, "Unified", "10240K", 128, sib);
    }
    node(root, 0, "0-15", 64LL << 20);
    node(root, 8, "16-31", 96LL << 20);
    test_write_file(root, "devices/system/node/node0/distance", "10 40\n");
    test_write_file(root, "devices/system/node/node8/distance", "40 10\n");
    static const char *const sizes[] = {"16384", "16777216", NULL};
    huge_dirs(root, sizes, "[always] madvise never\n", "16777216\n");
    return root;
}

/* An IBM z15 LPAR (machine 8561) with SMT2: 4 cores of 2 threads on two chips
 * (socket ids 1 and 2, as s390 numbers its containers), one book and one drawer,
 * one NUMA node. The s390 kernel puts only private caches in sysfs, each as the
 * CPU's own (L1d 128K, L1i 128K, L2d 4M, L2i 4M, 256 B lines); the shared L3
 * (256M per chip) and L4 (960M per drawer) are only in /proc/cpuinfo, below.
 * hugetlb pages are 1M (and 2G with EDAT2), THP's PMD page 1M. */
const char *fixture_s390x_z15_lpar(void)
{
    const char *root = test_tempdir();
    test_write_file(root, "devices/system/cpu/online", "0-7\n");
    for (int cpu = 0; cpu < 8; cpu++) {
        int core = cpu / 2, socket = 1 + cpu / 4;
        char self[16], sib[32];
        snprintf(self, sizeof self, "%d", cpu);
        snprintf(sib, sizeof sib, "%d-%d", core * 2, core * 2 + 1);
        cpu_topology(root, cpu, core, socket, sib);
        put(root, "1\n", "devices/system/cpu/cpu%d/topology/book_id%.0d", cpu, 0);
        put(root, "1\n", "devices/system/cpu/cpu%d/topology/drawer_id%.0d", cpu, 0);
        put(root, "0-7\n", "devices/system/cpu/cpu%d/topology/book_siblings_list%.0d", cpu, 0);
        put(root, "0-7\n", "devices/system/cpu/cpu%d/topology/drawer_siblings_list%.0d", cpu, 0);
        cpu_cache_line(root, cpu, 0, 1, "Data", "128K", 256, self);
        cpu_cache_line(root, cpu, 1, 1, "Instruction", "128K", 256, self);
        cpu_cache_line(root, cpu, 2, 2, "Data", "4096K", 256, self);
        cpu_cache_line(root, cpu, 3, 2, "Instruction", "4096K", 256, self);
    }
    node(root, 0, "0-7", 32LL << 20);
    static const char *const sizes[] = {"1024", "2097152", NULL};
    huge_dirs(root, sizes, "always [madvise] never\n", "1048576\n");
    return root;
}

const char fixture_s390x_z15_cpuinfo[] =
    "vendor_id       : IBM/S390\n"
    "# processors    : 8\n"
    "bogomips per cpu: 3241.00\n"
    "max thread id   : 1\n"
    "features\t: esan3 zarch stfle msa ldisp eimm dfp edat etf3eh highgprs te vx vxd vxe gs vxe2 vxp sort dflt\n"
    "cache0          : level=1 type=Data scope=Private size=128K line_size=256 associativity=8\n"
    "cache1          : level=1 type=Instruction scope=Private size=128K line_size=256 associativity=8\n"
    "cache2          : level=2 type=Data scope=Private size=4096K line_size=256 associativity=8\n"
    "cache3          : level=2 type=Instruction scope=Private size=4096K line_size=256 associativity=8\n"
    "cache4          : level=3 type=Unified scope=Shared size=262144K line_size=256 associativity=32\n"
    "cache5          : level=4 type=Unified scope=Shared size=983040K line_size=256 associativity=60\n"
    "processor 0: version = 00,  identification = 1B2C28,  machine = 8561\n"
    "\n"
    "cpu number      : 0\n"
    "physical id     : 1\n"
    "core id         : 0\n"
    "book id         : 1\n"
    "drawer id       : 1\n"
    "machine         : 8561\n";
