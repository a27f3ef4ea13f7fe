/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the JSON writer (output/json.c): the input is a program
 * of writer calls with arbitrary strings (any bytes: invalid UTF-8, control
 * characters; a NUL ends the C string the writer is given) and arbitrary
 * numbers (NaN, infinities, huge, tiny, negative zero); the document written is
 * parsed by a strict RFC 8259 parser (strict_json.c) and compared with what was
 * written, value by value:
 *   - the document parses (so: valid UTF-8, every control character escaped,
 *     no lone surrogate, nothing after the value);
 *   - strings and keys come back byte for byte when they were UTF-8, and with
 *     U+FFFD for each byte that is not part of a well-formed UTF-8 character
 *     (what json.c promises: "Bytes that are not UTF-8 become U+FFFD");
 *   - a NULL string is null; a non-finite number is null; a finite one comes
 *     back exactly (the writer prints the shortest text that does); integers exactly.
 *
 * Input: the first byte's low bit chooses the top level (object or array), then
 * one operation per byte (its value modulo 10): 0 open an object, 1 open an
 * array, 2 close the innermost container, 3 a string, 4 a NULL string, 5 a
 * double (8 raw bytes), 6 a long long (8 bytes), 7 a uint64 (8 bytes), 8 a bool,
 * 9 null. Inside an object every value is preceded by its key. A string is a
 * length byte and that many bytes. Containers nest up to JSON_MAX_DEPTH - 1
 * deep (the writer's limit); everything open is closed at the end. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "output/json.h"
#include "strict_json.h"

#define MAX_NEST (JSON_MAX_DEPTH - 1)

typedef struct {
    const uint8_t *p;
    size_t n;
} reader;

static bool take(reader *r, void *out, size_t n)
{
    if (r->n < n)
        return false;
    memcpy(out, r->p, n);
    r->p += n;
    r->n -= n;
    return true;
}

/* A length byte and up to that many bytes, as a C string (its own allocation). */
static char *take_string(reader *r)
{
    uint8_t len = 0;
    take(r, &len, 1);
    size_t n = len < r->n ? len : r->n;
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    r->n -= n;
    return s;
}

typedef enum { NUM_DOUBLE, NUM_INT, NUM_UINT } num_kind;

/* What the document must hold (a tree like the parser's). */
typedef struct expect expect;
struct expect {
    sj_kind kind;
    num_kind num;
    double d;
    long long i;
    uint64_t u;
    char *text; /* strings: the bytes the parser must give back */
    size_t len;
    char *key;
    size_t key_len;
    expect *items;
    size_t n, cap;
};

/* The string the writer must produce for the C string s: every well-formed
 * UTF-8 character as it is, U+FFFD for every other byte. */
static char *expected_text(const char *s, size_t *len)
{
    size_t n = strlen(s);
    char *out = malloc(3 * n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = sj_utf8_char((const unsigned char *)s + i, n - i);
        if (k) {
            memcpy(out + o, s + i, k);
            o += k, i += k;
        } else {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3, i++;
        }
    }
    out[o] = '\0';
    *len = o;
    return out;
}

static expect *add(expect *parent, const char *key)
{
    if (parent->n == parent->cap) {
        size_t cap = parent->cap ? parent->cap * 2 : 4;
        expect *items = realloc(parent->items, cap * sizeof *items);
        FUZZ_CHECK(items != NULL, "out of memory");
        parent->items = items;
        parent->cap = cap;
    }
    expect *e = &parent->items[parent->n++];
    memset(e, 0, sizeof *e);
    if (key)
        e->key = expected_text(key, &e->key_len);
    return e;
}

static void expect_free(expect *e)
{
    for (size_t i = 0; i < e->n; i++)
        expect_free(&e->items[i]);
    free(e->items);
    free(e->text);
    free(e->key);
}

static void compare(const expect *e, const sj_value *v, const char *path)
{
    char sub[256];
    if (e->key) {
        FUZZ_CHECK(v->key && v->key_len == e->key_len && memcmp(v->key, e->key, e->key_len) == 0,
                   "%s: key \"%s\" came back as \"%s\"", path, e->key, v->key ? v->key : "(none)");
    }
    if (e->kind == SJ_NUMBER && e->num == NUM_DOUBLE && !isfinite(e->d)) {
        FUZZ_CHECK(v->kind == SJ_NULL, "%s: %g must be written as null", path, e->d);
        return;
    }
    FUZZ_CHECK(v->kind == e->kind, "%s: kind %d written, %d read", path, (int)e->kind, (int)v->kind);
    switch (e->kind) {
    case SJ_STRING:
        FUZZ_CHECK(v->len == e->len && memcmp(v->text, e->text, e->len) == 0, "%s: \"%s\" came back as \"%s\"",
                   path, e->text, v->text);
        break;
    case SJ_NUMBER:
        if (e->num == NUM_DOUBLE) {
            double d = strtod(v->text, NULL);
            FUZZ_CHECK(d == e->d, "%s: %.17g came back as %s", path,
                       e->d, v->text);
            FUZZ_CHECK(signbit(d) == signbit(e->d), "%s: %.17g came back as %s", path, e->d, v->text);
        } else if (e->num == NUM_INT) {
            char *end;
            FUZZ_CHECK(strtoll(v->text, &end, 10) == e->i && *end == '\0', "%s: %lld came back as %s", path, e->i,
                       v->text);
        } else {
            char *end;
            FUZZ_CHECK(v->text[0] != '-' && strtoull(v->text, &end, 10) == e->u && *end == '\0',
                       "%s: %llu came back as %s", path, (unsigned long long)e->u, v->text);
        }
        break;
    case SJ_ARRAY:
    case SJ_OBJECT:
        FUZZ_CHECK(v->n == e->n, "%s: %zu items written, %zu read", path, e->n, v->n);
        for (size_t i = 0; i < e->n; i++) {
            snprintf(sub, sizeof sub, "%.200s/%zu", path, i);
            compare(&e->items[i], &v->items[i], sub);
        }
        break;
    default:
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool tested;
    if (!tested) {
        char why[256];
        FUZZ_CHECK(sj_self_test(why, sizeof why), "%s", why);
        tested = true;
    }
    reader r = {data, size};
    uint8_t top;
    if (!take(&r, &top, 1))
        return 0;
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    json_writer j;
    json_init(&j, f);

    expect doc;
    memset(&doc, 0, sizeof doc);
    expect *stack[MAX_NEST + 1];
    int depth = 1;
    stack[0] = &doc;
    if (top & 1) {
        doc.kind = SJ_ARRAY;
        json_array_begin(&j, NULL);
    } else {
        doc.kind = SJ_OBJECT;
        json_object_begin(&j, NULL);
    }
    uint8_t op;
    while (take(&r, &op, 1)) {
        expect *parent = stack[depth - 1];
        op %= 10;
        if (op == 2) {
            if (depth > 1) {
                if (parent->kind == SJ_OBJECT)
                    json_object_end(&j);
                else
                    json_array_end(&j);
                depth--;
            }
            continue;
        }
        if ((op == 0 || op == 1) && depth >= MAX_NEST)
            continue;
        char *key = parent->kind == SJ_OBJECT ? take_string(&r) : NULL;
        if (parent->kind == SJ_OBJECT && !key)
            break;
        expect *e = add(parent, key);
        switch (op) {
        case 0:
            e->kind = SJ_OBJECT;
            json_object_begin(&j, key);
            stack[depth++] = e;
            break;
        case 1:
            e->kind = SJ_ARRAY;
            json_array_begin(&j, key);
            stack[depth++] = e;
            break;
        case 3: {
            char *s = take_string(&r);
            FUZZ_CHECK(s != NULL, "out of memory");
            e->kind = SJ_STRING;
            e->text = expected_text(s, &e->len);
            json_string(&j, key, s);
            free(s);
            break;
        }
        case 4:
            e->kind = SJ_NULL;
            json_string(&j, key, NULL);
            break;
        case 5:
            e->kind = SJ_NUMBER;
            e->num = NUM_DOUBLE;
            if (!take(&r, &e->d, sizeof e->d))
                e->d = r.n ? -0.0 : 1e-310; /* the end of the input: a denormal */
            json_number(&j, key, e->d);
            break;
        case 6:
            e->kind = SJ_NUMBER;
            e->num = NUM_INT;
            if (!take(&r, &e->i, sizeof e->i))
                e->i = -9223372036854775807LL - 1;
            json_int(&j, key, e->i);
            break;
        case 7:
            e->kind = SJ_NUMBER;
            e->num = NUM_UINT;
            if (!take(&r, &e->u, sizeof e->u))
                e->u = UINT64_MAX;
            json_uint(&j, key, e->u);
            break;
        case 8: {
            uint8_t b = 0;
            take(&r, &b, 1);
            e->kind = b & 1 ? SJ_TRUE : SJ_FALSE;
            json_bool(&j, key, b & 1);
            break;
        }
        default:
            e->kind = SJ_NULL;
            json_null(&j, key);
            break;
        }
        free(key);
    }
    while (depth > 0) {
        if (stack[depth - 1]->kind == SJ_OBJECT)
            json_object_end(&j);
        else
            json_array_end(&j);
        depth--;
    }
    FUZZ_CHECK(fclose(f) == 0, "the document could not be written");

    sj_value v;
    char err[160];
    FUZZ_CHECK(sj_parse(out, out_len, 0, &v, err, sizeof err), "the document does not parse: %s\n%s", err, out);
    compare(&doc, &v, "");
    FUZZ_CHECK(out_len > 0 && out[out_len - 1] == '\n', "the document does not end a line");
    sj_free(&v);
    expect_free(&doc);
    free(out);
    return 0;
}
