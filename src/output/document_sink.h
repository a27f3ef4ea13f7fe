/* SPDX-License-Identifier: MIT */
/* A sink that keeps one whole-run document in a file (--json, --openmetrics): the
 * document is written at begin, after every result and at the end, each time
 * whole and through file_target.h, so the file is always a complete document
 * (Ctrl-C leaves what was measured so far). A device or FIFO gets the one document
 * at the end. A write that fails is said once on stderr ("WHO: warning: could not
 * write PATH (why)") and marks the sink failed. */
#ifndef MEMBENCH_DOCUMENT_SINK_H
#define MEMBENCH_DOCUMENT_SINK_H

#include <stdio.h>

#include "output/sink.h"

typedef void (*document_writer)(FILE *f, const run_info *info);

/* flag names the option in messages ("--json"); who is "membench[ MODE]" and must
 * outlive the sink. NULL, with one "WHO: error: ..." line on err, when the path
 * cannot be resolved (checked earlier with file_target_check, but it may have
 * changed since) or memory runs out. */
sink *document_sink_create(const char *flag, const char *path, FILE *err, const char *who, document_writer write);

#endif
