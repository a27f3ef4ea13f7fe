/* SPDX-License-Identifier: MIT */
/* Writing lines back to memory and dropping them from every cache level, where
 * the ISA lets an unprivileged program do it: x86-64 CLFLUSH (SSE2, always
 * there). Elsewhere the caller evicts by reading other data instead. */
#ifndef MEMBENCH_CACHE_FLUSH_H
#define MEMBENCH_CACHE_FLUSH_H

#include <stdbool.h>
#include <stddef.h>

/* Name of the instruction cache_flush uses, or NULL when there is none. */
const char *cache_flush_method(void);
/* Flushes [p, p + bytes) line by line (line: the smallest line size, so no line is
 * skipped) and waits until done. False (nothing done) when there is no method. */
bool cache_flush(void *p, size_t bytes, size_t line);

#endif
