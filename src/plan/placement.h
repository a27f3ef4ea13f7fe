/* SPDX-License-Identifier: MIT */
/* Where each thread runs. Default: spread over NUMA nodes, then physical cores,
 * before SMT siblings, one CPU per thread. OMP_PLACES / OMP_PROC_BIND follow
 * OpenMP's meaning (as sc-membench documents them; their syntax is read by
 * plan/omp_places.h, this file only assigns threads to the places); --cpus pins
 * explicitly. */
#ifndef MEMBENCH_PLACEMENT_H
#define MEMBENCH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "topology/topology.h"
#include "util/cpu_list.h"

typedef struct {
    cpu_list cpus; /* the place: CPUs the thread may run on */
    int cpu;       /* first CPU of the place: decides the thread's node */
    int node;      /* the CPU's node */
    int mem_node;  /* where its buffers go: node, or the nearest with memory */
} thread_place;

typedef struct {
    thread_place *places;
    int n;
    bool pinned;
    char policy[96]; /* how the places were chosen, for -v and JSON */
} placement;

typedef struct {
    int threads;             /* > 0 */
    const cpu_list *cpus;    /* --cpus, or NULL */
    const char *omp_bind;    /* OMP_PROC_BIND or NULL */
    const char *omp_places;  /* OMP_PLACES or NULL */
    bool oversubscribe;
} placement_request;

/* Fills out; on bad input returns false with a one-line message in err. */
bool placement_build(const topology *t, const placement_request *rq, placement *out, char *err, size_t errlen);
void placement_free(placement *p);

/* Usable CPUs in spread order (nodes round-robin, cores before SMT siblings). */
size_t placement_spread_order(const topology *t, int *out, size_t cap);

/* One thread pinned to each of cpus[0..n) (usable CPUs of t), in that order, memory
 * on each CPU's memory node (topology_memory_node); for modes that choose their CPUs
 * themselves. False when out of memory (out is freed). */
bool placement_one_per_cpu(const topology *t, const int *cpus, int n, placement *out);

/* First CPU of each place, in thread order (n entries written to out). */
void placement_primary_cpus(const placement *p, int *out);

/* CPUs of the threads, comma-separated, e.g. "0,1" ("0-1|2-3" for multi-CPU places);
 * allocated, whole however many threads (free it); NULL when out of memory. */
char *placement_cpus_text(const placement *p);

#endif
