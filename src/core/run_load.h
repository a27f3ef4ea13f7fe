/* SPDX-License-Identifier: MIT */
/* A membench schema-2 run document (schema/membench-run.schema.json) read back:
 * who ran it where with which options, and every result with its raw samples.
 * What compare needs, and what the report will. A document that is not JSON, not
 * membench's, of another schema or missing a required field is refused with one
 * line saying which. */
#ifndef MEMBENCH_RUN_LOAD_H
#define MEMBENCH_RUN_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "util/json_parse.h"

/* Bigger than any run membench writes (a per-CPU matrix of a large machine is a
 * few MiB); refused before reading. */
#define RUN_LOAD_MAX_BYTES ((size_t)256 << 20)
#define RUN_LOAD_SCHEMA 2

typedef struct {
    const char *mode, *operation, *metric, *unit; /* point into the document */
    unsigned long long size_bytes;
    long long threads;
    char nodes[64];   /* "CPU nodes/memory nodes" of its placement: "0/0", "0,1/1"; "-" unknown */
    double value;     /* what the run reported (bandwidth: best; latency: median) */
    double *samples;  /* every raw sample */
    size_t nsamples;
    int *sample_rounds; /* the round of each sample, or NULL (absent, or not one a sample) */
    bool complete;
    const json_value *json; /* the whole record (params, placement, kernel) */
} loaded_record;

typedef struct {
    json_value doc;   /* owns the strings below */
    const char *version, *mode, *hostname, *cpu_model, *kernel, *started_at;
    bool complete;
    /* host_noise.varied_pct: how much the host moved during the run, in %; -1 when
     * the run has no verdict (too short, stopped, or an older document) */
    double host_varied_pct;
    const json_value *options; /* object of scalars */
    loaded_record *records;
    size_t count;
} loaded_run;

/* Reads path (at most limit bytes) into *run. False: err holds one line without
 * the path ("not JSON: line 3, column 5: ...", "not a membench document ...",
 * "schema 1, this membench reads schema 2", "results[2]: no \"samples\" ..."). */
bool run_load(const char *path, size_t limit, loaded_run *run, char *err, size_t errlen);
/* The same from text already in memory (tests, fuzzing). */
bool run_load_text(const char *text, size_t len, loaded_run *run, char *err, size_t errlen);
void run_free(loaded_run *run);

#endif
