/* SPDX-License-Identifier: MIT */
/* What the files implementing kernels share (not for callers of kernels):
 *   - the block barrier: an empty asm with a memory clobber, emitted once per block
 *     of every store loop, so compilers cannot recognise the loop as memset/memcpy
 *     and call libc instead (it costs no instruction);
 *   - descriptor rows, spelled once: each kernels_<arch>.c lists its ISAs' kernels
 *     with these macros, so every kernel of an operation declares the same streams,
 *     byte counting, size contract and verification whatever its ISA; only the ISA
 *     name, the store kind and the function differ. */
#ifndef MEMBENCH_KERNEL_IMPL_H
#define MEMBENCH_KERNEL_IMPL_H

#include "kernels/kernel.h"

#define KERNEL_BLOCK_BARRIER() __asm__ volatile("" ::: "memory")

/* The sweep counts the buffer size once per pass (8 bytes per element), even for
 * copy, as sc-membench and lmbench do. */
#define KROW_SWEEP(name_, op_, isa_, kind_, kind_name_, reads_, writes_, verify_, fn_)                              \
    {.name = name_, .family = KERNEL_SWEEP, .op = op_, .isa = isa_, .stores = kind_, .store = kind_name_,          \
     .reads = reads_, .writes = writes_, .counted_bytes = 8, .granule = KERNEL_BLOCK, .alignment = KERNEL_ALIGN,  \
     .verify = verify_, .fn = fn_}

/* read, write and copy, from functions prefix##read, prefix##write, prefix##copy */
#define KERNEL_ROWS_SWEEP(isa_, prefix)                                                                            \
    KROW_SWEEP("read", OP_READ, isa_, STORE_LOADS_ONLY, "loads", 1, 0, VERIFY_SOURCE_XOR, prefix##read),           \
        KROW_SWEEP("write", OP_WRITE, isa_, STORE_REGULAR, "regular", 0, 1, VERIFY_PATTERN, prefix##write),        \
        KROW_SWEEP("copy", OP_COPY, isa_, STORE_REGULAR, "regular", 1, 1, VERIFY_EQUALS_SOURCE, prefix##copy)

/* write-nt and copy-nt, from prefix##write_nt and prefix##copy_nt */
#define KERNEL_ROWS_SWEEP_NT(isa_, prefix)                                                                         \
    KROW_SWEEP("write-nt", OP_WRITE_NT, isa_, STORE_NONTEMPORAL, "non-temporal", 0, 1, VERIFY_PATTERN,             \
               prefix##write_nt),                                                                                  \
        KROW_SWEEP("copy-nt", OP_COPY_NT, isa_, STORE_NONTEMPORAL, "non-temporal", 1, 1, VERIFY_EQUALS_SOURCE,     \
                   prefix##copy_nt)

#define KERNEL_ROW_MEMCPY(isa_, fn_)                                                                               \
    KROW_SWEEP("memcpy", OP_MEMCPY, isa_, STORE_LIBC, "libc", 1, 1, VERIFY_EQUALS_SOURCE, fn_)

/* STREAM counts every stream read or written: 8 bytes per element each. Threads
 * split the arrays at any element, so any range of doubles is accepted. */
#define KROW_STREAM(name_, op_, isa_, kind_, kind_name_, reads_, fn_)                                              \
    {.name = name_, .family = KERNEL_STREAM, .stream_op = op_, .isa = isa_, .stores = kind_,                       \
     .store = kind_name_, .reads = reads_, .writes = 1, .counted_bytes = 8 * ((reads_) + 1),                       \
     .granule = sizeof(double), .alignment = sizeof(double), .verify = VERIFY_STREAM_REPLAY, .fn = fn_}

/* Copy, Scale, Add, Triad with one kind of stores, from functions
 * prefix##copy##suffix ... prefix##triad##suffix */
#define KERNEL_ROWS_STREAM(isa_, kind_, kind_name_, prefix, suffix)                                                \
    KROW_STREAM("copy", STREAM_COPY, isa_, kind_, kind_name_, 1, prefix##copy##suffix),                             \
        KROW_STREAM("scale", STREAM_SCALE, isa_, kind_, kind_name_, 1, prefix##scale##suffix),                      \
        KROW_STREAM("add", STREAM_ADD, isa_, kind_, kind_name_, 2, prefix##add##suffix),                            \
        KROW_STREAM("triad", STREAM_TRIAD, isa_, kind_, kind_name_, 2, prefix##triad##suffix)

#define KERNEL_ROWS_STREAM_REGULAR(isa_, prefix) KERNEL_ROWS_STREAM(isa_, STORE_REGULAR, "regular", prefix, )
#define KERNEL_ROWS_STREAM_NT(isa_, prefix) KERNEL_ROWS_STREAM(isa_, STORE_NONTEMPORAL, "non-temporal", prefix, _nt)

#endif
