/* SPDX-License-Identifier: MIT */
#include "util/json_parse.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *s;
    size_t len, pos;
    int depth;
    char *err;
    size_t errlen;
    bool failed;
} parser;

/* Says what is wrong where (line and column of pos, counted in bytes from 1). */
__attribute__((format(printf, 3, 4))) static bool fail_at(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return false;
    p->failed = true;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos && i < p->len; i++) {
        if (p->s[i] == '\n')
            line++, col = 1;
        else
            col++;
    }
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
    return false;
}

/* The one message for running out of text, so a cut-off file reads as one. */
static bool fail_end(parser *p)
{
    return fail_at(p, p->len, "the text ends early (truncated?)");
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
                               p->s[p->pos] == '\r'))
        p->pos++;
}

/* Length of the well-formed UTF-8 character at s (RFC 3629: no overlong form, no
 * surrogate, at most U+10FFFF), 0 when there is none. */
static size_t utf8_char(const unsigned char *s, size_t n)
{
    unsigned long cp, min;
    size_t len;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xE0) == 0xC0)
        len = 2, cp = s[0] & 0x1Fu, min = 0x80;
    else if ((s[0] & 0xF0) == 0xE0)
        len = 3, cp = s[0] & 0x0Fu, min = 0x800;
    else if ((s[0] & 0xF8) == 0xF0)
        len = 4, cp = s[0] & 0x07u, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static void put_utf8(char *out, size_t *n, unsigned long cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | cp >> 6);
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | cp >> 12);
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | cp >> 18);
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Four hex digits at p->pos, before the string's closing quote at end; -1 (and
 * said why) when they are not there. */
static long hex4(parser *p, size_t end)
{
    if (end - p->pos < 4)
        return fail_at(p, p->pos, "\\u needs four hex digits"), -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p->s[p->pos + (size_t)i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return fail_at(p, p->pos + (size_t)i, "\\u needs four hex digits"), -1;
        v = v << 4 | d;
    }
    p->pos += 4;
    return v;
}

/* A string at p->pos (the opening quote), decoded into a new allocation. Decoded
 * text is never longer than the escaped text, so one allocation of that size does. */
static bool parse_string(parser *p, char **out, size_t *outlen)
{
    size_t start = ++p->pos, end = start;
    while (end < p->len && p->s[end] != '"')
        end += p->s[end] == '\\' && end + 1 < p->len ? 2 : 1;
    if (end >= p->len)
        return fail_end(p);
    char *buf = malloc(end - start + 1);
    if (!buf)
        return fail_at(p, start, "out of memory");
    size_t n = 0;
    while (p->pos < end) {
        unsigned char c = p->s[p->pos];
        if (c < 0x20) {
            free(buf);
            return fail_at(p, p->pos, "control character 0x%02x inside a string (must be escaped)", c);
        }
        if (c != '\\') {
            size_t k = utf8_char(p->s + p->pos, end - p->pos);
            if (k == 0) {
                free(buf);
                return fail_at(p, p->pos, "byte 0x%02x is not UTF-8", c);
            }
            memcpy(buf + n, p->s + p->pos, k);
            n += k, p->pos += k;
            continue;
        }
        size_t esc = p->pos++;
        c = p->s[p->pos++];
        static const char escapes[] = "\"\\/bfnrt", decoded[] = "\"\\/\b\f\n\r\t";
        const char *simple = c ? strchr(escapes, c) : NULL;
        if (simple) {
            buf[n++] = decoded[simple - escapes];
            continue;
        }
        if (c != 'u') {
            free(buf);
            return fail_at(p, esc, "invalid escape \\%c", c >= 0x20 && c < 0x7f ? c : '?');
        }
        long cp = hex4(p, end);
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate needs its low one */
            if (end - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
                free(buf);
                return fail_at(p, esc, "lone surrogate \\u%04lx", cp);
            }
            p->pos += 2;
            long lo = hex4(p, end);
            if (lo >= 0 && (lo < 0xDC00 || lo > 0xDFFF)) {
                free(buf);
                return fail_at(p, esc, "lone surrogate \\u%04lx", cp);
            }
            if (lo >= 0)
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else
                cp = -1;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            free(buf);
            return fail_at(p, esc, "lone surrogate \\u%04lx", cp);
        }
        if (cp < 0) { /* hex4 said why */
            free(buf);
            return false;
        }
        put_utf8(buf, &n, (unsigned long)cp);
    }
    p->pos = end + 1;
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return true;
}

