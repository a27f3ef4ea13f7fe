/* SPDX-License-Identifier: MIT */
/* Text from a run document inside HTML or SVG: a host name, a warning or an
 * option value is data, never markup, so every such string goes through here. */
#ifndef MEMBENCH_MARKUP_H
#define MEMBENCH_MARKUP_H

#include <stdio.h>

/* Writes s with & < > " ' as character references, and control characters
 * other than tab and newline (which XML does not allow) as '?'. NULL writes "". */
void markup_text(FILE *f, const char *s);
/* A number as an attribute value that reads back exactly (%.17g). */
void markup_number(FILE *f, double v);

#endif
