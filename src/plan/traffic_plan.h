/* SPDX-License-Identifier: MIT */
/* Planning for the traffic modes: which CPUs make traffic, how big their buffers
 * are, how many bytes a kernel call moves. Pure functions of the topology and the
 * numbers given, so tests plan against recorded sysfs trees. */
#ifndef MEMBENCH_TRAFFIC_PLAN_H
#define MEMBENCH_TRAFFIC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology/topology.h"
#include "util/cpu_list.h"

#define TRAFFIC_MIN_BUFFER ((uint64_t)64 << 20)
#define TRAFFIC_UNIT_FAST ((size_t)256 << 10) /* bytes per call at delay 0 (16 KiB: -17% on Zen 5) */
#define TRAFFIC_UNIT_PACED ((size_t)256)     /* per call with a delay: 4 lines between two delays */

/* Usable CPUs that make traffic, ascending: those of only (when not NULL), one per
 * physical core with one_per_core (its first usable CPU), never chaser_cpu (-1:
 * none) and, unless share_core, no CPU of the chaser's core. Returns the count. */
size_t traffic_cpus(const topology *t, const cpu_list *only, bool one_per_core, int chaser_cpu, bool share_core,
                    int *out, size_t cap);

/* Each of a traffic thread's buffers: dram_total (the DRAM rule for the traffic
 * CPUs, plan/dram_size.h) shared out over the threads and rounded up to 1 MiB, at
 * least TRAFFIC_MIN_BUFFER, so together they stream from memory and not from cache;
 * then at most half the budget over all threads x buffers (*capped: it was). 0 when
 * even 1 MiB per buffer does not fit. */
uint64_t traffic_buffer_default(uint64_t dram_total, int threads, int buffers, uint64_t budget, bool *capped);

/* A step moves at most this many units through one buffer (W17: 1 copied + 8 read). */
#define TRAFFIC_MAX_UNITS_PER_STEP 16
/* Bytes per stream per kernel call for a delay, small enough that a step of any mix
 * fits buffers of buffer_bytes (0: not known yet, no limit). */
size_t traffic_unit(uint64_t delay, uint64_t buffer_bytes);
/* Random traffic (MLC -U) moves one paced unit per call at every delay: blocks of
 * 256 bytes at random places, not long runs a prefetcher follows. */
#define TRAFFIC_UNIT_RANDOM TRAFFIC_UNIT_PACED

#endif
