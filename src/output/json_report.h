/* SPDX-License-Identifier: MIT */
/* The --json document, one schema for every mode ("schema": 2, written down in
 * schema/membench-run.schema.json and checked by make check): tool, command line,
 * host, topology, warnings, options, placement, plan, every result with its raw
 * samples, and the analysis. The sink rewrites it after every result through a
 * temporary file and rename(), so the file is always a complete, valid document,
 * marked "complete": false until the end. */
#ifndef MEMBENCH_JSON_REPORT_H
#define MEMBENCH_JSON_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/json.h"
#include "output/sink.h"

#define JSON_SCHEMA_VERSION 2

void json_write_run(FILE *f, const run_info *info);
/* noise: the run's host verdict, for summary.host_interval (NULL or not yet measured: null). */
void json_write_record(json_writer *j, const result_record *r, const run_host_noise *noise);
void json_write_params(json_writer *j, const char *key, const param_list *l);

/* True when the document can go to path (checked before anything else is said, so
 * a bad --json is the run's only message): a new or writable regular file (replaced
 * through a temporary file next to it, or next to a link's target), or a device,
 * FIFO or the file stdout writes to (written into at the end, never renamed over).
 * Else false with the one-line error "--json PATH: cannot write (why)" in err:
 * a directory, a read-only file, a link to nothing, a socket. */
bool json_path_check(const char *path, char *err, size_t errlen);

/* Writes the document at begin, after every result and at the end (a device or
 * FIFO: at the end only). A write that fails is said once on stderr and marks the
 * sink failed. */
sink *json_sink_create(const char *path, FILE *err, const char *who);

#endif
