/* SPDX-License-Identifier: MIT */
/* The plateau check of a DRAM figure where no source describes the last level (the
 * DRAM rule's 1 GiB floor, plan/dram_size.h): the same kind of kernel at the
 * footprint and at twice it. Twice the footprint can only be further from the
 * caches; a figure better at the footprint than there was still a cache's. */
#ifndef MEMBENCH_DRAM_CHECK_H
#define MEMBENCH_DRAM_CHECK_H

#include <stdint.h>

#include "core/result.h"
#include "measure/bandwidth.h"
#include "team/team.h"

/* Read bandwidth with every thread of t (the sweep's DRAM read kernel), footprint
 * bytes over all threads together, then twice it; best of a few samples each. */
measure_status dram_check_bandwidth(team *t, uint64_t footprint, result_dram_check *out);

/* A TLB-local chase (multichase's order) on t's one thread over footprint bytes,
 * then twice it; the median of a few samples each. */
measure_status dram_check_latency(team *t, uint64_t footprint, result_dram_check *out);

#endif
