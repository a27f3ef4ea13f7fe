/* SPDX-License-Identifier: MIT */
/* What a latency matrix says at a glance: the fastest and slowest local cell
 * (memory on the chaser's own node) and remote cell, and the fastest and slowest
 * chaser overall (with one cell per CPU: the slow core to look at). */
#ifndef MEMBENCH_MATRIX_SUMMARY_H
#define MEMBENCH_MATRIX_SUMMARY_H

#include <stddef.h>

typedef struct {
    int cpu_node, mem_node, cpu;
    double ns;
} matrix_point;

typedef struct {
    size_t nlocal, nremote;
    matrix_point local_min, local_max;   /* valid when nlocal > 0 */
    matrix_point remote_min, remote_max; /* valid when nremote > 0 */
    matrix_point fastest, slowest;       /* over all points; valid when n > 0 */
    size_t n;
} matrix_summary;

matrix_summary matrix_summarise(const matrix_point *p, size_t n);

#endif
