/* Everything about a run that is not a result: who, where, how, and how it ended. */
#ifndef MEMBENCH_RUN_INFO_H
#define MEMBENCH_RUN_INFO_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/sweep_options.h"
#include "plan/placement.h"
#include "plan/sweep_plan.h"
#include "topology/topology.h"

#define RUN_MAX_WARNINGS 64

typedef struct {
    int argc;
    char **argv;
    char started_at[32]; /* ISO 8601, UTC */
    char hostname[256];
    char cpu_model[256];
    char kernel[256];
    const char *isa_list;
    const topology *topo;
    const sweep_options *opts;
    const placement *place;
    const size_plan *plan;
    char *warnings[RUN_MAX_WARNINGS];
    size_t nwarnings;
    double elapsed_s;
    bool complete;
    const char *stopped_by; /* NULL, "time limit", "SIGINT", "SIGTERM" */
} run_info;

/* Fills the command line (whole argv, program name included), start time, host
 * description and topology; the rest is the mode's. */
void run_info_start(run_info *info, int argc, char **argv, const topology *t);

#endif
