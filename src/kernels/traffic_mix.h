/* SPDX-License-Identifier: MIT */
/* Read:write traffic mixes, MLC's -R and -W2..-W17, as one table of data. A mix is
 * a step program built from the ordinary streaming kernels (kernel.h): per step,
 * `copies` units copied from the read buffer to the write buffer, `reads` more
 * units only read, `writes` more units only written, and optionally one triad unit
 * (two read buffers, one written: STREAM's a = b + s*c). A unit is the same number
 * of bytes for every call of a step. Building mixes from the tuned kernels keeps one
 * set of ISA bodies; the calls are long enough (256 bytes and up) that the
 * interleaving costs nothing measurable from DRAM.
 *
 * Two byte counts per step:
 *   application bytes: what the program loads and stores (what MLC prints);
 *   DRAM bytes: the same plus one write-allocate read (RFO) for every line written
 *     with regular stores: a model of what reaches memory on write-allocate caches
 *     (x86, most Arm cores outside their write-streaming mode), not a measurement. */
#ifndef MEMBENCH_TRAFFIC_MIX_H
#define MEMBENCH_TRAFFIC_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernel.h"

typedef struct {
    const char *name;        /* "R", "W2" ... "W17": MLC's -R and -W n */
    const char *ratio;       /* reads:writes of the application, "3:1" */
    const char *label;       /* MLC's peak-bandwidth line label, "" when it has none */
    const char *description; /* "3 reads : 1 regular write" */
    kernel_store stores;     /* STORE_LOADS_ONLY, STORE_REGULAR or STORE_NONTEMPORAL */
    unsigned char copies, reads, writes;
    bool triad;
} traffic_mix;

/* Every mix, R first, then W2..W17 in order. */
const traffic_mix *traffic_mix_table(size_t *count);
/* "R", "W5", "w5" or a bare "5" (MLC's -W 5); NULL when there is no such mix. */
const traffic_mix *traffic_mix_find(const char *name);
/* The names accepted, for help and errors: "R, W2, ..., W17". */
const char *traffic_mix_names(void);

/* Units of one step: read and written by the application, and write-allocate reads. */
unsigned traffic_mix_read_units(const traffic_mix *m);
unsigned traffic_mix_write_units(const traffic_mix *m);
unsigned traffic_mix_rfo_units(const traffic_mix *m);
/* Buffers a thread needs: 1 (R, W6 uses only its write buffer) to 3 (triads). */
bool traffic_mix_uses_read(const traffic_mix *m);
bool traffic_mix_uses_second_read(const traffic_mix *m);
bool traffic_mix_uses_write(const traffic_mix *m);

/* DRAM bytes for app bytes of this mix: app * (reads + writes + rfo) / (reads + writes). */
double traffic_mix_dram_bytes(const traffic_mix *m, double app_bytes);

/* A mix bound to the kernels of this CPU and a unit size. */
typedef struct {
    const traffic_mix *mix;
    const kernel *copy, *read, *write, *triad; /* NULL where the mix calls none */
    size_t unit;                               /* bytes per stream per call: multiple of 256 */
    bool random; /* each call at a random unit-aligned place (MLC -U), not the next one */
} traffic_program;

/* Chooses the kernels (isa: NULL for the best, else --kernel's). False, with why
 * ("W6 needs non-temporal stores; the neon kernels have none"), when this CPU has
 * no kernel of a kind the mix needs. */
bool traffic_program_make(traffic_program *p, const traffic_mix *m, const char *isa, size_t unit, char *why,
                          size_t whylen);

/* One thread's buffers and where each stream is. */
typedef struct {
    char *read, *read2, *write; /* NULL when the mix does not use it */
    size_t bytes;               /* of each buffer: at least one step's worth */
    size_t rpos, r2pos, wpos;
    uint64_t xor_sink;          /* what the reads returned: kept so they cannot go */
    uint64_t rng;               /* random traffic: this thread's generator (splitmix64) */
} traffic_cursor;

/* Runs one step on c; returns the application bytes it moved. */
uint64_t traffic_step(const traffic_program *p, traffic_cursor *c);
/* Application bytes of one step. */
uint64_t traffic_step_bytes(const traffic_program *p);

#endif