/* RFC 8259's number grammar, then strtod on exactly that span. */
static bool parse_number(parser *p, double *out)
{
    size_t start = p->pos, i = p->pos;
    const unsigned char *s = p->s;
    if (i < p->len && s[i] == '-')
        i++;
    if (i >= p->len)
        return fail_end(p);
    if (s[i] == '0') {
        i++;
        if (i < p->len && s[i] >= '0' && s[i] <= '9')
            return fail_at(p, start, "number with a leading zero");
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    } else {
        return fail_at(p, start, "not a value");
    }
    if (i < p->len && s[i] == '.') {
        if (++i >= p->len)
            return fail_end(p);
        if (s[i] < '0' || s[i] > '9')
            return fail_at(p, i, "a digit must follow the decimal point");
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < p->len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= p->len)
            return fail_end(p);
        if (s[i] < '0' || s[i] > '9')
            return fail_at(p, i, "the exponent needs digits");
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    size_t n = i - start;
    char small[64], *copy = n < sizeof small ? small : malloc(n + 1);
    if (!copy)
        return fail_at(p, start, "out of memory");
    memcpy(copy, s + start, n);
    copy[n] = '\0';
    *out = strtod(copy, NULL);
    if (copy != small)
        free(copy);
    if (isinf(*out))
        return fail_at(p, start, "number out of range");
    p->pos = i;
    return true;
}

static bool parse_value(parser *p, json_value *v);

/* Grows a container's items by one (doubling); NULL when out of memory. */
static json_value *append(parser *p, json_value *c, size_t *cap)
{
    if (c->count == *cap) {
        size_t ncap = *cap ? 2 * *cap : 4;
        json_value *items = realloc(c->items, ncap * sizeof *items);
        if (!items)
            return fail_at(p, p->pos, "out of memory"), NULL;
        c->items = items;
        *cap = ncap;
    }
    json_value *item = &c->items[c->count++];
    memset(item, 0, sizeof *item);
    return item;
}

static int key_order(const void *a, const void *b)
{
    const json_value *x = *(const json_value *const *)a, *y = *(const json_value *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

/* Sorting finds a repeated key in n log n: hostile objects with millions of keys
 * stay fast. */
static bool unique_keys(parser *p, const json_value *obj, size_t at)
{
    if (obj->count < 2)
        return true;
    const json_value **sorted = malloc(obj->count * sizeof *sorted);
    if (!sorted)
        return fail_at(p, at, "out of memory");
    for (size_t i = 0; i < obj->count; i++)
        sorted[i] = &obj->items[i];
    qsort(sorted, obj->count, sizeof *sorted, key_order);
    const json_value *dup = NULL;
    for (size_t i = 1; i < obj->count && !dup; i++)
        if (key_order(&sorted[i - 1], &sorted[i]) == 0)
            dup = sorted[i];
    free(sorted);
    return dup ? fail_at(p, at, "the object names key \"%.60s\" twice", dup->key) : true;
}

/* An array or object at p->pos ('[' or '{'). */
static bool parse_container(parser *p, json_value *v, bool object)
{
    size_t open = p->pos++;
    if (++p->depth > JSON_PARSE_MAX_DEPTH)
        return fail_at(p, open, "nested deeper than %d", JSON_PARSE_MAX_DEPTH);
    v->type = object ? JV_OBJECT : JV_ARRAY;
    size_t cap = 0;
    char close = object ? '}' : ']';
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++, p->depth--;
        return true;
    }
    for (;;) {
        skip_ws(p);
        json_value *item = append(p, v, &cap);
        if (!item)
            return false;
        if (object) {
            if (p->pos >= p->len)
                return fail_end(p);
            if (p->s[p->pos] != '"')
                return fail_at(p, p->pos, "expected a key in quotes");
            if (!parse_string(p, &item->key, &item->key_len))
                return false;
            skip_ws(p);
            if (p->pos >= p->len)
                return fail_end(p);
            if (p->s[p->pos] != ':')
                return fail_at(p, p->pos, "expected ':' after the key");
            p->pos++;
            skip_ws(p);
        }
        if (!parse_value(p, item))
            return false;
        skip_ws(p);
        if (p->pos >= p->len)
            return fail_end(p);
        if (p->s[p->pos] == close)
            break;
        if (p->s[p->pos] != ',')
            return fail_at(p, p->pos, "expected ',' or '%c'", close);
        p->pos++;
        skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == close)
            return fail_at(p, p->pos, "a comma before '%c'", close);
    }
    p->pos++, p->depth--;
    return !object || unique_keys(p, v, open);
}

