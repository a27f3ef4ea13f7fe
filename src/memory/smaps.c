/* SPDX-License-Identifier: MIT */
#include "memory/smaps.h"

#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"
#include "util/parse_number.h"

/* A generous ceiling: 64 MiB of text is some 50 000 mappings. */
#define SMAPS_MAX_BYTES ((size_t)64 << 20)

/* Hex number at *p (before end); false when there is none or it overflows. */
static bool parse_hex(const char **p, const char *end, uintptr_t *out)
{
    const char *q = *p;
    uintptr_t v = 0;
    while (q < end && hex_digit(*q) >= 0) {
        if (v > (UINTPTR_MAX >> 4))
            return false;
        v = (v << 4) | (uintptr_t)hex_digit(*q++);
    }
    if (q == *p)
        return false;
    *p = q;
    *out = v;
    return true;
}

/* "start-end perms ..." */
static bool parse_header(const char *line, const char *end, uintptr_t *start, uintptr_t *stop)
{
    const char *p = line;
    return parse_hex(&p, end, start) && p < end && *p++ == '-' && parse_hex(&p, end, stop) && p < end &&
           *p == ' ' && *start < *stop;
}

/* "AnonHugePages:      2048 kB" and the two hugetlb fields; bytes or -1. */
static double huge_field_bytes(const char *line, const char *end)
{
    static const char *const keys[] = {"AnonHugePages:", "Private_Hugetlb:", "Shared_Hugetlb:"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t klen = strlen(keys[k]);
        if ((size_t)(end - line) <= klen || memcmp(line, keys[k], klen) != 0)
            continue;
        const char *p = line + klen;
        while (p < end && *p == ' ')
            p++;
        double kb = 0;
        const char *digits = p;
        while (p < end && *p >= '0' && *p <= '9')
            kb = kb * 10 + (*p++ - '0');
        return p > digits ? kb * 1024.0 : -1;
    }
    return -1;
}

static int by_start(const void *a, const void *b)
{
    const smaps_range *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

bool smaps_index_parse(const char *text, size_t len, smaps_index *ix)
{
    memset(ix, 0, sizeof *ix);
    size_t cap = 0;
    bool sorted = true;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        uintptr_t a, z;
        if (parse_header(p, eol, &a, &z)) {
            if (ix->n == cap) {
                size_t bigger = cap ? cap * 2 : 256;
                smaps_range *r = realloc(ix->ranges, bigger * sizeof *r);
                if (!r) {
                    smaps_index_free(ix);
                    return false;
                }
                ix->ranges = r;
                cap = bigger;
            }
            sorted = sorted && (ix->n == 0 || ix->ranges[ix->n - 1].start <= a);
            ix->ranges[ix->n++] = (smaps_range){a, z, 0};
        } else if (ix->n) {
            double b = huge_field_bytes(p, eol);
            if (b > 0)
                ix->ranges[ix->n - 1].huge_bytes += b;
        }
        p = nl ? nl + 1 : end;
    }
    if (!sorted) /* the kernel writes them in order; only odd text needs this */
        qsort(ix->ranges, ix->n, sizeof *ix->ranges, by_start);
    return true;
}

bool smaps_index_read_self(smaps_index *ix)
{
    size_t len;
    char *text = platform_read_whole("/proc/self/smaps", SMAPS_MAX_BYTES, &len);
    memset(ix, 0, sizeof *ix);
    if (!text)
        return false;
    bool ok = smaps_index_parse(text, len, ix);
    free(text);
    return ok;
}

double smaps_index_huge_fraction(const smaps_index *ix, uintptr_t addr, size_t len)
{
    if (len == 0)
        return -1;
    uintptr_t end = addr + len < addr ? UINTPTR_MAX : addr + len;
    /* the first mapping that ends after addr (mappings do not overlap) */
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->ranges[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    double huge = 0;
    bool any = false;
    for (size_t i = lo; i < ix->n && ix->ranges[i].start < end; i++) {
        const smaps_range *r = &ix->ranges[i];
        if (r->end <= addr)
            continue;
        uintptr_t a = r->start > addr ? r->start : addr, z = r->end < end ? r->end : end;
        huge += r->huge_bytes * ((double)(z - a) / (double)(r->end - r->start));
        any = true;
    }
    if (!any)
        return -1;
    double f = huge / (double)len;
    return f > 1 ? 1 : f;
}

void smaps_index_free(smaps_index *ix)
{
    free(ix->ranges);
    memset(ix, 0, sizeof *ix);
}

double smaps_huge_fraction(const char *smaps, uintptr_t addr, size_t len)
{
    smaps_index ix;
    if (!smaps_index_parse(smaps, strlen(smaps), &ix))
        return -1;
    double f = smaps_index_huge_fraction(&ix, addr, len);
    smaps_index_free(&ix);
    return f;
}
