/* SPDX-License-Identifier: MIT */
/* A strict RFC 8259 JSON parser for the fuzz targets' checks (no dependency, and
 * deliberately not the writer's code). It refuses what the RFC refuses: raw
 * control characters in strings, escapes other than \" \\ \/ \b \f \n \r \t
 * \uXXXX, bytes that are not UTF-8 (RFC 8259 section 8.1; a byte-order mark
 * too), numbers outside the grammar (leading zeros, "+1", "1.", ".5", NaN),
 * anything after the value but whitespace. It also refuses lone surrogates in
 * \u escapes (the writer must never produce them), and with SJ_UNIQUE_KEYS an
 * object naming a key twice. Strings are decoded to UTF-8 with their length
 * (a \u0000 stays in). */
#ifndef MEMBENCH_STRICT_JSON_H
#define MEMBENCH_STRICT_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { SJ_NULL, SJ_FALSE, SJ_TRUE, SJ_NUMBER, SJ_STRING, SJ_ARRAY, SJ_OBJECT } sj_kind;

typedef struct sj_value sj_value;
struct sj_value {
    sj_kind kind;
    char *text;    /* SJ_STRING: the decoded bytes; SJ_NUMBER: the literal as written */
    size_t len;
    sj_value *items; /* SJ_ARRAY: elements; SJ_OBJECT: members, each with its key */
    size_t n;
    char *key;       /* set on object members: the decoded key */
    size_t key_len;
};

enum { SJ_UNIQUE_KEYS = 1 };

/* Parses exactly text[0..len) as one JSON document. On failure says why in err
 * (with the byte offset) and leaves *out empty. */
bool sj_parse(const char *text, size_t len, int flags, sj_value *out, char *err, size_t errlen);
void sj_free(sj_value *v);

/* The member named key (a NUL-free C string) of an object, or NULL. */
const sj_value *sj_member(const sj_value *object, const char *key);

/* Length of the well-formed UTF-8 character at s (n bytes available), 0 when
 * there is none (RFC 3629: no overlong form, no surrogate, at most U+10FFFF). */
size_t sj_utf8_char(const unsigned char *s, size_t n);
/* Checks the parser against documents it must refuse and accept; false (and
 * why in err) when it is wrong. The targets run it once. */
bool sj_self_test(char *err, size_t errlen);

/* Whether [s, s+len) is well-formed UTF-8. */
bool sj_utf8_valid(const unsigned char *s, size_t len);

#endif
