/* SPDX-License-Identifier: MIT */
/* CPUID as data: the raw registers of the leaves membench decodes, parsed from the
 * text of `cpuid -r` (Debian's cpuid package) or read from this CPU. Decoding works
 * on a dump, so every vendor's layout is tested on any machine, and a user's dump
 * reproduces what membench saw on theirs. */
#ifndef MEMBENCH_CPUID_DUMP_H
#define MEMBENCH_CPUID_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint32_t leaf, subleaf, eax, ebx, ecx, edx;
} cpuid_entry;

typedef struct {
    cpuid_entry *entries;
    size_t n;
} cpuid_dump;

#define CPUID_DUMP_MAX_ENTRIES 4096

/* Parses `cpuid -r` text: lines "   0x00000004 0x01: eax=0x... ebx=0x... ecx=0x...
 * edx=0x..." under "CPU 0:" (or "CPU:"); only the first CPU's block is kept (the
 * rest is still checked). Lines without any "CPU n:" header are accepted too. Blank
 * lines and '#' comments are ignored. False, with a one-line reason naming the line
 * number and its text in err, on any other line, on a leaf/subleaf given twice, on
 * more than CPUID_DUMP_MAX_ENTRIES entries, or when no entry was found; *out is then
 * empty. */
bool cpuid_dump_parse(const char *text, cpuid_dump *out, char *err, size_t errlen);

/* This CPU's leaves 0, 1, 4 (subleaves up to type 0, at most 16), 0x40000000 and
 * up to 16 more hypervisor leaves (only when CPUID.1:ECX[31] says there is a
 * hypervisor), 0x80000000, 0x80000001, 0x80000005, 0x80000006, 0x80000008 and
 * 0x8000001D (subleaves up to type 0, at most 16), each only when the maximum leaf
 * allows. x86 and x86-64 only: false elsewhere (and *out empty). */
bool cpuid_dump_live(cpuid_dump *out);

/* The registers of leaf/subleaf as eax, ebx, ecx, edx; false when the dump lacks it. */
bool cpuid_dump_get(const cpuid_dump *d, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

void cpuid_dump_free(cpuid_dump *d);

/* Writes d as `cpuid -r` does for one CPU ("CPU 0:" and one line per entry), which
 * cpuid_dump_parse reads back: a dump for a bug report. */
void cpuid_dump_write(FILE *f, const cpuid_dump *d);

#endif
