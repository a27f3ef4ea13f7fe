/* SPDX-License-Identifier: MIT */
#include "topology/topology.h"
#include "topology/topology_sysfs.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/arch.h"
#include "platform/platform.h"

static const uint64_t default_cache_sizes[4] = {0, 32 * 1024, 256 * 1024, 8 * 1024 * 1024};

void topology_warn(topology *t, const char *fmt, ...)
{
    if (t->nwarnings >= TOPO_MAX_WARNINGS)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    t->warnings[t->nwarnings] = strdup(buf);
    if (t->warnings[t->nwarnings])
        t->nwarnings++;
}

static bool read_file(const char *root, const char *rel, char *buf, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return platform_read_text(path, buf, size);
}

static bool read_long(const char *root, const char *rel, long *out)
{
    char buf[64];
    if (!read_file(root, rel, buf, sizeof buf))
        return false;
    char *end;
    long v = strtol(buf, &end, 10);
    if (end == buf)
        return false;
    *out = v;
    return true;
}

/* A core or package id: -1 when missing; an absurd one (negative, or beyond any
 * machine) is said and treated as missing, never counted with. */
#define MAX_TOPOLOGY_ID (1 << 20)
#define MAX_NODE_KB (1ULL << 40) /* 1 EiB of memory on one node */
static int read_id(topology *t, const char *root, const char *rel, int cpu, const char *what)
{
    long v;
    if (!read_long(root, rel, &v))
        return -1;
    if (v < 0 || v >= MAX_TOPOLOGY_ID) {
        if (v != -1) /* -1 is how some kernels say "unknown" */
            topology_warn(t, "CPU %d: %s id %ld is out of range (0..%d): ignored", cpu, what, v,
                          MAX_TOPOLOGY_ID - 1);
        return -1;
    }
    return (int)v;
}

/* out is always a valid (possibly empty) list afterwards, so callers may free it. */
static bool read_cpus(const char *root, const char *rel, cpu_list *out)
{
    char buf[4096];
    out->ids = NULL;
    out->count = 0;
    if (!read_file(root, rel, buf, sizeof buf))
        return false;
    return cpu_list_parse(buf, out);
}

/* sysfs sizes look like "32K", "1024K", "32768K" (and sometimes "8M"). */
static bool parse_cache_size(const char *text, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text)
        return false;
    if (*end == 'K' || *end == 'k')
        v *= 1024ULL;
    else if (*end == 'M' || *end == 'm')
        v *= 1024ULL * 1024ULL;
    else if (*end == 'G' || *end == 'g')
        v *= 1024ULL * 1024ULL * 1024ULL;
    *out = v;
    return v > 0;
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The number of a directory named as the kernel names them: prefix then the
 * decimal id, no sign, no leading zero ("cpu3", "node12"; not "cpu03", which
 * would be CPU 3 a second time), at most CPU_LIST_MAX_ID. */
static bool numbered_name(const char *name, const char *prefix, int *id)
{
    size_t n = strlen(prefix);
    const char *d = name + n;
    long v = 0;
    if (strncmp(name, prefix, n) != 0 || *d < '0' || *d > '9' || (d[0] == '0' && d[1] != '\0'))
        return false;
    for (; *d >= '0' && *d <= '9'; d++)
        if ((v = v * 10 + (*d - '0')) > CPU_LIST_MAX_ID)
            return false;
    if (*d != '\0')
        return false;
    *id = (int)v;
    return true;
}

