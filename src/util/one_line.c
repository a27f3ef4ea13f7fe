/* SPDX-License-Identifier: MIT */
#include "util/one_line.h"

#include <string.h>

#include "util/utf8.h"

static unsigned long code_point(const unsigned char *p, size_t n)
{
    static const unsigned char lead_mask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    unsigned long c = p[0] & lead_mask[n];
    for (size_t i = 1; i < n; i++)
        c = c << 6 | (p[i] & 0x3F);
    return c;
}

static bool is_control(unsigned long c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

/* The length of the unit at p (a character, or one stray byte) and whether it is
 * shown as '?'. */
static size_t next_unit(const unsigned char *p, bool newlines_ok, bool *replace)
{
    size_t n = utf8_sequence(p);
    if (n == 0) {
        *replace = true;
        return 1;
    }
    unsigned long c = code_point(p, n);
    *replace = is_control(c) && !(newlines_ok && c == '\n');
    return n;
}

static char *neutralise(char *s, bool newlines_ok)
{
    unsigned char *r = (unsigned char *)s, *w = r;
    while (*r) {
        bool replace;
        size_t n = next_unit(r, newlines_ok, &replace);
        if (replace)
            *w++ = '?';
        else
            memmove(w, r, n), w += n;
        r += n;
    }
    *w = '\0';
    return s;
}

char *one_line(char *s)
{
    return neutralise(s, false);
}

char *safe_lines(char *s)
{
    return neutralise(s, true);
}

char *one_line_copy(char *dst, size_t len, const char *src)
{
    const unsigned char *r = (const unsigned char *)src;
    size_t used = 0;
    while (*r) {
        bool replace;
        size_t n = next_unit(r, false, &replace), out = replace ? 1 : n;
        if (used + out >= len)
            break;
        if (replace)
            dst[used] = '?';
        else
            memcpy(dst + used, r, n);
        used += out;
        r += n;
    }
    dst[used] = '\0';
    return dst;
}

void one_line_put(FILE *f, const char *s)
{
    const unsigned char *r = (const unsigned char *)s;
    while (*r) {
        bool replace;
        size_t n = next_unit(r, false, &replace);
        if (replace)
            fputc('?', f);
        else
            fwrite(r, 1, n, f);
        r += n;
    }
}

bool one_line_is_safe(const char *s, bool newlines_ok)
{
    for (const unsigned char *r = (const unsigned char *)s; *r;) {
        bool replace;
        r += next_unit(r, newlines_ok, &replace);
        if (replace)
            return false;
    }
    return true;
}
