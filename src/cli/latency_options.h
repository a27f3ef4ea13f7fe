/* Options of `membench latency` (lmbench lat_mem_rd, multichase): a latency curve
 * from --min to --max. Parsed once, validated here, before anything is measured. */
#ifndef MEMBENCH_LATENCY_OPTIONS_H
#define MEMBENCH_LATENCY_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/sweep_options.h"
#include "kernels/chase.h"

typedef enum { LAT_PAGES_DEFAULT, LAT_PAGES_4K, LAT_PAGES_2M, LAT_PAGES_1G, LAT_PAGES_THP } latency_pages;

typedef struct {
    uint64_t min_bytes, max_bytes; /* max 0 = 2x the last-level cache */
    int points_per_octave;
    chase_order order;
    uint64_t stride;     /* --stride: node size of the strided order */
    latency_pages pages;
    uint64_t seed;
    double sample_ms;
    int cpu;             /* -1 = first usable CPU */
    int mem_node;        /* --mem-node: memory on this NUMA node; -1 = the CPU's own */
    bool csv;
    const char *json_path;
    int verbose;
    bool help;
} latency_options;

parse_result latency_options_parse(int argc, char **argv, latency_options *o, char *err, size_t errlen);
void latency_usage(FILE *out);
const char *latency_pages_name(latency_pages p);

#endif
