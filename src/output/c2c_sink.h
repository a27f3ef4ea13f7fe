/* SPDX-License-Identifier: MIT */
/* Output of `membench c2c`: a row per pair as it is measured (table or CSV), then,
 * for a table, the matrices the rows make: writer node x reader node per state and
 * homing, or writer CPU x reader CPU (--matrix), '-' on the diagonal and '?' where
 * nothing was measured (a stop, a failure). Labels say HIT/HITM and the home node,
 * and that a line may come from L2, L3, another CCX or socket: not "L2->L2". */
#ifndef MEMBENCH_C2C_SINK_H
#define MEMBENCH_C2C_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

#define C2C_CSV_HEADER                                                                                               \
    "kind,writer_cpu,writer_node,reader_cpu,reader_node,state,home_node,home_of,home_verified,window_bytes,"          \
    "latency_ns,latency_stddev_ns,samples,cv_target_met,reader_own_ns,first_visit_ns,second_visit_ns,visits_split"

void c2c_write_row(FILE *f, bool csv, const result_record *r);
/* The matrices of the results of kind "node" and "matrix". */
void c2c_write_matrices(FILE *f, const result_list *results);

sink *c2c_sink_create(FILE *f, bool csv);

#endif