static void load_cpus(const char *root, const cpu_list *fallback, topology *t)
{
    cpu_list online;
    if (!read_cpus(root, "devices/system/cpu/online", &online) || online.count == 0) {
        /* No online file: count cpuN directories instead. */
        char path[1024];
        snprintf(path, sizeof path, "%s/devices/system/cpu", root);
        online.ids = NULL;
        online.count = 0;
        DIR *d = opendir(path);
        size_t cap = 0;
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            int id;
            if (numbered_name(e->d_name, "cpu", &id)) {
                if (online.count == cap) {
                    cap = cap ? cap * 2 : 64;
                    int *n = realloc(online.ids, cap * sizeof *n);
                    if (!n)
                        break;
                    online.ids = n;
                }
                online.ids[online.count++] = id;
            }
        }
        if (d)
            closedir(d);
        if (online.count)
            qsort(online.ids, online.count, sizeof(int), compare_int);
        topology_warn(t, "cpu/online unreadable: found %zu CPU directories", online.count);
    }
    if (online.count == 0 && fallback && fallback->count > 0) {
        /* No sysfs at all (some containers): trust the affinity mask. */
        online.ids = malloc(sizeof(int) * fallback->count);
        if (online.ids) {
            memcpy(online.ids, fallback->ids, sizeof(int) * fallback->count);
            online.count = fallback->count;
        }
        topology_warn(t, "no CPU directories in sysfs: using the affinity mask as the CPU list");
    }
    if (online.count)
        qsort(online.ids, online.count, sizeof(int), compare_int);
    t->cpus = calloc(online.count ? online.count : 1, sizeof *t->cpus);
    if (!t->cpus) {
        cpu_list_free(&online);
        return;
    }
    t->ncpus = online.count;
    bool missing_topology = false;
    size_t npackage_unknown = 0;
    for (size_t i = 0; i < online.count; i++) {
        cpu_info *c = &t->cpus[i];
        char rel[256];
        c->id = online.ids[i];
        c->node = 0;
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/topology/core_id", c->id);
        c->core_id = read_id(t, root, rel, c->id, "core");
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/topology/physical_package_id", c->id);
        c->package_id = read_id(t, root, rel, c->id, "package");
        /* -1 written out is the kernel saying "no package": PowerVM guests (no chip
         * id in the device tree) and some arm64 firmware. The cores still count
         * from thread_siblings_list; only the package count is unknown. */
        long said;
        if (c->package_id < 0 && read_long(root, rel, &said) && said == -1)
            npackage_unknown++;
        else if (c->package_id < 0)
            missing_topology = true;
        if (c->core_id < 0)
            missing_topology = true;
        /* SMT rank: position among the online CPUs of the same core (thread_siblings_list).
         * A sibling that is not online does not count: each core's first online CPU
         * has rank 0, so it is counted as a core. */
        cpu_list sib;
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/topology/thread_siblings_list", c->id);
        c->smt_rank = 0;
        if (read_cpus(root, rel, &sib)) {
            for (size_t k = 0; k < sib.count; k++)
                if (sib.ids[k] < c->id && bsearch(&sib.ids[k], online.ids, online.count, sizeof(int), compare_int))
                    c->smt_rank++;
            cpu_list_free(&sib);
        }
    }
    if (missing_topology)
        topology_warn(t, "core/package ids missing for some CPUs: each such CPU counted as its own core");
    if (npackage_unknown > 0)
        topology_warn(t, "physical package id -1 (not known to the kernel, as on PowerVM) on %zu of %zu CPUs: "
                         "counted as one package", npackage_unknown, online.count);
    cpu_list_free(&online);
}

/* Packages are the distinct package ids (ids need not be dense: 0 and 3 are two). */
static void count_cores_packages(topology *t)
{
    t->ncores = 0;
    t->npackages = 0;
    for (size_t i = 0; i < t->ncpus; i++) {
        const cpu_info *c = &t->cpus[i];
        if (c->smt_rank == 0)
            t->ncores++;
        bool first = c->package_id >= 0;
        for (size_t k = 0; k < i && first; k++)
            first = t->cpus[k].package_id != c->package_id;
        t->npackages += first;
    }
    if (t->npackages == 0)
        t->npackages = 1;
}

/* For a memory-less node, the node the kernel falls back to for its allocations.
 * The kernel builds each node's fallback list (find_next_best_node in
 * mm/page_alloc.c) by the smallest distance + 1 for a node numbered below it
 * + 1 for a node with CPUs ("prefer headless nodes"), the lowest id on ties; so at
 * equal distance a CPU-less memory node (CXL, HBM) wins over a node with CPUs.
 * (Its load balancing between equal nodes is not modelled.) Unreadable distances
 * count as equal. The distance file lists one number per online node, in id
 * order, which is the order of t->nodes. */
