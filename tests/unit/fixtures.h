/* SPDX-License-Identifier: MIT */
/* Recorded-style sysfs trees written into a temporary directory, describing
 * machines this one is not: a 2-socket SMT server, an arm64 part without L3, a
 * part with caches small enough for a whole sweep in a test, a VM with odd cache
 * reports and no topology files, a memory-less NUMA node, a 256-CPU machine. */
#ifndef MEMBENCH_TEST_FIXTURES_H
#define MEMBENCH_TEST_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/cache_estimate.h"
#include "platform/cpuid_dump.h"
#include "topology/topology.h"

/* Each returns the root of a new tree (pass to topology_load). */
const char *fixture_two_socket_smt(void);   /* 16 CPUs: 2 pkg x 4 cores x 2 SMT, 2 nodes */
const char *fixture_arm_no_l3(void);        /* 4 CPUs, L1 64K, L2 1M, no L3 */
const char *fixture_small_caches(void);     /* 2 CPUs, L1 16K, L2 64K, L3 256K: a sweep's sizes end at 1 MiB */
const char *fixture_vm_odd_caches(void);    /* 2 CPUs, no topology/ and no node/, L3 105 MiB */
const char *fixture_memoryless_node(void);  /* 4 CPUs, node1 has CPUs 2-3 and no memory */
const char *fixture_headless_tie(void);    /* 6 CPUs, 5 nodes: memory-less nodes 1 and 4 with ties */
const char *fixture_many_cpus(void);        /* 256 CPUs, 2 nodes of 128, no SMT */


/* Cloud guests and hosts whose sysfs hides or misstates the caches (the CPUID dumps
 * beside them are in tests/fixtures/cpuid/, read with fixture_cpuid). */
const char *fixture_microvm_no_caches(void); /* 2 CPUs, 2 cores, 1 node of 4 GiB, no cache directory at all */
const char *fixture_zen4_no_caches(void);    /* 32 CPUs: 16 cores x 2 SMT numbered as Linux does (CPU n and
                                                n+16 are siblings), 1 package, no cache directory */
const char *fixture_wrong_sysfs(void);       /* 2 CPUs whose sysfs says L1 32K, L2 512K, L3 8M (the guest's
                                                CPUID leaf 4 says otherwise) */
/* The dump tests/fixtures/cpuid/NAME (read from the repository's root, where the
 * tests run); false, with the reason printed, when it cannot be read or parsed. */
bool fixture_cpuid(const char *name, cpuid_dump *out);

/* make()'s tree, written once per test binary (the harness has room for 64 trees). */
const char *fixture_once(const char *(*make)(void));
/* Loads the tree at root as topology t; usable: the CPUs this process may use, as a
 * list ("3,4,12"), or NULL for every online CPU. */
void fixture_load(topology *t, const char *root, const char *usable);

/* What a session opened on a recorded tree sees of this process: no OMP_*
 * variables, and a memory budget of 4 GiB (session_env's getenv and memory_budget). */
const char *fixture_no_env(const char *name);
bool fixture_four_gib(uint64_t *bytes, char *why, size_t whylen);

/* find_latency_steps on a curve given as two arrays, each point without an
 * interval (low == high == its latency). At most 64 points. */
size_t fixture_latency_steps(const uint64_t *sizes, const double *lat, size_t n, latency_step *steps);

/* Real machines of other architectures, as their kernels lay out sysfs (each
 * fixture's comment says which machine it stands for). */
const char *fixture_arm64_n1_server(void);  /* 64 Neoverse N1 cores, no SMT, SLC 32M shared, 1 node */
const char *fixture_power9_lpar(void);      /* 32 CPUs: 4 SMT8 cores, package -1, nodes 0 and 8, 128 B lines */
const char *fixture_s390x_z15_lpar(void);   /* 8 CPUs: 4 SMT2 cores, 256 B lines, L1/L2 only in sysfs */
/* /proc/cpuinfo of the z15 LPAR above (its shared L3 and L4 are only there). */
extern const char fixture_s390x_z15_cpuinfo[];

#endif
