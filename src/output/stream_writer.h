/* STREAM's output: its table (Function, Best Rate MB/s, Avg/Min/Max time) and its
 * validation line, once per store kind, then the store kinds side by side with the
 * share of theoretical peak when it is known. */
#ifndef MEMBENCH_STREAM_WRITER_H
#define MEMBENCH_STREAM_WRITER_H

#include <stdio.h>

#include "measure/stream_run.h"

#define STREAM_RULE "-------------------------------------------------------------\n"

void stream_write_table(FILE *f, const stream_result *r);
/* regular or nt may be NULL; peak_gbs 0 = unknown (no percentage column). */
void stream_write_side_by_side(FILE *f, const stream_result *regular, const stream_result *nt, double peak_gbs);

#endif