static int nearest_memory_node(const char *root, const topology *t, size_t i)
{
    if (t->nodes[i].mem_total > 0)
        return t->nodes[i].id;
    char rel[256], buf[4096];
    long dist[256];
    size_t nd = 0;
    snprintf(rel, sizeof rel, "devices/system/node/node%d/distance", t->nodes[i].id);
    if (read_file(root, rel, buf, sizeof buf)) {
        char *p = buf, *end;
        for (long v; nd < 256 && (v = strtol(p, &end, 10), end != p); p = end)
            dist[nd++] = v;
    }
    int best = -1;
    long best_v = 0;
    for (size_t k = 0; k < t->nnodes; k++) {
        const numa_node *n = &t->nodes[k];
        if (n->mem_total == 0)
            continue;
        long v = (nd == t->nnodes ? dist[k] : 0) + (n->id < t->nodes[i].id) + (n->cpus.count > 0);
        if (best < 0 || v < best_v) {
            best = n->id;
            best_v = v;
        }
    }
    return best >= 0 ? best : t->nodes[i].id;
}

static void load_nodes(const char *root, topology *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/devices/system/node", root);
    DIR *d = opendir(path);
    int ids[1024];
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 1024) {
        int id;
        if (numbered_name(e->d_name, "node", &id))
            ids[n++] = id;
    }
    if (d)
        closedir(d);
    if (n == 0 && d) {
        /* The directory is there (a NUMA kernel) but shows no node: hidden or unreadable. */
        topology_warn(t, "NUMA nodes unreadable (%s): assuming one node; node placement is not checked",
                      "devices/system/node");
    }
    if (n == 0) {
        /* No NUMA support compiled into the kernel: one node holding everything. */
        t->nodes = calloc(1, sizeof *t->nodes);
        if (!t->nodes)
            return;
        t->nnodes = 1;
        t->nodes[0].id = 0;
        t->nodes[0].cpus.ids = malloc(sizeof(int) * (t->ncpus ? t->ncpus : 1));
        for (size_t i = 0; i < t->ncpus && t->nodes[0].cpus.ids; i++)
            t->nodes[0].cpus.ids[t->nodes[0].cpus.count++] = t->cpus[i].id;
        t->nodes[0].mem_total = platform_memory_total();
        t->nodes[0].memory_node = 0;
        return;
    }
    qsort(ids, n, sizeof(int), compare_int);
    t->nodes = calloc(n, sizeof *t->nodes);
    if (!t->nodes)
        return;
    t->nnodes = n;
    for (size_t i = 0; i < n; i++) {
        numa_node *nd = &t->nodes[i];
        char rel[256], buf[4096];
        nd->id = ids[i];
        snprintf(rel, sizeof rel, "devices/system/node/node%d/cpulist", nd->id);
        if (!read_cpus(root, rel, &nd->cpus))
            topology_warn(t, "node%d/cpulist unreadable", nd->id);
        snprintf(rel, sizeof rel, "devices/system/node/node%d/meminfo", nd->id);
        if (read_file(root, rel, buf, sizeof buf)) {
            const char *m = strstr(buf, "MemTotal:");
            unsigned long long kb = m ? strtoull(m + 9, NULL, 10) : 0;
            if (kb > MAX_NODE_KB) /* would overflow in bytes, or is no machine's */
                topology_warn(t, "node%d: MemTotal %llu kB is not believable: taken as unknown", nd->id, kb);
            else
                nd->mem_total = kb * 1024ULL;
            /* free now: what a plan for a recorded machine budgets from (--plan --sysfs) */
            const char *f = strstr(buf, "MemFree:");
            unsigned long long free_kb = f ? strtoull(f + 8, NULL, 10) : 0;
            nd->mem_free = free_kb <= kb ? free_kb * 1024ULL : 0;
        }
        for (size_t k = 0; k < nd->cpus.count; k++)
            for (size_t c = 0; c < t->ncpus; c++)
                if (t->cpus[c].id == nd->cpus.ids[k])
                    t->cpus[c].node = nd->id;
    }
    for (size_t i = 0; i < n; i++)
        t->nodes[i].memory_node = nearest_memory_node(root, t, i);
}

