/* Messages that echo text from a file (a JSON document's host name, tool,
 * option) must stay one line: the CLI promises a one-line error. */
#ifndef MEMBENCH_ONE_LINE_H
#define MEMBENCH_ONE_LINE_H

/* Replaces every ASCII control character of s (newline, tab, DEL...) with
 * '?', in place; returns s. */
char *one_line(char *s);

#endif
