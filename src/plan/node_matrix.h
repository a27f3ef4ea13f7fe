/* SPDX-License-Identifier: MIT */
/* What `membench latency-matrix` measures, decided from the topology alone (so it
 * is tested against recorded sysfs trees): which chaser CPU each row gets, which
 * memory node each column is, the cells in the order they are measured, and the
 * buffer size.
 *
 * Matrix: a row per NUMA node with usable CPUs (a node whose memory comes from
 * elsewhere is still a row), a column per node with memory, CPU-less memory nodes
 * (CXL, HBM) included; MLC cannot target those. Every CPU (MLC's -a): a row per
 * usable CPU, one column: its node's memory (or the one asked for). One CPU (MLC's
 * idle latency): that CPU's row of every CPU. */
#ifndef MEMBENCH_NODE_MATRIX_H
#define MEMBENCH_NODE_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/dram_size.h"
#include "topology/topology.h"

#define NODE_MATRIX_MIN_BYTES (64ULL << 20)

/* --cpu-of NODE=CPU */
typedef struct {
    int node, cpu;
} node_cpu_choice;

typedef struct {
    bool every_cpu;
    int only_cpu;                 /* >= 0: one row, this CPU (as every_cpu otherwise) */
    int mem_node;                 /* -1: every node with memory (matrix) or each CPU's own */
    const node_cpu_choice *cpu_of; /* chasers chosen per node (matrix only) */
    size_t ncpu_of;
} node_matrix_request;

/* One measurement: a chaser on cpu (of cpu_node) reading memory bound to mem_node. */
typedef struct {
    int cpu_node, cpu, mem_node;
    size_t row, col;
} node_matrix_cell;

typedef struct {
    int *row_nodes, *row_cpus; /* per row: the CPU's node and the chaser CPU */
    size_t nrows;
    int *col_nodes;            /* per column: the memory node */
    size_t ncols;
    node_matrix_cell *cells;   /* row-major, the order they are measured in */
    size_t ncells;
} node_matrix;

/* Fills m (free with node_matrix_free). False with one line in err naming the bad
 * value: a --mem-node that is not there or has no memory, a --cpu that is not usable, a --cpu-of node without
 * CPUs or a CPU that is not usable or not on that node, nothing to measure. */
bool node_matrix_plan(const topology *t, const node_matrix_request *rq, node_matrix *m, char *err, size_t errlen);
void node_matrix_free(node_matrix *m);

/* The default buffer: the DRAM rule (plan/dram_size.h) for the row CPU whose rule
 * is largest (one chaser a cell: *basis), at least NODE_MATRIX_MIN_BYTES, at most
 * budget (whole 4 KiB pages; *capped then). why says which rule decided; -b sets
 * any other size. */
uint64_t node_matrix_buffer_bytes(const topology *t, const node_matrix *m, uint64_t budget, dram_basis *basis,
                                  bool *capped, char *why, size_t whylen);

#endif
