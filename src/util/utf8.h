/* SPDX-License-Identifier: MIT */
/* UTF-8 well-formedness, for writers whose formats must be UTF-8 (JSON,
 * OpenMetrics) while paths and sysfs text may be in any encoding. */
#ifndef MEMBENCH_UTF8_H
#define MEMBENCH_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, at most U+10FFFF), or 0 when p does not start one. p is a
 * NUL-terminated string (a NUL ends any sequence early). */
size_t utf8_sequence(const unsigned char *p);

#endif
