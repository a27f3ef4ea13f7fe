/* SPDX-License-Identifier: MIT */
/* The run's headline in text, at its very end: the figures the HTML report's card
 * leads with (core/report_headline.h: DRAM read, write and copy, idle and full
 * random latency, STREAM Triad, each with the footprint and whether the DRAM rule
 * holds), the caches and where their sizes came from, and the host-noise verdict.
 * Read back from the run's own JSON document, so the text and the card can never
 * say different things. A mode's lines are the figures it measured; the sweep's
 * are all of its four, missing ones with why. */
#ifndef MEMBENCH_HEADLINE_SINK_H
#define MEMBENCH_HEADLINE_SINK_H

#include <stdio.h>

#include "output/sink.h"

/* who: "membench", "membench stream". Nothing is written for a run without results. */
sink *headline_sink_create(FILE *f, const char *who);

#endif
