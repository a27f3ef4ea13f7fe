/* SPDX-License-Identifier: MIT */
/* Strict number parsing for command-line values.
 * atoi/atof accept "12abc", "abc" (as 0) and silently overflow; every parser here
 * rejects trailing junk, empty strings, signs where they make no sense, and values
 * outside [min, max]. They never print: callers name the flag in their message. */
#ifndef MEMBENCH_PARSE_NUMBER_H
#define MEMBENCH_PARSE_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

/* Unsigned decimal integer in [min, max]. Leading/trailing blanks are rejected too. */
bool parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* Finite decimal number (e.g. "1.5", "2e1") in [min, max]. No "nan"/"inf". */
bool parse_double(const char *text, double min, double max, double *out);

/* The value of one hexadecimal digit (either case), -1 for any other character
 * (kernel and tool texts: /proc/self/smaps addresses, `cpuid -r` registers). */
int hex_digit(char c);

#endif
