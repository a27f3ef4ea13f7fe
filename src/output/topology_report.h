/* SPDX-License-Identifier: MIT */
/* `membench topology` and the topology part of -v and JSON. */
#ifndef MEMBENCH_TOPOLOGY_REPORT_H
#define MEMBENCH_TOPOLOGY_REPORT_H

#include <stdio.h>

#include "output/json.h"
#include "topology/topology.h"

/* The report without its warnings (topology_report_warnings says those). */
void topology_report_text(FILE *f, const topology *t);

/* The topology's warnings, one "PREFIXwarning: ..." line each. */
void topology_report_warnings(FILE *f, const char *prefix, const topology *t);
/* Writes the topology as an object member named key (or a top-level object if NULL). */
void topology_report_json(json_writer *j, const char *key, const topology *t);

#endif
