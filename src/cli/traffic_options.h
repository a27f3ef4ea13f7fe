/* SPDX-License-Identifier: MIT */
/* Options of the traffic modes: `membench peak-bandwidth` (MLC
 * --peak_injection_bandwidth and --max_bandwidth), `membench loaded-latency`
 * (MLC --loaded_latency) and `membench bandwidth-matrix` (MLC --bandwidth_matrix). One struct; each mode's table takes the rows that apply to
 * it, so --help lists only those. */
#ifndef MEMBENCH_TRAFFIC_OPTIONS_H
#define MEMBENCH_TRAFFIC_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "kernels/traffic_mix.h"

#define TRAFFIC_MAX_MIXES 17
#define TRAFFIC_MAX_DELAYS 64

typedef struct {
    common_options common; /* -h -v --json --cpus --kernel --pages/-H */
    const traffic_mix *mixes[TRAFFIC_MAX_MIXES];
    int nmixes;            /* 0: the mode's default */
    bool one_per_core;     /* MLC -X */
    uint64_t buffer_bytes; /* -b: each buffer of a traffic thread; 0 = from the LLC */
    double window_ms;
    int samples;
    bool per_thread;       /* MLC -B */
    bool random;           /* MLC -U: random-access traffic */
    uint64_t delay;        /* MLC -d: one delay (peak-bandwidth) */
    bool delay_given;
    bool search_max;       /* --max: best over a search of delays (MLC --max_bandwidth) */
    uint64_t delays[TRAFFIC_MAX_DELAYS];
    int ndelays;           /* 0: MLC's list (loaded-latency) */
    int latency_cpu;       /* -1: the first usable CPU */
    bool latency_cpu_given;
    bool share_core;       /* traffic may run on the chaser's core (its SMT siblings) */
    uint64_t chase_bytes;  /* 0: from the LLC */
    double sample_ms;      /* one latency sample */
    uint64_t chase_range;  /* loaded-latency --chase-range: 0 = the whole chase buffer at random */
    uint64_t seed;
    double max_runtime;    /* -t: seconds, 0 = unlimited (the session keeps it) */
    bool csv;
} traffic_options;

extern const option_table peak_option_table;
extern const option_table loaded_latency_option_table;
extern const option_table bandwidth_matrix_option_table;
parse_result bandwidth_matrix_options_check(void *opts, char *err, size_t errlen);
void peak_options_defaults(void *opts);
void loaded_latency_options_defaults(void *opts);
parse_result peak_options_check(void *opts, char *err, size_t errlen);
parse_result loaded_latency_options_check(void *opts, char *err, size_t errlen);

/* MLC's default injection delays (busy-loop iterations). */
extern const uint64_t traffic_default_delays[];
extern const int traffic_default_ndelays;

#endif
