/* SPDX-License-Identifier: MIT */
/* Options of `membench mlc`: Intel MLC's command line (its tests --idle_latency ...
 * --c2c_latency and its one-letter options), so scripts written for MLC run
 * unchanged. Parsing and MLC's rules between options live here; what each option
 * means for each test is the mode's translation (modes/mlc_mode.c). MLC's -h and -H
 * are its 1 GiB pages and clean-line c2c, so help is --help only. */
#ifndef MEMBENCH_MLC_OPTIONS_H
#define MEMBENCH_MLC_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "cli/traffic_options.h"
#include "kernels/traffic_mix.h"

/* MLC's tests; MLC_DEFAULT runs five of them in MLC's order. */
typedef enum {
    MLC_DEFAULT,
    MLC_IDLE_LATENCY,
    MLC_LATENCY_MATRIX,
    MLC_PEAK,
    MLC_BANDWIDTH_MATRIX,
    MLC_LOADED_LATENCY,
    MLC_C2C,
    MLC_MAX_BANDWIDTH,
    MLC_NTESTS
} mlc_test;

typedef struct {
    common_options common;   /* --help, -V, -v, --json; -k/-m fill common.cpus */
    mlc_test test;
    const char *test_flag;   /* the test's option, for messages */
    bool every_cpu;          /* -a */
    uint64_t buffer_bytes;   /* -b (bare number: KiB) */
    bool buffer_given;
    double seconds;          /* -t: seconds per measurement */
    bool seconds_given;
    int latency_cpu;         /* -c */
    bool latency_cpu_given;
    int touch_cpu;           /* -i: memory on this CPU's node */
    bool touch_cpu_given;
    int mem_node;            /* -j */
    bool mem_node_given;
    char cpus_flag;          /* 'k' or 'm': which gave common.cpus */
    bool one_per_core;       /* -X */
    bool traffic_only;       /* -T */
    bool per_thread;         /* -B */
    uint64_t delays[TRAFFIC_MAX_DELAYS]; /* -d (one) or -g FILE */
    int ndelays;
    char delays_flag;        /* 'd' or 'g' */
    const traffic_mix *mix;  /* -R or -W n; NULL: each test's default */
    char mix_flag[8];        /* "-R", "-W5" */
    bool random_traffic;     /* -U */
    uint64_t stride;         /* -l: bytes between chased lines */
    bool stride_given;
    bool random_chase;       /* -r: what membench always does */
    uint64_t chase_range;    /* -D: bytes chased in random order before the next range */
    bool chase_range_given;
    bool prefetchers_alone;  /* -e: what membench always does */
    const char *pages;       /* -L "2m", -h "1g"; NULL: default */
    const char *isa;         /* -Y "avx2", -Z "avx512"; NULL: the best */
    int writer;              /* -w */
    bool writer_given;
    bool clean;              /* -H */
    uint64_t window;         /* -C */
    bool window_given;
} mlc_options;

extern const option_table mlc_option_table;
void mlc_options_defaults(void *opts);
parse_result mlc_options_check(void *opts, char *err, size_t errlen);
/* "--loaded_latency" for MLC_LOADED_LATENCY. */
const char *mlc_test_flag(mlc_test t);

#endif
