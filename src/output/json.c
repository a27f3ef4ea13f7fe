/* SPDX-License-Identifier: MIT */
#include "output/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "util/utf8.h"

void json_init(json_writer *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->need_comma[0] = false;
}

/* A JSON string of s. Bytes that are not UTF-8 (a path or sysfs text in another
 * encoding) become U+FFFD, so the document always parses. */
void json_write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (*p < 0x20) {
                fprintf(f, "\\u%04x", *p);
            } else {
                size_t n = utf8_sequence(p);
                if (n == 0) {
                    fputs("\\ufffd", f);
                } else {
                    const unsigned char *run = p; /* plain bytes up to the next that needs escaping: one write */
                    p += n;
                    while (*p >= 0x20 && *p != '"' && *p != '\\' && (n = utf8_sequence(p)) > 0)
                        p += n;
                    fwrite(run, 1, (size_t)(p - run), f);
                    p--;
                }
            }
        }
    }
    fputc('"', f);
}

static void prefix(json_writer *j, const char *key)
{
    if (j->need_comma[j->depth])
        fputc(',', j->f);
    j->need_comma[j->depth] = true;
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
    if (key) {
        json_write_escaped(j->f, key);
        fputs(": ", j->f);
    }
}

static void open_scope(json_writer *j, const char *key, char c)
{
    prefix(j, key);
    fputc(c, j->f);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->need_comma[j->depth] = false;
}

static void close_scope(json_writer *j, char c)
{
    bool had = j->need_comma[j->depth];
    if (j->depth > 0)
        j->depth--;
    if (had) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->f);
    }
    fputc(c, j->f);
    if (j->depth == 0)
        fputc('\n', j->f);
}

void json_object_begin(json_writer *j, const char *key)
{
    if (j->depth == 0 && !j->need_comma[0] && !key) {
        fputc('{', j->f); /* top level: no leading newline */
        j->need_comma[0] = true;
        j->depth = 1;
        j->need_comma[1] = false;
        return;
    }
    open_scope(j, key, '{');
}

void json_object_end(json_writer *j)
{
    close_scope(j, '}');
}

void json_array_begin(json_writer *j, const char *key)
{
    open_scope(j, key, '[');
}

void json_array_end(json_writer *j)
{
    close_scope(j, ']');
}

void json_string(json_writer *j, const char *key, const char *value)
{
    prefix(j, key);
    if (value)
        json_write_escaped(j->f, value);
    else
        fputs("null", j->f);
}

void json_number(json_writer *j, const char *key, double value)
{
    prefix(j, key);
    if (!isfinite(value)) {
        fputs("null", j->f);
        return;
    }
    /* The shortest text that reads back as the same double: a reader gets exactly
     * the value the text outputs were printed from (rounded to fewer digits, a
     * bandwidth could print differently with %.2f here and in the CSV, and a
     * number next to DBL_MAX read back as infinite). */
    char text[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, j->f);
}

void json_int(json_writer *j, const char *key, long long value)
{
    prefix(j, key);
    fprintf(j->f, "%lld", value);
}

void json_uint(json_writer *j, const char *key, uint64_t value)
{
    prefix(j, key);
    fprintf(j->f, "%" PRIu64, value);
}

void json_bool(json_writer *j, const char *key, bool value)
{
    prefix(j, key);
    fputs(value ? "true" : "false", j->f);
}

void json_null(json_writer *j, const char *key)
{
    prefix(j, key);
    fputs("null", j->f);
}

void json_raw(json_writer *j, const char *key, const char *text, size_t len)
{
    prefix(j, key);
    fwrite(text, 1, len, j->f);
}
