/* SPDX-License-Identifier: MIT */
/* Text and CSV of the traffic modes: peak-bandwidth (one row per traffic type:
 * application and DRAM MB/s) and loaded-latency (MLC's Inject Delay | Latency |
 * Bandwidth rows, with the delay in ns too, then the idle latency, the peak and
 * the knee from the analysis). */
#ifndef MEMBENCH_TRAFFIC_SINK_H
#define MEMBENCH_TRAFFIC_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

typedef enum { TRAFFIC_SINK_PEAK, TRAFFIC_SINK_LOADED } traffic_sink_kind;

#define PEAK_CSV_HEADER "traffic,ratio,stores,delay,delay_ns,threads,mb_s,dram_mb_s,best_window_mb_s,cv,samples"
#define LOADED_CSV_HEADER                                                                                           \
    "traffic,delay,delay_ns,latency_ns,latency_stddev_ns,samples,bandwidth_mb_s,dram_bandwidth_mb_s,traffic_threads"

sink *traffic_sink_create(FILE *f, traffic_sink_kind kind, bool csv, bool per_thread);

#endif
