/* SPDX-License-Identifier: MIT */
#include "util/format_bytes.h"

#include <stdio.h>

const char *format_bytes(uint64_t b, char *buf, size_t size)
{
    if (b >= (1ULL << 30) && b % (1ULL << 30) == 0)
        snprintf(buf, size, "%llu GiB", (unsigned long long)(b >> 30));
    else if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
        snprintf(buf, size, "%llu MiB", (unsigned long long)(b >> 20));
    else
        snprintf(buf, size, "%llu KiB", (unsigned long long)(b >> 10));
    return buf;
}
