/* SPDX-License-Identifier: MIT */
/* The operations a user can ask for with -o, in the order results are printed.
 * read/write/copy/latency are sc-membench's (its default set); the others are ours. */
#ifndef MEMBENCH_OPERATION_H
#define MEMBENCH_OPERATION_H

#include <stdbool.h>

typedef enum {
    OP_READ,
    OP_WRITE,
    OP_COPY,
    OP_LATENCY,
    OP_WRITE_NT, /* write with non-temporal (streaming) stores */
    OP_COPY_NT,  /* copy with non-temporal stores */
    OP_MEMCPY,   /* libc memcpy, for comparison with what applications get */
    OP_COUNT
} mb_op;

#define OP_MASK(op) (1u << (op))
#define OP_MASK_DEFAULT (OP_MASK(OP_READ) | OP_MASK(OP_WRITE) | OP_MASK(OP_COPY) | OP_MASK(OP_LATENCY))

const char *op_name(mb_op op);
/* Accepts exactly the names printed by op_name. */
bool op_parse(const char *name, mb_op *out);
/* Bandwidth operations need one buffer (read, write) or two (copy family). */
int op_buffers(mb_op op);

#endif
