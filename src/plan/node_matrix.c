/* SPDX-License-Identifier: MIT */
#include "plan/node_matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/dram_size.h"

static bool fail(char *err, size_t errlen, const char *fmt, int a, int b)
{
    snprintf(err, errlen, fmt, a, b);
    return false;
}

/* The first usable CPU of node, or -1. */
static int first_usable_cpu(const topology *t, const numa_node *n)
{
    for (size_t k = 0; k < n->cpus.count; k++) {
        const cpu_info *c = topology_cpu(t, n->cpus.ids[k]);
        if (c && c->usable)
            return c->id;
    }
    return -1;
}

static const node_cpu_choice *chosen_for(const node_matrix_request *rq, int node)
{
    for (size_t i = 0; i < rq->ncpu_of; i++)
        if (rq->cpu_of[i].node == node)
            return &rq->cpu_of[i];
    return NULL;
}

static bool check_choices(const topology *t, const node_matrix_request *rq, char *err, size_t errlen)
{
    for (size_t i = 0; i < rq->ncpu_of; i++) {
        const node_cpu_choice *c = &rq->cpu_of[i];
        const numa_node *n = topology_node(t, c->node);
        const cpu_info *ci = topology_cpu(t, c->cpu);
        if (!n)
            return fail(err, errlen, "--cpu-of %d=%d: no such NUMA node here", c->node, c->cpu);
        if (!ci || !ci->usable)
            return fail(err, errlen, "--cpu-of %d=%d: that CPU is not available to this process", c->node, c->cpu);
        if (ci->node != c->node)
            return fail(err, errlen, "--cpu-of %d=%d: that CPU is not on that node", c->node, c->cpu);
    }
    return true;
}

static bool check_mem_node(const topology *t, int node, char *err, size_t errlen)
{
    const numa_node *n = topology_node(t, node);
    if (!n || n->mem_total == 0) {
        snprintf(err, errlen, "--mem-node %d: %s", node, n ? "that NUMA node has no memory" : "no such NUMA node here");
        return false;
    }
    return true;
}

static bool allocate(node_matrix *m, size_t rows, size_t cols, size_t cells)
{
    m->row_nodes = calloc(rows ? rows : 1, sizeof *m->row_nodes);
    m->row_cpus = calloc(rows ? rows : 1, sizeof *m->row_cpus);
    m->col_nodes = calloc(cols ? cols : 1, sizeof *m->col_nodes);
    m->cells = calloc(cells ? cells : 1, sizeof *m->cells);
    return m->row_nodes && m->row_cpus && m->col_nodes && m->cells;
}

/* Rows: nodes with a usable CPU (the chosen one, else the first); columns: nodes
 * with memory, or only --mem-node. */
static void plan_matrix(const topology *t, const node_matrix_request *rq, node_matrix *m)
{
    for (size_t i = 0; i < t->nnodes; i++) {
        const numa_node *n = &t->nodes[i];
        const node_cpu_choice *c = chosen_for(rq, n->id);
        int cpu = c ? c->cpu : first_usable_cpu(t, n);
        if (cpu >= 0) {
            m->row_nodes[m->nrows] = n->id;
            m->row_cpus[m->nrows++] = cpu;
        }
        if (n->mem_total > 0 && (rq->mem_node < 0 || rq->mem_node == n->id))
            m->col_nodes[m->ncols++] = n->id;
    }
    for (size_t r = 0; r < m->nrows; r++)
        for (size_t c = 0; c < m->ncols; c++)
            m->cells[m->ncells++] =
                (node_matrix_cell){m->row_nodes[r], m->row_cpus[r], m->col_nodes[c], r, c};
}

/* A row per usable CPU; its column is its node's memory (a memory-less node's
 * nearest) or --mem-node. col is the index of that node among the columns. */
static void plan_every_cpu(const topology *t, const node_matrix_request *rq, node_matrix *m)
{
    for (size_t i = 0; i < t->usable.count; i++) {
        const cpu_info *ci = topology_cpu(t, t->usable.ids[i]);
        if (!ci || !ci->usable || (rq->only_cpu >= 0 && ci->id != rq->only_cpu))
            continue;
        int mem = rq->mem_node >= 0 ? rq->mem_node : topology_memory_node(t, ci->node);
        size_t col = 0;
        while (col < m->ncols && m->col_nodes[col] != mem)
            col++;
        if (col == m->ncols)
            m->col_nodes[m->ncols++] = mem;
        m->row_nodes[m->nrows] = ci->node;
        m->row_cpus[m->nrows] = ci->id;
        m->cells[m->ncells++] = (node_matrix_cell){ci->node, ci->id, mem, m->nrows, col};
        m->nrows++;
    }
}

bool node_matrix_plan(const topology *t, const node_matrix_request *rq, node_matrix *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (rq->mem_node >= 0 && !check_mem_node(t, rq->mem_node, err, errlen))
        return false;
    if (!check_choices(t, rq, err, errlen))
        return false;
    const cpu_info *only = rq->only_cpu >= 0 ? topology_cpu(t, rq->only_cpu) : NULL;
    if (rq->only_cpu >= 0 && (!only || !only->usable)) {
        snprintf(err, errlen, "--cpu %d: that CPU is not available to this process", rq->only_cpu);
        return false;
    }
    bool per_cpu = rq->every_cpu || rq->only_cpu >= 0;
    /* every CPU: a row per usable CPU, at most as many columns; matrix: nodes x nodes */
    size_t rows = per_cpu ? t->usable.count : t->nnodes;
    size_t cols = per_cpu ? t->usable.count : t->nnodes;
    if (!allocate(m, rows, cols, per_cpu ? rows : rows * cols)) {
        node_matrix_free(m);
        snprintf(err, errlen, "out of memory planning the matrix");
        return false;
    }
    if (per_cpu)
        plan_every_cpu(t, rq, m);
    else
        plan_matrix(t, rq, m);
    if (m->ncells == 0) {
        node_matrix_free(m);
        snprintf(err, errlen, "nothing to measure: no NUMA node with memory was found (node meminfo unreadable?)");
        return false;
    }
    return true;
}

void node_matrix_free(node_matrix *m)
{
    free(m->row_nodes);
    free(m->row_cpus);
    free(m->col_nodes);
    free(m->cells);
    memset(m, 0, sizeof *m);
}

uint64_t node_matrix_buffer_bytes(const topology *t, const node_matrix *m, uint64_t budget, dram_basis *basis,
                                  bool *capped, char *why, size_t whylen)
{
    /* One chaser a cell: the rule for the row CPU whose rule is largest. */
    *basis = dram_basis_for(t, m->nrows ? &m->row_cpus[0] : NULL, m->nrows ? 1 : 0);
    for (size_t r = 1; r < m->nrows; r++) {
        dram_basis b = dram_basis_for(t, &m->row_cpus[r], 1);
        if (dram_rule_bytes(&b) > dram_rule_bytes(basis))
            *basis = b;
    }
    uint64_t bytes = dram_rule_bytes(basis);
    bytes += (4096 - bytes % 4096) % 4096;
    dram_rule_text(basis, why, whylen);
    *capped = false;
    if (bytes < NODE_MATRIX_MIN_BYTES) {
        bytes = NODE_MATRIX_MIN_BYTES;
        snprintf(why + strlen(why), whylen - strlen(why), ", raised to the %llu MiB minimum",
                 NODE_MATRIX_MIN_BYTES >> 20);
    }
    if (bytes > budget) {
        bytes = budget - budget % 4096;
        *capped = true;
        snprintf(why + strlen(why), whylen - strlen(why), ", capped by the memory budget");
    }
    return bytes;
}
