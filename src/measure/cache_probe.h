/* SPDX-License-Identifier: MIT */
/* The cache probe (measure/llc_probe.h) as a step: what the last level one thread
 * sees, measured on this machine when asked (`topology --cache-probe`, a mode's
 * `--cache-probe always`, latency's curve analysis). A diagnostic only: its findings
 * become the topology's measured view, which nothing sizes from
 * (plan/dram_size.h). */
#ifndef MEMBENCH_CACHE_PROBE_H
#define MEMBENCH_CACHE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "topology/topology.h"

/* Runs the probe on this machine for at most budget_s seconds (and not past a stop
 * or deadline); the findings go into t (topology_set_measured), anything that kept
 * it from running into t's warnings. budget_of: memory/memory_budget.h's. */
void cache_probe_into(topology *t, double budget_s, bool (*budget_of)(uint64_t *, char *, size_t));

/* The largest size to probe (a ladder to 128 MiB runs first, the whole one only
 * when that finds no DRAM plateau): 1 GiB when the last level is unknown or known only per
 * package, else 4x it (at least 64 MiB, at most 2 GiB); never more than a third of
 * the memory budget (the probe's chains take about 2.5x it). A power of two. */
uint64_t cache_probe_max_bytes(const topology *t, uint64_t budget);

#endif
