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
#include "plan/dram_size.h"
#include "team/team.h"

/* kind DRAM_FIGURE_BANDWIDTH: read bandwidth with every thread of t (the sweep's DRAM
 * read kernel), the best of a few samples; DRAM_FIGURE_LATENCY: a TLB-local chase
 * (multichase's order) on t's one thread, the median of a few. At footprint bytes
 * (all threads together), then twice it. */
measure_status dram_check_run(team *t, dram_figure kind, uint64_t footprint, result_dram_check *out);

#endif
