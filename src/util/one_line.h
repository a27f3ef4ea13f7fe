/* SPDX-License-Identifier: MIT */
/* Text from a file or from the machine (a JSON document's host name or option, a
 * CPU model from /proc/cpuinfo or CPUID, sysfs text, a path) printed on a terminal
 * must show as text: a terminal acts on control characters (ESC sequences set the
 * window title or clear the screen, BEL rings, CR and a newline forge lines) and
 * bidi controls reorder what it shows (U+202E turns "gpj.exe" round). Each of
 * these is replaced with one '?':
 *   - C0 controls U+0000-U+001F (newline and tab too) and DEL U+007F;
 *   - C1 controls U+0080-U+009F (as UTF-8: C2 80 .. C2 9F);
 *   - bidi controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069;
 *   - the line and paragraph separators U+2028, U+2029 (some terminals and
 *     viewers break the line there: a forged line, as with a newline);
 *   - every byte that is not part of a well-formed UTF-8 character (a lone
 *     0x9B is CSI to a terminal in an 8-bit mode).
 * Everything else, UTF-8 text included ("\xc2\xb1", accents), stays. JSON output
 * keeps the exact strings (its escaping is enough); this is for text. */
#ifndef MEMBENCH_ONE_LINE_H
#define MEMBENCH_ONE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* In place (the text only shrinks); returns s. */
char *one_line(char *s);
/* The same but newlines stay: a whole table or report built in memory. */
char *safe_lines(char *s);
/* src neutralised into dst[0..len) (len > 0), cut at a whole character; returns dst. */
char *one_line_copy(char *dst, size_t len, const char *src);
/* Writes s to f neutralised, however long. */
void one_line_put(FILE *f, const char *s);
/* True when s holds nothing one_line would replace (newlines allowed when
 * newlines_ok): what tests and the fuzz targets check printed text with. */
bool one_line_is_safe(const char *s, bool newlines_ok);

#endif