const numa_node *topology_node(const topology *t, int id)
{
    for (size_t i = 0; i < t->nnodes; i++)
        if (t->nodes[i].id == id)
            return &t->nodes[i];
    return NULL;
}

int topology_memory_node(const topology *t, int node)
{
    const numa_node *n = topology_node(t, node);
    return n ? n->memory_node : node;
}

static bool same_instance(const cache_instance *a, int level, cache_type type, const cpu_list *shared)
{
    if (a->level != level || a->type != type || a->shared.count != shared->count)
        return false;
    for (size_t i = 0; i < shared->count; i++)
        if (!cpu_list_contains(&a->shared, shared->ids[i]))
            return false;
    return true;
}

static void load_caches(const char *root, topology *t)
{
    size_t cap = 0;
    int silent[1024];
    size_t nsilent = 0;
    /* CPUs whose cache index has no readable size, per index: one warning each, not
     * one per CPU (VMs and many arm64 systems leave the size out everywhere).
     * Static: 64 KiB is much for a stack, and topology is loaded by one thread. */
    static int unsized[16][1024];
    size_t nunsized[16] = {0};
    long unsized_level[16] = {0};
    for (size_t i = 0; i < t->ncpus; i++) {
        for (int idx = 0; idx < 16; idx++) {
            char rel[256], buf[64];
            long level, line = 64;
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/level", t->cpus[i].id, idx);
            if (!read_long(root, rel, &level)) {
                if (idx == 0 && nsilent < sizeof silent / sizeof silent[0])
                    silent[nsilent++] = t->cpus[i].id;
                break;
            }
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/type", t->cpus[i].id, idx);
            if (!read_file(root, rel, buf, sizeof buf))
                continue;
            cache_type type;
            if (strncmp(buf, "Data", 4) == 0)
                type = CACHE_DATA;
            else if (strncmp(buf, "Unified", 7) == 0)
                type = CACHE_UNIFIED;
            else
                continue; /* instruction caches do not hold benchmark data */
            uint64_t size = 0;
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/size", t->cpus[i].id, idx);
            if (!read_file(root, rel, buf, sizeof buf) || !parse_cache_size(buf, &size)) {
                if (nunsized[idx] < 1024)
                    unsized[idx][nunsized[idx]++] = t->cpus[i].id;
                unsized_level[idx] = level;
                continue;
            }
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/coherency_line_size", t->cpus[i].id, idx);
            if (!read_long(root, rel, &line) || line <= 0 || line > 4096)
                line = arch_cache_line_bytes();
            cpu_list shared;
            snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", t->cpus[i].id, idx);
            if (!read_cpus(root, rel, &shared) || shared.count == 0) {
                cpu_list_free(&shared);
                shared.ids = malloc(sizeof(int));
                shared.count = shared.ids ? 1 : 0;
                if (shared.ids)
                    shared.ids[0] = t->cpus[i].id;
            }
            bool seen = false;
            for (size_t k = 0; k < t->ncaches && !seen; k++)
                seen = same_instance(&t->caches[k], (int)level, type, &shared);
            if (seen) {
                cpu_list_free(&shared);
                continue;
            }
            if (t->ncaches == cap) {
                cap = cap ? cap * 2 : 16;
                cache_instance *n = realloc(t->caches, cap * sizeof *n);
                if (!n) {
                    cpu_list_free(&shared);
                    return;
                }
                t->caches = n;
            }
            t->caches[t->ncaches++] = (cache_instance){(int)level, type, size, (int)line, shared, CACHE_FROM_SYSFS};
        }
    }
    for (int idx = 0; idx < 16; idx++) {
        if (nunsized[idx] == 0)
            continue;
        char list[256];
        cpu_list_format(unsized[idx], nunsized[idx], list, sizeof list);
        topology_warn(t, "cache index%d (L%ld): size unreadable on CPU(s) %s, ignored", idx, unsized_level[idx], list);
    }
    /* Some CPUs describe their caches and others do not: sysfs is partly hidden (or
     * the kernel is odd); sizes come from the CPUs that do. All silent is reported
     * per level by the defaults' warnings. */
    if (nsilent > 0 && nsilent < t->ncpus) {
        char list[256];
        cpu_list_format(silent, nsilent, list, sizeof list);
        topology_warn(t, "no cache information for CPU(s) %s: using the other CPUs' caches", list);
    }
}

