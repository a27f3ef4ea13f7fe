/* SPDX-License-Identifier: MIT */
/* What the machine is: CPUs, cores, SMT siblings, packages, NUMA nodes, caches, page
 * sizes. Loaded from a sysfs tree under a root directory ("/sys" on a live system,
 * a recorded tree in tests), cross-checked with CPUID where the CPU has it.
 * Everything that had to be guessed or disagreed is kept as a warning string. */
#ifndef MEMBENCH_TOPOLOGY_H
#define MEMBENCH_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/cache_source.h"
#include "util/cpu_list.h"

#define TOPO_MAX_WARNINGS 32
#define TOPO_MAX_HUGE_SIZES 8
#define TOPO_MAX_CACHE_REPORTS 48

typedef enum { CACHE_DATA, CACHE_INSTRUCTION, CACHE_UNIFIED } cache_type;

typedef struct {
    int level;
    cache_type type;
    uint64_t size;   /* bytes */
    int line_size;   /* bytes */
    cpu_list shared; /* CPUs sharing this instance (all of them, usable or not) */
    cache_source source; /* where this instance was read */
} cache_instance;

typedef struct {
    int id;
    int core_id;    /* core within package, -1 if unknown */
    int package_id; /* -1 if unknown */
    int node;       /* NUMA node, 0 when the machine has no node directory */
    int smt_rank;   /* 0 for the first hardware thread of its core, 1 for the next... */
    bool usable;    /* in this process's affinity mask */
} cpu_info;

typedef struct {
    int id;
    cpu_list cpus;
    uint64_t mem_total; /* bytes; 0 for a memory-less node */
    uint64_t mem_free;  /* bytes free when the tree was read (meminfo MemFree); 0 unknown */
    int memory_node;    /* where its CPUs' memory comes from: itself, or for a memory-less
                         * node the nearest node with memory (sysfs distance) */
} numa_node;

/* What the cache probe (measure/llc_probe.h) found on this machine, when it ran. */
typedef struct {
    bool ran;
    bool edge_found;  /* a last-level edge below a DRAM plateau */
    bool dram_found;  /* the DRAM plateau was reached */
    bool sure;        /* the probe's batches agree (llc_probe.h says how) */
    uint64_t llc_bytes, llc_low_bytes, llc_high_bytes; /* the edge, within (low, high] */
    uint64_t dram_from_bytes; /* first size on the DRAM plateau */
    uint64_t served_bytes;    /* the largest size below it a cache served (llc_probe.h) */
    uint64_t max_bytes;       /* largest size probed */
    double llc_ns, dram_ns, wall_s;
    char why[160];
} cache_measurement;

typedef struct {
    cpu_info *cpus; /* online CPUs, ascending id */
    size_t ncpus;
    cpu_list usable; /* affinity mask as given to topology_load */
    numa_node *nodes;
    size_t nnodes;
    cache_instance *caches; /* data and unified caches, one entry per instance */
    size_t ncaches;
    int npackages;
    int ncores; /* physical cores among online CPUs */
    uint64_t huge_sizes[TOPO_MAX_HUGE_SIZES];
    size_t nhuge_sizes;
    uint64_t thp_size; /* PMD huge page size used for THP, 0 if unknown */
    char thp_mode[16]; /* "always", "madvise", "never", or "unknown" */
    /* Every source's view of every cache level (topology --json "cache_sources"),
     * the chosen ones and the others, so disagreements can be shown. */
    cache_report cache_reports[TOPO_MAX_CACHE_REPORTS];
    size_t ncache_reports;
    char cpu_vendor[13];  /* CPUID's vendor string, "" when there is no CPUID */
    char hypervisor[13];  /* CPUID 0x40000000's signature, "" when none is said */
    cache_measurement measured;
    char *warnings[TOPO_MAX_WARNINGS];
    size_t nwarnings;
} topology;

/* Per-level summary used by planners: the size of one instance of the data/unified
 * cache at that level, where it came from, and whether it came from the defaults. */
