/* SPDX-License-Identifier: MIT */
/* --openmetrics FILE: the run as OpenMetrics text for node_exporter's textfile
 * collector (and anything else that reads the Prometheus text format).
 *
 *   membench_run_info{mode,version,host,cpu,kernel,arch,command} 1
 *   membench_run_complete{mode}          1 when the run ended complete; 0 while it
 *                                        runs, and after Ctrl-C, -t or an error
 *   membench_run_elapsed_seconds{mode}, membench_run_warnings{mode},
 *   membench_run_errors{mode}
 *   membench_bandwidth_bytes_per_second{...}  each bandwidth record's headline
 *                                        value (the best sample), MB/s x 10^6
 *   membench_latency_seconds{...}        each latency record's headline value (the
 *                                        median sample), ns x 10^-9
 *   membench_bandwidth_samples_bytes_per_second, membench_latency_samples_seconds:
 *                                        summaries of the same records' raw samples:
 *                                        quantile "0" (min), "0.5" (median), "1"
 *                                        (max), _sum and _count
 *
 * A record's labels: mode, operation, size_bytes, threads, isa and stores (the
 * kernel), cpus (the threads' CPUs in thread order), node and memory_node (where
 * they ran and kept their memory), and where the record has them delay, traffic
 * (the traffic modes), state and home_node (c2c). A record whose labels equal an
 * earlier one's (numa mem -a's tests) gets repeat="2", "3", ... so that no two
 * series are the same, which the textfile collector would refuse.
 *
 * The file is rewritten atomically after every result (file_target.h), so the
 * collector never reads half of it, and ends with "# EOF". */
#ifndef MEMBENCH_OPENMETRICS_SINK_H
#define MEMBENCH_OPENMETRICS_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/sink.h"

/* The whole document for the run so far. */
void openmetrics_write_run(FILE *f, const run_info *info);

/* True when the document can go to path, else the one-line error
 * "--openmetrics PATH: cannot write (why)" in err (as json_path_check). */
bool openmetrics_path_check(const char *path, char *err, size_t errlen);

/* Writes the document at begin, after every result and at the end (a device or
 * FIFO: at the end only). A write that fails is said once on stderr and marks the
 * sink failed. */
sink *openmetrics_sink_create(const char *path, FILE *err, const char *who);

#endif