void topology_read_pages(const char *root, topology *t)
{
    char path[1024], buf[128];
    snprintf(path, sizeof path, "%s/kernel/mm/hugepages", root);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && t->nhuge_sizes < TOPO_MAX_HUGE_SIZES) {
        unsigned long long kb;
        if (sscanf(e->d_name, "hugepages-%llukB", &kb) == 1)
            t->huge_sizes[t->nhuge_sizes++] = kb * 1024ULL;
    }
    if (d)
        closedir(d);
    for (size_t i = 1; i < t->nhuge_sizes; i++) /* insertion sort: a handful of sizes */
        for (size_t j = i; j > 0 && t->huge_sizes[j - 1] > t->huge_sizes[j]; j--) {
            uint64_t tmp = t->huge_sizes[j];
            t->huge_sizes[j] = t->huge_sizes[j - 1];
            t->huge_sizes[j - 1] = tmp;
        }
    snprintf(t->thp_mode, sizeof t->thp_mode, "unknown");
    if (read_file(root, "kernel/mm/transparent_hugepage/enabled", buf, sizeof buf)) {
        char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close && close - open - 1 < (long)sizeof t->thp_mode) {
            memcpy(t->thp_mode, open + 1, (size_t)(close - open - 1));
            t->thp_mode[close - open - 1] = '\0';
        }
    } else {
        topology_warn(t, "transparent_hugepage/enabled unreadable: THP mode unknown");
    }
    long pmd;
    if (read_long(root, "kernel/mm/transparent_hugepage/hpage_pmd_size", &pmd) && pmd > 0)
        t->thp_size = (uint64_t)pmd;
    else if (t->nhuge_sizes > 0) {
        t->thp_size = 2 * 1024 * 1024;
        for (size_t i = 0; i < t->nhuge_sizes; i++)
            if (t->huge_sizes[i] == 2 * 1024 * 1024)
                t->thp_size = t->huge_sizes[i];
    }
}

bool topology_read_sysfs(const char *sys_root, const cpu_list *usable, topology *t)
{
    memset(t, 0, sizeof *t);
    load_cpus(sys_root, usable, t);
    if (t->ncpus == 0) {
        topology_free(t);
        return false;
    }
    /* Usable CPUs: the affinity mask, restricted to CPUs sysfs knows as online. */
    t->usable.ids = malloc(sizeof(int) * t->ncpus);
    if (!t->usable.ids) {
        topology_free(t);
        return false;
    }
    for (size_t i = 0; i < t->ncpus; i++) {
        t->cpus[i].usable = usable == NULL || cpu_list_contains(usable, t->cpus[i].id);
        if (t->cpus[i].usable)
            t->usable.ids[t->usable.count++] = t->cpus[i].id;
    }
    if (t->usable.count == 0) {
        topology_warn(t, "the usable CPUs (affinity mask, or topology --usable) name no online CPU: using all "
                         "online CPUs");
        for (size_t i = 0; i < t->ncpus; i++) {
            t->cpus[i].usable = true;
            t->usable.ids[t->usable.count++] = t->cpus[i].id;
        }
    }
    count_cores_packages(t);
    load_nodes(sys_root, t);
    load_caches(sys_root, t);
    return true;
}

