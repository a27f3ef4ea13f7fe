/* SPDX-License-Identifier: MIT */
/* sc-membench's CSV, byte for byte: same header, same columns, same number formats.
 * Anything new goes to JSON, never here. */
#ifndef MEMBENCH_CSV_SINK_H
#define MEMBENCH_CSV_SINK_H

#include <stdio.h>

#include "output/sink.h"

/* sc-membench's nine columns, then membench's: random_latency_ns, the full random
 * chase (page walks included) beside a DRAM point's latency_ns, empty elsewhere. */
#define CSV_HEADER                                                                                                   \
    "size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,iterations,elapsed_s,"     \
    "random_latency_ns"

void csv_write_header(FILE *f);
void csv_write_record(FILE *f, const result_record *r);

/* Header at begin, one flushed row per result. */
sink *csv_sink_create(FILE *f);

#endif
