/* SPDX-License-Identifier: MIT */
/* Output of `membench latency-matrix`: MLC's layout (a "Numa node" x "Numa node"
 * matrix of ns with one decimal, '-' where a cell was not measured), a row per
 * CPU with --every-cpu, or CSV with one line per cell; then the summary from the
 * run's analysis (on stderr after CSV). Cells are laid out from the plan's
 * "cells" and "columns" tables; a planned cell with no record before a later one
 * (or at the end of a complete run) is one the mode reported unavailable. */
#ifndef MEMBENCH_LATENCY_MATRIX_SINK_H
#define MEMBENCH_LATENCY_MATRIX_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

#define LATENCY_MATRIX_CSV_HEADER                                                                                    \
    "cpu_node,mem_node,cpu,latency_ns,latency_stddev_ns,latency_samples,cv_target_met,page_node_fraction,page_"      \
    "method,huge_coverage,buffer_bytes"

sink *latency_matrix_sink_create(FILE *f, FILE *err, bool csv);

#endif
