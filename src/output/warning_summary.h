/* SPDX-License-Identifier: MIT */
/* The warnings on the terminal without -v: at the end of the run (complete,
 * stopped or failed), each kind that changes how to read the results once, in the
 * order the kinds first came: a kind said once is its warning itself, "WHO:
 * warning: TEXT"; a kind said more often is one line with its count, "WHO:
 * warning: KEY xN: what they are (each: -v or --json warnings; see DOC)". Kinds
 * that do not change the reading (core/warn_kind.h) are left to -v and JSON. */
#ifndef MEMBENCH_WARNING_SUMMARY_H
#define MEMBENCH_WARNING_SUMMARY_H

#include <stdio.h>

#include "output/sink.h"

/* who: "membench" or "membench MODE", copied. */
sink *warning_summary_sink_create(FILE *f, const char *who);

#endif
