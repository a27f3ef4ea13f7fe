/* SPDX-License-Identifier: MIT */
/* Output of `membench latency`: a table (or CSV) row per buffer size as it is
 * measured, then the cache sizes read off the curve (the run's analysis: steps and
 * reported-vs-measured levels) — on stdout, or on stderr when stdout is CSV. */
#ifndef MEMBENCH_LATENCY_SINK_H
#define MEMBENCH_LATENCY_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

#define LATENCY_CSV_HEADER                                                                                           \
    "size_kb,latency_ns,latency_ref_cycles,latency_stddev_ns,latency_samples,cv_target_met,page_method,huge_coverage,"  \
    "random_latency_ns,latency_best_ns,random_latency_best_ns"

void latency_write_header(FILE *f, bool csv, const char *counter, double counter_hz);
void latency_write_row(FILE *f, bool csv, const result_record *r);
/* Steps, per-level comparison and the effective LLC, from the run's analysis
 * (tables "steps" and "cache_checks", value "huge_pages"). */
void latency_write_estimates(FILE *f, const param_section *analysis);
/* One note when the full random chase came out below the TLB-local one at any size
 * (it adds page walks, so that is the host's doing); nothing otherwise. */
void latency_write_random_note(FILE *f, const result_list *results);

/* Reads "method", "counter" and "counter_hz" from the run's plan. */
sink *latency_sink_create(FILE *f, FILE *err, bool csv);

#endif
