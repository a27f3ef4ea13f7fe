/* SPDX-License-Identifier: MIT */
#include "util/parse_number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    if (text == NULL || !isdigit((unsigned char)text[0]))
        return false; /* rejects "", "-5", "+5", " 5" */
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE || *end != '\0')
        return false;
    if (v < min || v > max)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool parse_double(const char *text, double min, double max, double *out)
{
    if (text == NULL || text[0] == '\0' || isspace((unsigned char)text[0]))
        return false;
    /* Only plain decimal notation: strtod would also take "inf", "nan" and hex. */
    for (const char *c = text; *c; c++) {
        if (!isdigit((unsigned char)*c) && *c != '.' && *c != 'e' && *c != 'E' &&
            *c != '+' && *c != '-')
            return false;
    }
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (errno == ERANGE || *end != '\0' || end == text || !isfinite(v))
        return false;
    if (v < min || v > max)
        return false;
    *out = v;
    return true;
}

int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
