/* Output of `membench latency`: table or CSV rows, the cache-size estimates read
 * off the curve, and the JSON document. */
#ifndef MEMBENCH_LATENCY_WRITER_H
#define MEMBENCH_LATENCY_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "measure/cache_estimate.h"
#include "measure/cache_levels.h"
#include "output/record.h"
#include "output/run_info.h"
#include "topology/topology.h"

#define LATENCY_CSV_HEADER                                                                                           \
    "size_kb,latency_ns,latency_ref_cycles,latency_stddev_ns,latency_samples,cv_target_met,page_method,huge_coverage"

void latency_write_header(FILE *f, bool csv, double counter_hz);
void latency_write_row(FILE *f, bool csv, const result_record *r);
/* Text block with steps, per-level comparison and the effective LLC. */
void latency_write_estimates(FILE *f, const latency_step *steps, size_t nsteps, const level_check *checks,
                             size_t nchecks, bool huge_pages);

typedef struct {
    const run_info *info;
    const char *description; /* order, node size, pages, CPU */
    const result_record *records;
    size_t n;
    const latency_step *steps;
    size_t nsteps;
    const level_check *checks;
    size_t nchecks;
    double counter_hz;
} latency_doc;

void latency_write_json(FILE *f, const void *doc /* latency_doc */);

#endif
