/* SPDX-License-Identifier: MIT */
/* Options of `membench latency` (lmbench lat_mem_rd, multichase): a latency curve
 * from --min to --max, as one declarative table. */
#ifndef MEMBENCH_LATENCY_OPTIONS_H
#define MEMBENCH_LATENCY_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "kernels/chase.h"

#define LATENCY_MAX_ROUNDS 21 /* one sample per visit at most: the CV rule's 21 samples */
#define LATENCY_TIME_BUDGET_S 15.0 /* --time-budget's default: issue 34's goal for the curve */
#define LATENCY_MIN_SAMPLE_MS 5.0  /* the default sample, shortened to fit the budget, no shorter */

typedef enum { MEM_POLICY_BIND, MEM_POLICY_PREFERRED } latency_mem_policy;

typedef struct {
    common_options common; /* -h -v --json --pages */
    uint64_t min_bytes, max_bytes; /* max 0 = 2x the last-level cache */
    int points_per_octave;
    bool points_per_octave_given; /* else half as many past the largest cache (latency_mode.c) */
    chase_order order;
    uint64_t stride;     /* --stride: node size of the strided order */
    bool page_local;
    bool full_random; /* --full-random: the curve chased as CHASE_RANDOM */
    uint64_t seed;
    double sample_ms;
    bool sample_ms_given; /* else shortened (to LATENCY_MIN_SAMPLE_MS) when the rounds would pass the budget */
    int cpu;             /* -1 = first usable CPU */
    bool cpu_given;
    int mem_node;        /* --mem-node: memory on this NUMA node; -1 = the CPU's own */
    bool mem_node_given;
    int mem_policy;      /* latency_mem_policy for --mem-node */
    bool mem_policy_given;
    bool csv;
    int rounds;          /* --rounds: visits every size gets, spread over the run */
    double target_ci_pct; /* --target-ci: more rounds until every median interval is within ±this %; 0 = none */
    double max_time_s;   /* --max-time: no round starts after this many seconds; 0 = none */
    double time_budget_s; /* --time-budget: rounds past --rounds only within it; 0 = none */
} latency_options;

extern const option_table latency_option_table;
void latency_options_defaults(void *opts);
parse_result latency_options_check(void *opts, char *err, size_t errlen);

#endif
