/* SPDX-License-Identifier: MIT */
/* /proc/cpuinfo text, parsed without reading it (so every architecture's layout is
 * tested on any machine): the CPU model to report, and the shared caches s390x
 * lists only there. */
#ifndef MEMBENCH_CPUINFO_H
#define MEMBENCH_CPUINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The value of the first "key : value" line (blanks allowed between the key and
 * the colon, nothing else: "cpu" is not "cpu number"); false if none. */
bool cpuinfo_value(const char *info, const char *key, char *out, size_t size);

/* The CPU model in words, from any architecture's cpuinfo: x86 "model name",
 * arm64 implementer and part, POWER "cpu" and machine, s390x machine type, RISC-V
 * "uarch" (else "isa"). "unknown" when the text names none. */
void cpuinfo_model(const char *info, char *buf, size_t size);

/* One "cacheN : level=3 type=Unified scope=Shared size=262144K line_size=256 ..."
 * line (s390x: the kernel keeps its shared caches out of sysfs). */
typedef struct {
    int level;
    bool data; /* Data or Unified: holds benchmark data */
    bool shared;
    uint64_t size; /* bytes */
    int line_size;
} cpuinfo_cache;

/* The cache lines of the text, in order; returns how many (at most max). */
size_t cpuinfo_caches(const char *info, cpuinfo_cache *out, size_t max);

#endif
