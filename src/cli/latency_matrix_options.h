/* SPDX-License-Identifier: MIT */
/* Options of `membench latency-matrix` (MLC --latency_matrix, and -a with
 * --every-cpu): idle latency per (CPU node, memory node), as one table. */
#ifndef MEMBENCH_LATENCY_MATRIX_OPTIONS_H
#define MEMBENCH_LATENCY_MATRIX_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "plan/node_matrix.h"

#define LATENCY_MATRIX_MAX_CPU_OF 64

typedef struct {
    common_options common;   /* -h -v --json --pages */
    uint64_t buffer_bytes;   /* -b; 0 = from the LLC (node_matrix_buffer_bytes) */
    bool buffer_given;
    bool every_cpu;
    int cpu;                 /* --cpu: only this CPU's row (-1: none) */
    bool cpu_given;
    int mem_node;            /* -1 = every node with memory / each CPU's own */
    bool mem_node_given;
    node_cpu_choice cpu_of[LATENCY_MATRIX_MAX_CPU_OF];
    size_t ncpu_of;
    uint64_t stride;         /* bytes between chased nodes; 0 = the line size */
    bool full_random;        /* --full-random: random over the whole buffer (page walks included) */
    uint64_t chase_range;    /* --chase-range: bytes visited in random order before the next range; 0 = whole buffer */
    uint64_t seed;
    double sample_ms;
    bool csv;
} latency_matrix_options;

extern const option_table latency_matrix_option_table;
void latency_matrix_options_defaults(void *opts);
parse_result latency_matrix_options_check(void *opts, char *err, size_t errlen);

#endif