typedef struct {
    uint64_t size;
    int line_size;
    bool defaulted;
    cache_source source;
    bool per_package; /* only a whole package's size is known (AMD's legacy L3 field) */
} cache_level;

/* Loads from sys_root (e.g. "/sys"). usable lists the CPUs the process may use; pass
 * NULL to treat all online CPUs as usable. Returns false only when no CPU at all can
 * be found; every lesser problem becomes a warning and a documented default. */
bool topology_load(const char *sys_root, const cpu_list *usable, topology *t);
void topology_free(topology *t);

/* Adds a printf-style warning (kept for -v, topology output and JSON). */
void topology_warn(topology *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Size of level 1..3 (data or unified): an instance's (sysfs, device tree,
 * /proc/cpuinfo or CPUID), else a package's total, else the 32K/256K/8M defaults;
 * never the probe's measurement. */
cache_level topology_cache_level(const topology *t, int level);

/* Number of CPUs in cpus[0..n) that share the instance of `level` containing cpu. */
size_t topology_cache_sharers(const topology *t, int level, int cpu, const int *cpus, size_t n);

const cpu_info *topology_cpu(const topology *t, int id);

/* The node with this id, or NULL. */
const numa_node *topology_node(const topology *t, int id);

/* The node whose memory a thread on `node` gets (see numa_node.memory_node); the
 * node itself when unknown. */
int topology_memory_node(const topology *t, int node);

/* The huge page size to ask for (THP's PMD size); 2 MiB when the system does not say. */
uint64_t topology_huge_page_size(const topology *t);
int topology_max_cache_level(const topology *t);
/* Some instance of t->caches is of this level (from whichever source). */
bool topology_has_cache_level(const topology *t, int level);
/* Appends c to t->caches, which takes its shared list; false (c's list freed) when
 * out of memory. */
bool topology_add_cache_instance(topology *t, cache_instance c);

/* Adds the data caches of levels sysfs does not show from /proc/cpuinfo text
 * ("cacheN : level=3 ... scope=Shared size=262144K ...", s390x): a shared one as one
 * instance of every CPU, a private one per CPU; each said in a warning. The live
 * variant reads /proc/cpuinfo (for a live "/sys" only). */
void topology_add_cpuinfo_caches(topology *t, const char *cpuinfo);
void topology_add_live_cpuinfo_caches(topology *t);

/* Records the instances of t->caches read from source as that source's views (one
 * per level: the instance of the first usable CPU). */
void topology_report_instances(topology *t, cache_source source);
/* Adds the device tree's caches (devicetree_caches.h) for the levels no instance
 * describes yet, and records its views of every level. */
void topology_add_devicetree(topology *t, const char *sys_root);
/* Adds one source's view of a level (replacing that source's earlier view of it). */
void topology_add_cache_report(topology *t, const cache_report *r);
/* The largest size a per-instance source gives the level (per_package views left
 * out), with its source in *src; 0 when none does. */
uint64_t topology_cache_report_max(const topology *t, int level, cache_source *src);
/* Says in one warning which levels no source describes and what is used instead
 * (replacing the line said before, as sources are added). */
void topology_say_missing_caches(topology *t);
/* w, one of t's warnings, is the missing-caches line where every level lacking a
 * per-instance size has a whole package's figure (a cloud guest's usual state):
 * a note for -v and JSON, not a warning that changes how to read the run. */
bool topology_warning_is_package_note(const topology *t, const char *w);
/* Warns, per level, when sources give different sizes for one instance. */
void topology_say_disagreements(topology *t);

/* The sources a live machine has beyond sysfs: /proc/cpuinfo's caches and CPUID
 * (platform/cpuid_dump.h). */
void topology_add_live_sources(topology *t);
/* Records the cache probe's findings as the measured view of the last level. */
void topology_set_measured(topology *t, const cache_measurement *m);
/* The last level known or assumed: the highest any source describes, 3 when no
 * source goes past L2 (a probe's edge is then taken for an L3). */
int topology_last_level(const topology *t);
/* The last level has no size of one instance from any source (unknown, or only a
 * package's total): the case the probe runs for by itself. */
bool topology_llc_unknown(const topology *t);

#endif
