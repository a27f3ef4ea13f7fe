/* SPDX-License-Identifier: MIT */
/* --plan's text: what a run would do, read from the run's description (its
 * placement and plan section, filled by the mode's plan) before anything is
 * measured or allocated. Every string from the machine or the command line is
 * neutralised for the terminal. */
#ifndef MEMBENCH_PLAN_TEXT_H
#define MEMBENCH_PLAN_TEXT_H

#include <stdio.h>

#include "core/run_info.h"
#include "topology/topology.h"

/* machine: NULL for this machine, else the recorded tree's directory. */
void plan_text_write(FILE *f, const char *who, const run_info *info, const topology *t, const char *machine);

#endif
