/* sc-membench's CSV, byte for byte: same header, same columns, same number formats.
 * Anything new goes to JSON, never here. */
#ifndef MEMBENCH_CSV_WRITER_H
#define MEMBENCH_CSV_WRITER_H

#include <stdio.h>

#include "output/record.h"

#define CSV_HEADER "size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,threads,iterations,elapsed_s"

void csv_write_header(FILE *f);
void csv_write_record(FILE *f, const result_record *r);

#endif
