/* SPDX-License-Identifier: MIT */
/* sc-membench's CSV, byte for byte: same header, same columns with the same
 * meanings, same number formats. membench's own figures go to JSON, -R and, asked
 * for (--csv-columns membench), columns after sc-membench's nine. */
#ifndef MEMBENCH_CSV_SINK_H
#define MEMBENCH_CSV_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

/* sc-membench's nine columns. latency_ns is its figure: the median of a chase
 * random over the whole buffer, page walks included (result_full_random). */
#define CSV_HEADER                                                                                                   \
    "size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,iterations,elapsed_s"
/* --csv-columns membench: then the headline's chase (multichase's TLB-local order,
 * no page walks), median and standard deviation. */
#define CSV_HEADER_MEMBENCH ",tlb_local_latency_ns,tlb_local_latency_stddev_ns"

void csv_write_header(FILE *f, bool membench_columns);
void csv_write_record(FILE *f, const result_record *r, bool membench_columns);

/* Header at begin, one flushed row per result. */
sink *csv_sink_create(FILE *f, bool membench_columns);

#endif
