/* SPDX-License-Identifier: MIT */
/* /proc/self/smaps, parsed once into an address-ordered index of mappings and
 * their huge-page bytes, so the coverage of every buffer of a run costs one read
 * and one binary search each (smaps grows with the number of threads: scanning
 * it per buffer made 4096 threads take minutes). */
#ifndef MEMBENCH_SMAPS_H
#define MEMBENCH_SMAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uintptr_t start, end; /* [start, end) */
    double huge_bytes;    /* AnonHugePages + Private_Hugetlb + Shared_Hugetlb */
} smaps_range;

typedef struct {
    smaps_range *ranges; /* ascending start */
    size_t n;
} smaps_index;

/* Parses len bytes of smaps text (no terminator needed). Lines that are neither a
 * mapping header nor a "Key: N kB" field are skipped. False only without memory. */
bool smaps_index_parse(const char *text, size_t len, smaps_index *ix);
/* Reads and parses /proc/self/smaps; false when it cannot be read. */
bool smaps_index_read_self(smaps_index *ix);
/* Share of [addr, addr+len) in huge pages, each mapping's huge bytes scaled to its
 * overlap; -1 when no mapping overlaps the range. */
double smaps_index_huge_fraction(const smaps_index *ix, uintptr_t addr, size_t len);
void smaps_index_free(smaps_index *ix);

/* The same for one range of one text (tests, fuzzing). */
double smaps_huge_fraction(const char *smaps, uintptr_t addr, size_t len);

#endif
