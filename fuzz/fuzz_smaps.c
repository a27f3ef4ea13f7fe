/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the /proc/self/smaps reader behind -H and --pages'
 * huge-page coverage (memory/smaps.h: the index parsed once per point).
 *
 * Input: a first line "ADDR LEN" (hexadecimal: the buffer asked about; LEN > 0
 * and the range inside the address space), then the smaps text.
 * Promises checked: the fraction is -1 (no mapping overlaps) or within [0, 1],
 * never NaN; nothing is read past the text's end (it sits in a buffer of exactly
 * its size, so AddressSanitizer sees an over-read); and a mapping of exactly the
 * buffer, wholly in huge pages, put before the text reads as 1 whatever follows.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "memory/smaps.h"

/* The one call into the code under test: text[0..text_len) is the smaps text
 * (parsed by length, as /proc/self/smaps is read), then the index is asked. */
static double huge_fraction(const char *text, size_t text_len, uintptr_t addr, size_t len)
{
    smaps_index ix;
    if (!smaps_index_parse(text, text_len, &ix))
        return -1;
    for (size_t i = 1; i < ix.n; i++) /* the index is in address order */
        if (ix.ranges[i - 1].start > ix.ranges[i].start)
            abort();
    double f = smaps_index_huge_fraction(&ix, addr, len);
    smaps_index_free(&ix);
    return f;
}

static bool parse_header(const char *line, size_t n, uintptr_t *addr, size_t *len)
{
    char buf[64];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, line, n);
    buf[n] = '\0';
    char *end;
    unsigned long long a = strtoull(buf, &end, 16);
    if (end == buf || *end != ' ')
        return false;
    char *l = end + 1;
    unsigned long long z = strtoull(l, &end, 16);
    uintptr_t start = (uintptr_t)a;
    size_t bytes = (size_t)z;
    if (end == l || *end != '\0' || start != a || bytes != z || bytes == 0 || start + bytes < start)
        return false;
    *addr = start;
    *len = bytes;
    return true;
}

/* text[0..n) copied into a buffer of exactly n + 1 bytes, NUL-terminated. */
static char *exact_copy(const char *prefix, size_t plen, const uint8_t *text, size_t n)
{
    char *s = malloc(plen + n + 1);
    if (!s)
        return NULL;
    memcpy(s, prefix, plen);
    memcpy(s + plen, text, n);
    s[plen + n] = '\0';
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    uintptr_t addr;
    size_t len;
    if (!nl || !parse_header((const char *)data, (size_t)(nl - data), &addr, &len))
        return 0;
    const uint8_t *text = nl + 1;
    size_t n = size - (size_t)(text - data);

    char *s = exact_copy("", 0, text, n);
    if (!s)
        return 0;
    double f = huge_fraction(s, n, addr, len);
    FUZZ_CHECK(f == -1 || (f >= 0 && f <= 1), "fraction %g for [%#llx, +%#zx)", f, (unsigned long long)addr, len);
    free(s);

    /* The buffer's own mapping first, every byte of it in huge pages: 1. */
    if (len % 1024 == 0) {
        char head[160];
        int hn = snprintf(head, sizeof head, "%llx-%llx rw-p 00000000 00:00 0 \nAnonHugePages: %llu kB\n",
                          (unsigned long long)addr, (unsigned long long)(addr + len),
                          (unsigned long long)(len / 1024));
        s = exact_copy(head, (size_t)hn, text, n);
        if (!s)
            return 0;
        f = huge_fraction(s, (size_t)hn + n, addr, len);
        FUZZ_CHECK(f == 1, "a mapping of [%#llx, +%#zx) wholly in huge pages reads as %g", (unsigned long long)addr,
                   len, f);
        free(s);
    }
    return 0;
}
