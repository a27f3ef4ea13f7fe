/* SPDX-License-Identifier: MIT */
#include "strict_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SJ_MAX_DEPTH 512

typedef struct {
    const unsigned char *s;
    size_t len, pos;
    int flags;
    char *err;
    size_t errlen;
    bool failed;
} parser;

typedef struct {
    char *bytes;
    size_t len, cap;
} sbuf;

static bool fail(parser *p, const char *what)
{
    if (!p->failed && p->err && p->errlen)
        snprintf(p->err, p->errlen, "byte %zu: %s", p->pos, what);
    p->failed = true;
    return false;
}

static bool put(parser *p, sbuf *b, const void *bytes, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 16;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *nb = realloc(b->bytes, cap);
        if (!nb)
            return fail(p, "out of memory");
        b->bytes = nb;
        b->cap = cap;
    }
    memcpy(b->bytes + b->len, bytes, n);
    b->len += n;
    b->bytes[b->len] = '\0';
    return true;
}

/* The code point is decoded and its range checked (no overlong forms, no
 * surrogates, nothing above U+10FFFF) rather than lead bytes tabulated. */
size_t sj_utf8_char(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned long cp, min;
    size_t len;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xE0) == 0xC0) {
        len = 2, cp = s[0] & 0x1Fu, min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3, cp = s[0] & 0x0Fu, min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4, cp = s[0] & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
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

bool sj_utf8_valid(const unsigned char *s, size_t len)
{
    for (size_t i = 0, n; i < len; i += n)
        if ((n = sj_utf8_char(s + i, len - i)) == 0)
            return false;
    return true;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len &&
           (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static bool hex4(parser *p, unsigned *out)
{
    unsigned v = 0;
    if (p->len - p->pos < 4)
        return fail(p, "\\u needs four hex digits");
    for (int i = 0; i < 4; i++) {
        unsigned char c = p->s[p->pos++];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16)
            return fail(p, "\\u needs four hex digits");
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

static bool put_code_point(parser *p, sbuf *b, unsigned long cp)
{
    unsigned char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (unsigned char)cp, n = 1;
    } else if (cp < 0x800) {
        u[0] = (unsigned char)(0xC0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        u[0] = (unsigned char)(0xE0 | cp >> 12), u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        u[0] = (unsigned char)(0xF0 | cp >> 18), u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (unsigned char)(0x80 | (cp & 0x3F)), n = 4;
    }
    return put(p, b, u, n);
}

/* At the opening quote. */
static bool parse_string(parser *p, char **out, size_t *outlen)
{
    sbuf b = {NULL, 0, 0};
    p->pos++;
    if (!put(p, &b, "", 0))
        return false;
    for (;;) {
        if (p->pos >= p->len) {
            fail(p, "unterminated string");
            break;
        }
        unsigned char c = p->s[p->pos];
        if (c == '"') {
            p->pos++;
            *out = b.bytes;
            *outlen = b.len;
            return true;
        }
        if (c < 0x20) {
            fail(p, "raw control character in a string");
            break;
        }
        if (c != '\\') {
            size_t n = sj_utf8_char(p->s + p->pos, p->len - p->pos);
            if (n == 0) {
                fail(p, "a string byte that is not UTF-8");
                break;
            }
            if (!put(p, &b, p->s + p->pos, n))
                break;
            p->pos += n;
            continue;
        }
        if (++p->pos >= p->len) {
            fail(p, "unterminated escape");
            break;
        }
        char e = (char)p->s[p->pos++], one;
        unsigned u, lo;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            one = e;
            break;
        case 'b':
            one = '\b';
            break;
        case 'f':
            one = '\f';
            break;
        case 'n':
            one = '\n';
            break;
        case 'r':
            one = '\r';
            break;
        case 't':
            one = '\t';
            break;
        case 'u':
            if (!hex4(p, &u))
                goto bad;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                fail(p, "lone low surrogate");
                goto bad;
            }
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
                    fail(p, "lone high surrogate");
                    goto bad;
                }
                p->pos += 2;
                if (!hex4(p, &lo))
                    goto bad;
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    fail(p, "high surrogate not followed by a low one");
                    goto bad;
                }
                if (!put_code_point(p, &b, 0x10000 + ((unsigned long)(u - 0xD800) << 10) + (lo - 0xDC00)))
                    goto bad;
            } else if (!put_code_point(p, &b, u)) {
                goto bad;
            }
            continue;
        default:
            fail(p, "bad escape");
            goto bad;
        }
        if (!put(p, &b, &one, 1))
            break;
    }
