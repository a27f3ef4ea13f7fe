/* SPDX-License-Identifier: MIT */
/* -v on stderr, for every mode: the plan before measuring (host, topology,
 * placement, the mode's plan values and tables), one detail line per result as it
 * comes (kernel, threads, statistics, pages), and how the run ended. -vv adds each
 * result's parameters. Progress lines are off while it runs. */
#ifndef MEMBENCH_VERBOSE_SINK_H
#define MEMBENCH_VERBOSE_SINK_H

#include <stdio.h>

#include "output/sink.h"

void verbose_write_record(FILE *f, const result_record *r, int verbosity);

sink *verbose_sink_create(FILE *f, int verbosity);
/* For a step of another run (session_open_step): its command line, placement and
 * plan; the run's own verbose sink has the topology and writes the records. */
sink *verbose_step_sink_create(FILE *f, int verbosity);

#endif
