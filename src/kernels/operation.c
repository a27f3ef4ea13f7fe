/* SPDX-License-Identifier: MIT */
#include "kernels/operation.h"

#include <string.h>

static const char *const names[OP_COUNT] = {
    [OP_READ] = "read",         [OP_WRITE] = "write",     [OP_COPY] = "copy",
    [OP_LATENCY] = "latency",   [OP_WRITE_NT] = "write-nt", [OP_COPY_NT] = "copy-nt",
    [OP_MEMCPY] = "memcpy",
};

const char *op_name(mb_op op)
{
    return (unsigned)op < OP_COUNT ? names[op] : "?";
}

bool op_parse(const char *name, mb_op *out)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (mb_op)i;
            return true;
        }
    return false;
}

int op_buffers(mb_op op)
{
    return (op == OP_COPY || op == OP_COPY_NT || op == OP_MEMCPY) ? 2 : 1;
}