void topology_warn_memoryless_nodes(topology *t)
{
    for (size_t i = 0; i < t->nnodes; i++)
        if (t->nodes[i].cpus.count > 0 && t->nodes[i].mem_total == 0)
            topology_warn(t, "NUMA node %d has CPUs but no memory: its threads' memory comes from node %d",
                          t->nodes[i].id, t->nodes[i].memory_node);
}

void topology_free(topology *t)
{
    free(t->cpus);
    cpu_list_free(&t->usable);
    for (size_t i = 0; i < t->nnodes; i++)
        cpu_list_free(&t->nodes[i].cpus);
    free(t->nodes);
    for (size_t i = 0; i < t->ncaches; i++)
        cpu_list_free(&t->caches[i].shared);
    free(t->caches);
    for (size_t i = 0; i < t->nwarnings; i++)
        free(t->warnings[i]);
    memset(t, 0, sizeof *t);
}

const cpu_info *topology_cpu(const topology *t, int id)
{
    for (size_t i = 0; i < t->ncpus; i++)
        if (t->cpus[i].id == id)
            return &t->cpus[i];
    return NULL;
}

/* The instance of `level` that the first usable CPU belongs to (else any). */
static const cache_instance *level_instance(const topology *t, int level, int cpu)
{
    const cache_instance *any = NULL;
    for (size_t i = 0; i < t->ncaches; i++) {
        const cache_instance *c = &t->caches[i];
        if (c->level != level)
            continue;
        if (cpu_list_contains(&c->shared, cpu))
            return c;
        if (!any)
            any = c;
    }
    return any;
}

/* A level no instance describes: a package's total, else nothing (size 0). The
 * probe's view is never a size to plan with (plan/dram_size.h). */
static const cache_report *level_report(const topology *t, int level)
{
    const cache_report *package = NULL;
    for (size_t i = 0; i < t->ncache_reports; i++) {
        const cache_report *r = &t->cache_reports[i];
        if (r->level != level || r->source == CACHE_FROM_MEASURED)
            continue;
        if (r->per_package && !package)
            package = r;
    }
    return package;
}

cache_level topology_cache_level(const topology *t, int level)
{
    cache_level out = {0, arch_cache_line_bytes(), true, CACHE_FROM_DEFAULT, false};
    int cpu = t->usable.count ? t->usable.ids[0] : -1;
    const cache_instance *c = level_instance(t, level, cpu);
    const cache_instance *l1 = level_instance(t, 1, cpu);
    if (l1)
        out.line_size = l1->line_size;
    const cache_report *r = c ? NULL : level_report(t, level);
    if (c) {
        out.size = c->size;
        out.line_size = c->line_size;
        out.defaulted = false;
        out.source = c->source;
    } else if (r) {
        out.size = r->size;
        out.defaulted = false;
        out.source = r->source;
        out.per_package = r->per_package;
    } else if (level >= 1 && level <= 3) {
        out.size = default_cache_sizes[level];
    }
    return out;
}

size_t topology_cache_sharers(const topology *t, int level, int cpu, const int *cpus, size_t n)
{
    const cache_instance *c = NULL;
    for (size_t i = 0; i < t->ncaches && !c; i++)
        if (t->caches[i].level == level && cpu_list_contains(&t->caches[i].shared, cpu))
            c = &t->caches[i];
    if (!c)
        return 1; /* unknown sharing: assume private */
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (cpu_list_contains(&c->shared, cpus[i]))
            count++;
    return count ? count : 1;
}

uint64_t topology_huge_page_size(const topology *t)
{
    return t->thp_size ? t->thp_size : 2ULL << 20;
}

int topology_max_cache_level(const topology *t)
{
    int max = 0;
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level > max)
            max = t->caches[i].level;
    return max;
}

bool topology_has_cache_level(const topology *t, int level)
{
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level)
            return true;
    return false;
}

bool topology_add_cache_instance(topology *t, cache_instance c)
{
    cache_instance *grown = realloc(t->caches, (t->ncaches + 1) * sizeof *grown);
    if (!grown) {
        cpu_list_free(&c.shared);
        return false;
    }
    t->caches = grown;
    t->caches[t->ncaches++] = c;
    return true;
}