bad:
    free(b.bytes);
    return false;
}

static bool digits(parser *p)
{
    size_t start = p->pos;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
        p->pos++;
    return p->pos > start;
}

static bool parse_number(parser *p, sj_value *v)
{
    size_t start = p->pos;
    if (p->pos < p->len && p->s[p->pos] == '-')
        p->pos++;
    if (p->pos < p->len && p->s[p->pos] == '0')
        p->pos++;
    else if (p->pos >= p->len || p->s[p->pos] < '1' || p->s[p->pos] > '9' || !digits(p))
        return fail(p, "not a value");
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if (!digits(p))
            return fail(p, "a fraction needs digits");
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (!digits(p))
            return fail(p, "an exponent needs digits");
    }
    v->kind = SJ_NUMBER;
    v->len = p->pos - start;
    v->text = malloc(v->len + 1);
    if (!v->text)
        return fail(p, "out of memory");
    memcpy(v->text, p->s + start, v->len);
    v->text[v->len] = '\0';
    return true;
}

static bool parse_value(parser *p, sj_value *v, int depth);

static bool literal(parser *p, const char *word, sj_kind kind, sj_value *v)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "not a value");
    p->pos += n;
    v->kind = kind;
    return true;
}

static sj_value *add_item(parser *p, sj_value *v, size_t *cap)
{
    if (v->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 4;
        sj_value *items = realloc(v->items, ncap * sizeof *items);
        if (!items) {
            fail(p, "out of memory");
            return NULL;
        }
        v->items = items;
        *cap = ncap;
    }
    sj_value *item = &v->items[v->n++];
    memset(item, 0, sizeof *item);
    return item;
}

static bool parse_container(parser *p, sj_value *v, int depth)
{
    bool object = p->s[p->pos] == '{';
    char close = object ? '}' : ']';
    size_t cap = 0;
    v->kind = object ? SJ_OBJECT : SJ_ARRAY;
    if (depth >= SJ_MAX_DEPTH)
        return fail(p, "nested too deep for this parser");
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return true;
    }
    for (;;) {
        sj_value *item = add_item(p, v, &cap);
        if (!item)
            return false;
        if (object) {
            if (p->pos >= p->len || p->s[p->pos] != '"')
                return fail(p, "an object member needs a string key");
            if (!parse_string(p, &item->key, &item->key_len))
                return false;
            if (p->flags & SJ_UNIQUE_KEYS)
                for (size_t k = 0; k + 1 < v->n; k++)
                    if (v->items[k].key_len == item->key_len &&
                        memcmp(v->items[k].key, item->key, item->key_len) == 0)
                        return fail(p, "a key named twice in one object");
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':')
                return fail(p, "':' expected after a key");
            p->pos++;
            skip_ws(p);
        }
        if (!parse_value(p, item, depth + 1))
            return false;
        skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            skip_ws(p);
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            return true;
        }
        return fail(p, object ? "',' or '}' expected" : "',' or ']' expected");
    }
}

static bool parse_value(parser *p, sj_value *v, int depth)
{
    if (p->pos >= p->len)
        return fail(p, "a value expected");
    switch (p->s[p->pos]) {
    case '{':
    case '[':
        return parse_container(p, v, depth);
    case '"':
        v->kind = SJ_STRING;
        return parse_string(p, &v->text, &v->len);
    case 't':
        return literal(p, "true", SJ_TRUE, v);
    case 'f':
        return literal(p, "false", SJ_FALSE, v);
    case 'n':
        return literal(p, "null", SJ_NULL, v);
    default:
        return parse_number(p, v);
    }
}

bool sj_parse(const char *text, size_t len, int flags, sj_value *out, char *err, size_t errlen)
{
    parser p = {(const unsigned char *)text, len, 0, flags, err, errlen, false};
    memset(out, 0, sizeof *out);
    skip_ws(&p);
    bool ok = parse_value(&p, out, 0);
    skip_ws(&p);
    if (ok && p.pos != p.len)
        ok = fail(&p, "bytes after the value");
    if (!ok)
        sj_free(out);
    return ok;
}

void sj_free(sj_value *v)
{
    for (size_t i = 0; i < v->n; i++)
        sj_free(&v->items[i]);
    free(v->items);
    free(v->text);
    free(v->key);
    memset(v, 0, sizeof *v);
}

