/* SPDX-License-Identifier: MIT */
/* Reading JSON: strict RFC 8259 text into a tree of values, for the commands that
 * read membench's own documents back (compare, report). Strict because a
 * document that is not exactly JSON was not written by membench, and a lenient
 * reader would compare garbage: it refuses raw control characters in strings,
 * escapes other than \" \\ \/ \b \f \n \r \t \uXXXX, lone surrogates, bytes that
 * are not UTF-8 (a byte-order mark too), numbers outside the grammar (leading
 * zeros, "+1", "1.", ".5", NaN) or outside a double's range, an object naming a
 * key twice, nesting deeper than JSON_PARSE_MAX_DEPTH and anything after the
 * value but whitespace. Every refusal is one line with the line and column. */
#ifndef MEMBENCH_JSON_PARSE_H
#define MEMBENCH_JSON_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* membench's documents nest about 6 deep; the limit keeps the recursion bounded. */
#define JSON_PARSE_MAX_DEPTH 64

typedef enum { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } json_value_type;

typedef struct json_value json_value;
struct json_value {
    json_value_type type;
    bool boolean;      /* JV_BOOL */
    double number;     /* JV_NUMBER */
    char *text;        /* JV_STRING: decoded UTF-8, NUL-terminated (a \u0000 stays in: see len) */
    size_t len;
    json_value *items; /* JV_ARRAY: the elements; JV_OBJECT: the members, in order, each with key */
    size_t count;
    char *key;         /* on an object's members: the decoded key */
    size_t key_len;
};

/* Parses exactly text[0..len) as one JSON document into *out (free with
 * json_value_free). False: *out is empty and err says why, with the line and column. */
bool json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen);
void json_value_free(json_value *v);

/* Lookups; each returns NULL (or false) when v is NULL or not of the asked type,
 * so a chain of them needs one check at its end. */
const json_value *json_get(const json_value *object, const char *key);
/* The string's text when it holds no NUL, else NULL. */
const char *json_get_text(const json_value *object, const char *key);
bool json_get_number(const json_value *object, const char *key, double *out);
/* A number that is a whole number in [min, max]. */
bool json_get_integer(const json_value *object, const char *key, long long min, long long max, long long *out);
const json_value *json_get_array(const json_value *object, const char *key);
const json_value *json_get_object(const json_value *object, const char *key);

#endif
