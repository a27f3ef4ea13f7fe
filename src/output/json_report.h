/* The --json document: one object for the whole run (tool, command line, host,
 * topology, options, placement, plan, every result with its extra fields). It is
 * rewritten after every result through a temporary file and rename(), so the file
 * is always a complete, valid document — marked "complete": false until the end. */
#ifndef MEMBENCH_JSON_REPORT_H
#define MEMBENCH_JSON_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/json.h"
#include "output/record.h"
#include "output/run_info.h"

/* Pieces shared with other modes' documents. */
void json_write_record(json_writer *j, const result_record *r);
void json_write_header(json_writer *j, const run_info *info, const char *mode);
/* True when json_write_atomic could create its temporary file next to path (checked
 * before anything else is said, so a bad --json is the run's only message); else
 * false with the one-line error "--json PATH: cannot write (why)" in err. */
bool json_path_check(const char *path, char *err, size_t errlen);

/* Atomic replace of path with whatever write(f, ctx) prints. */
bool json_write_atomic(const char *path, void (*write)(FILE *f, const void *ctx), const void *ctx);

void json_report_write_stream(FILE *f, const run_info *info, const result_record *records, size_t n);
/* Atomic replace of path; false (errno set) when it could not be written. */
bool json_report_write(const char *path, const run_info *info, const result_record *records, size_t n);

#endif
