/* SPDX-License-Identifier: MIT */
/* Output of `membench bandwidth-matrix`: MLC's layout (the MB/s line, the traffic
 * type, a "Numa node" x "Numa node" matrix of application MB/s, '-' where a cell was
 * not measured) with the DRAM factor of the traffic type under it, or CSV with one
 * line per measured cell. Rows are written as they complete, laid out from the
 * plan's "cells" and "columns" tables. */
#ifndef MEMBENCH_BANDWIDTH_MATRIX_SINK_H
#define MEMBENCH_BANDWIDTH_MATRIX_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

#define BANDWIDTH_MATRIX_CSV_HEADER                                                                                 \
    "cpu_node,mem_node,threads,traffic,mb_s,dram_mb_s,best_window_mb_s,cv,samples,page_node_fraction"

sink *bandwidth_matrix_sink_create(FILE *f, bool csv);

#endif
