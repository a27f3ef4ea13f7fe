/* SPDX-License-Identifier: MIT */
/* A plan's cost in the run's plan section (JSON "plan", --plan's text): per NUMA
 * node its threads, their CPUs, the memory placed there at the peak against the
 * node's free memory, the total against the budget, and the estimated time with
 * its model (plan/sweep_estimate.h). */
#ifndef MEMBENCH_MODES_PLAN_COST_H
#define MEMBENCH_MODES_PLAN_COST_H

#include <stdint.h>

#include "core/params.h"
#include "core/run_info.h"
#include "plan/sweep_estimate.h"
#include "topology/topology.h"

#define PLAN_TIME_BUDGET_S 15.0 /* a default run should end within this (issue 38) */

/* node_bytes: topo->nnodes + 1 entries, the last on no listed node (unbound). */
void plan_cost_describe(param_section *plan, const topology *topo, const run_placement *place,
                        const sweep_estimate *e, const estimate_request *rq, const uint64_t *node_bytes,
                        uint64_t total, uint64_t budget);

#endif