const sj_value *sj_member(const sj_value *object, const char *key)
{
    size_t n = strlen(key);
    if (object->kind != SJ_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->n; i++)
        if (object->items[i].key_len == n && memcmp(object->items[i].key, key, n) == 0)
            return &object->items[i];
    return NULL;
}

/* Documents RFC 8259 refuses (and a lone surrogate, and a key twice with
 * SJ_UNIQUE_KEYS), and documents it accepts: so a parser grown lenient cannot
 * let a broken writer through. Lengths are explicit (NULs, a BOM). */
bool sj_self_test(char *err, size_t errlen)
{
    static const struct {
        const char *text;
        size_t len;
        int flags;
        bool ok;
        const char *decoded; /* the string's bytes, for a string document */
        size_t decoded_len;
    } cases[] = {
#define DOC(s, flags, ok) {s, sizeof s - 1, flags, ok, NULL, 0}
#define STR(s, d) {s, sizeof s - 1, 0, true, d, sizeof d - 1}
        DOC("", 0, false), DOC(" ", 0, false), DOC("{", 0, false), DOC("}", 0, false), DOC("[1,]", 0, false),
        DOC("{\"a\":1,}", 0, false), DOC("[01]", 0, false), DOC("[1.]", 0, false), DOC("[.5]", 0, false),
        DOC("[+1]", 0, false), DOC("[-]", 0, false), DOC("[1e]", 0, false), DOC("[1e+]", 0, false),
        DOC("[NaN]", 0, false), DOC("[Infinity]", 0, false), DOC("[0x10]", 0, false), DOC("\"\x01\"", 0, false),
        DOC("\"\t\"", 0, false), DOC("\"\x7f\xff\"", 0, false), DOC("\"\\x41\"", 0, false), DOC("\"\\u12\"", 0, false),
        DOC("\"\\uD800\"", 0, false), DOC("\"\\uDC00\"", 0, false), DOC("\"\\uD800\\u0041\"", 0, false),
        DOC("\"\xc0\x80\"", 0, false), DOC("\"\xed\xa0\x80\"", 0, false), DOC("\"\xf4\x90\x80\x80\"", 0, false),
        DOC("\"\xe2\x82\"", 0, false), DOC("\xef\xbb\xbf[]", 0, false), DOC("[] []", 0, false), DOC("[]x", 0, false),
        DOC("[1]\0", 0, false), DOC("{\"a\" 1}", 0, false), DOC("{1:2}", 0, false), DOC("[true false]", 0, false),
        DOC("tru", 0, false), DOC("nul", 0, false), DOC("'a'", 0, false), DOC("[\"a\"\"b\"]", 0, false),
        DOC("\"abc", 0, false), DOC("\f[]", 0, false), DOC("{\"a\":1,\"a\":2}", SJ_UNIQUE_KEYS, false),
        DOC("[]", 0, true), DOC("{}", 0, true), DOC(" \t\n\r[ ]\n", 0, true), DOC("0", 0, true), DOC("-0", 0, true),
        DOC("-0.0e+00", 0, true), DOC("1E5", 0, true), DOC("[1,\"a\",null,true,false,{\"k\":[]}]", 0, true),
        DOC("{\"a\":1,\"a\":2}", 0, true), DOC("\"\x7f\"", 0, true),
        STR("\"\\u00e9\\/\\\"\"", "\xc3\xa9/\""), STR("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80"),
        STR("\"\\u0000\"", "\0"), STR("\"\xf4\x8f\xbf\xbf\"", "\xf4\x8f\xbf\xbf"),
        STR("\"\\b\\f\\n\\r\\t\"", "\b\f\n\r\t"),
#undef DOC
#undef STR
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sj_value v;
        char why[128] = "";
        bool ok = sj_parse(cases[i].text, cases[i].len, cases[i].flags, &v, why, sizeof why);
        bool right = ok == cases[i].ok;
        if (ok && cases[i].decoded)
            right = v.kind == SJ_STRING && v.len == cases[i].decoded_len &&
                    memcmp(v.text, cases[i].decoded, v.len) == 0;
        if (ok)
            sj_free(&v);
        if (!right) {
            snprintf(err, errlen, "strict_json self-test, case %zu: %s (%s)", i,
                     cases[i].ok ? "refused or misread" : "accepted", why);
            return false;
        }
    }
    return true;
}
