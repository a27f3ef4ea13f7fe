/* SPDX-License-Identifier: MIT */
/* The OpenMetrics text format (and the Prometheus text format 0.0.4 that
 * node_exporter's textfile collector reads: every line written here means the same
 * in both): metric family headers, samples with escaped label values, numbers
 * that read back exactly, and the closing "# EOF". Knows nothing of membench's
 * metrics (openmetrics_sink.c chooses them). */
#ifndef MEMBENCH_OPENMETRICS_H
#define MEMBENCH_OPENMETRICS_H

#include <stdio.h>

typedef struct {
    const char *name;  /* [a-zA-Z_][a-zA-Z0-9_]*, a constant of the caller's */
    const char *value; /* any text: escaped; NULL or "" leaves the label out */
} om_label;

/* "# TYPE", "# UNIT" (unit NULL: none; else the name must end in "_UNIT") and
 * "# HELP" for family name. help is the caller's constant text: no backslash, no
 * newline. */
void om_family(FILE *f, const char *name, const char *type, const char *unit, const char *help);
/* name="value",... for the labels that have a value (no braces). */
void om_write_labels(FILE *f, const om_label *labels, int nlabels);
/* The same text, allocated (free it); NULL when memory runs out. */
char *om_labels_text(const om_label *labels, int nlabels);
/* labels (om_write_labels's text) with one more label, allocated; value is the
 * caller's plain text (digits): not escaped. NULL when memory runs out. */
char *om_labels_plus(const char *labels, const char *name, const char *value);
/* name{labels} value, labels as om_write_labels wrote them (NULL or "": none). */
void om_sample(FILE *f, const char *name, const char *labels, double value);
/* A label value's text between its quotes: backslash, double quote and newline
 * escaped (\\ \" \n); other control characters and bytes that are not UTF-8
 * become U+FFFD, so one odd path on the command line cannot make the whole file
 * unreadable. */
void om_write_label_value(FILE *f, const char *s);
/* The shortest text that reads back as the same double; NaN, +Inf, -Inf. */
void om_write_number(FILE *f, double v);
/* The last line OpenMetrics requires. */
void om_eof(FILE *f);

#endif
