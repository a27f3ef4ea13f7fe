/* SPDX-License-Identifier: MIT */
/* Streaming kernels are data. Every one of them, the sweep's read/write/copy/NT/
 * memcpy and STREAM's Copy/Scale/Add/Triad alike, is one descriptor row saying what
 * it does (family, operation, ISA, kind of stores, streams read and written, bytes
 * counted, size and alignment contract, how its output is verified) and one
 * function with one signature. The harnesses (measure/) run any of them from the
 * row alone, and the one chooser below picks per operation, ISA and size, so adding
 * a kernel or an ISA touches descriptor rows (and, for an ISA, its row in isa.c),
 * never a harness or a list of names.
 *
 * Contract for every kernel function, fn(args):
 *   - args->bytes is per stream: a multiple of the row's granule, every pointer
 *     aligned to the row's alignment (sweep: KERNEL_BLOCK and KERNEL_ALIGN; STREAM:
 *     any element range of 8-byte doubles);
 *   - sweep read : returns the XOR of all 64-bit words of in[0] (out unused);
 *     sweep write: sets every 64-bit word of out to pattern, returns 0;
 *     sweep copy : copies in[0] to out, returns 0;
 *     STREAM     : out[i] = f(in[0][i], in[1][i], scalar) (see stream_kernels.h),
 *                  returns 0;
 *   - the compiler never turns a loop into a libc call (one empty asm with a memory
 *     clobber per block), and non-temporal kernels end with the store fence.
 * The XOR result is the same for every ISA, which is what the tests check. */
#ifndef MEMBENCH_KERNEL_H
#define MEMBENCH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/isa.h"
#include "kernels/operation.h"

#define KERNEL_BLOCK 256 /* sweep kernels: bytes per loop block (size granule) */
#define KERNEL_ALIGN 64  /* sweep kernels: buffer alignment */

typedef enum {
    KERNEL_SWEEP,  /* the sweep's bandwidth operations: read, write, copy, NT, memcpy */
    KERNEL_STREAM, /* STREAM's Copy, Scale, Add, Triad over double arrays */
    KERNEL_FAMILIES
} kernel_family;

typedef enum { STREAM_COPY, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD, STREAM_NFUNCS } stream_func;

typedef enum {
    STORE_LOADS_ONLY,  /* "loads": reads only */
    STORE_REGULAR,     /* "regular" */
    STORE_NONTEMPORAL, /* "non-temporal": streaming stores that bypass the caches */
    STORE_LIBC,        /* "libc": whatever memcpy does */
    STORE_ANY          /* for kernel_choose only: any kind (sweep ops imply theirs) */
} kernel_store;

typedef enum {
    VERIFY_SOURCE_XOR,     /* the returned XOR equals the source's */
    VERIFY_PATTERN,        /* the pattern is in every word of the destination */
    VERIFY_EQUALS_SOURCE,  /* the destination equals the source */
    VERIFY_STREAM_REPLAY   /* STREAM's check: every array equals a scalar replay */
} kernel_verify;

typedef struct {
    void *out;         /* the stream written; NULL for loads-only kernels */
    const void *in[2]; /* the streams read, in the order the row's operation names them */
    size_t bytes;      /* per stream */
    uint64_t pattern;  /* the word write kernels store */
    double scalar;     /* STREAM's s (Scale, Triad) */
} kernel_args;

typedef uint64_t (*kernel_fn)(const kernel_args *args);

typedef struct {
    const char *name; /* "read", "write", "copy", "write-nt", "copy-nt", "memcpy";
                         STREAM: "copy", "scale", "add", "triad" */
    kernel_family family;
    union {
        mb_op op;              /* family KERNEL_SWEEP */
        stream_func stream_op; /* family KERNEL_STREAM */
    };
    const char *isa; /* a row of the ISA table (kernels/isa.h) */
    kernel_store stores;
    const char *store;               /* kernel_store_name(stores), as reports print it */
    unsigned char reads, writes;     /* streams read and written */
    unsigned char counted_bytes;     /* bytes counted per 8-byte element of a stream */
    unsigned short granule;          /* bytes per stream: a multiple of this */
    unsigned short alignment;        /* every stream aligned to this many bytes */
    kernel_verify verify;
    kernel_fn fn;
} kernel;

/* All kernels built into this binary, both families (the CPU may not run them all). */
const kernel *kernel_table(size_t *count);

/* The one chooser. With isa given: that ISA's kernel at every size, or NULL when it
 * does not exist or this CPU cannot run it. Otherwise the kernel of the most
 * preferred ISA this CPU runs, except that beyond the thread's share of the last-
 * level cache an ISA's beyond_llc replacement is used when it has the kernel
 * (AVX2 rather than AVX-512: faster from DRAM, see BENCHMARKS.md). op is an mb_op
 * or a stream_func according to family. NULL when none exists (e.g. non-temporal
 * stores in portable C). */
const kernel *kernel_choose(kernel_family family, int op, kernel_store stores, const char *isa,
                            bool beyond_llc_share);

/* Bytes a pass over streams of bytes_per_stream bytes counts (STREAM's rule, or
 * the buffer size once for the sweep as sc-membench does). */
uint64_t kernel_bytes_counted(const kernel *k, uint64_t bytes_per_stream);

/* One pass of k over args, in slices of KERNEL_SLICE_BYTES per stream with the
 * stop flag tested between slices, so a stop lands within milliseconds even when
 * one pass over a buffer of gigabytes takes a second. Returns what the kernel
 * returns (the XOR of the slices' results: the same as one call for loads).
 * A pass cut short leaves the flag raised; the caller discards it. */
#define KERNEL_SLICE_BYTES ((size_t)64 << 20)
uint64_t kernel_pass(const kernel *k, const kernel_args *args);

const char *kernel_family_name(kernel_family f); /* "sweep", "stream" */
const char *kernel_store_name(kernel_store s);   /* "loads", "regular", "non-temporal", "libc" */
const char *kernel_verify_name(kernel_verify v); /* "source-xor", "pattern", ... */

#endif
