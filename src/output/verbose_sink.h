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

#endif