static bool literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n)
        return memcmp(p->s + p->pos, word, p->len - p->pos) == 0 ? fail_end(p) : fail_at(p, p->pos, "not a value");
    if (memcmp(p->s + p->pos, word, n) != 0)
        return fail_at(p, p->pos, "not a value");
    p->pos += n;
    return true;
}

static bool parse_value(parser *p, json_value *v)
{
    if (p->pos >= p->len)
        return fail_end(p);
    switch (p->s[p->pos]) {
    case '{':
        return parse_container(p, v, true);
    case '[':
        return parse_container(p, v, false);
    case '"':
        v->type = JV_STRING;
        return parse_string(p, &v->text, &v->len);
    case 't':
    case 'f':
        v->type = JV_BOOL;
        v->boolean = p->s[p->pos] == 't';
        return literal(p, v->boolean ? "true" : "false");
    case 'n':
        v->type = JV_NULL;
        return literal(p, "null");
    default:
        v->type = JV_NUMBER;
        return parse_number(p, &v->number);
    }
}

bool json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen)
{
    parser p = {(const unsigned char *)text, len, 0, 0, err, errlen, false};
    memset(out, 0, sizeof *out);
    if (len == 0) {
        snprintf(err, errlen, "empty: no JSON value");
        return false;
    }
    skip_ws(&p);
    bool ok = parse_value(&p, out);
    skip_ws(&p);
    if (ok && p.pos < p.len)
        ok = fail_at(&p, p.pos, "text after the JSON value");
    if (!ok) {
        json_value_free(out);
        memset(out, 0, sizeof *out);
    }
    return ok;
}

void json_value_free(json_value *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++)
        json_value_free(&v->items[i]);
    free(v->items);
    free(v->text);
    free(v->key);
    v->items = NULL;
    v->text = v->key = NULL;
    v->count = 0;
}

const json_value *json_get(const json_value *object, const char *key)
{
    if (!object || object->type != JV_OBJECT)
        return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < object->count; i++)
        if (object->items[i].key_len == n && memcmp(object->items[i].key, key, n) == 0)
            return &object->items[i];
    return NULL;
}

const char *json_get_text(const json_value *object, const char *key)
{
    const json_value *v = json_get(object, key);
    return v && v->type == JV_STRING && strlen(v->text) == v->len ? v->text : NULL;
}

bool json_get_number(const json_value *object, const char *key, double *out)
{
    const json_value *v = json_get(object, key);
    if (!v || v->type != JV_NUMBER)
        return false;
    *out = v->number;
    return true;
}

bool json_get_integer(const json_value *object, const char *key, long long min, long long max, long long *out)
{
    double d;
    if (!json_get_number(object, key, &d) || d != floor(d) || d < (double)min || d > (double)max)
        return false;
    *out = (long long)d;
    return true;
}

const json_value *json_get_array(const json_value *object, const char *key)
{
    const json_value *v = json_get(object, key);
    return v && v->type == JV_ARRAY ? v : NULL;
}

const json_value *json_get_object(const json_value *object, const char *key)
{
    const json_value *v = json_get(object, key);
    return v && v->type == JV_OBJECT ? v : NULL;
}
