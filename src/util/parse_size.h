/* SPDX-License-Identifier: MIT */
/* Sizes on the command line: a whole number with an optional binary unit,
 * K (KiB), M (MiB) or G (GiB); a bare number is KiB, like -s SIZE_KB. */
#ifndef MEMBENCH_PARSE_SIZE_H
#define MEMBENCH_PARSE_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes in [min, max]; false on junk, overflow or out of range. */
bool parse_size(const char *text, uint64_t min, uint64_t max, uint64_t *bytes);

#endif
