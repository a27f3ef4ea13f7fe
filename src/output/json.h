/* SPDX-License-Identifier: MIT */
/* A small streaming JSON emitter: keeps track of commas and nesting, escapes
 * strings, and writes non-finite numbers as null so the document stays valid. */
#ifndef MEMBENCH_JSON_H
#define MEMBENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct {
    FILE *f;
    int depth;
    bool need_comma[JSON_MAX_DEPTH];
} json_writer;

void json_init(json_writer *j, FILE *f);
/* key is NULL inside arrays and for the top level. */
void json_object_begin(json_writer *j, const char *key);
void json_object_end(json_writer *j);
void json_array_begin(json_writer *j, const char *key);
void json_array_end(json_writer *j);
void json_string(json_writer *j, const char *key, const char *value); /* NULL -> null */
void json_number(json_writer *j, const char *key, double value);
void json_int(json_writer *j, const char *key, long long value);
void json_uint(json_writer *j, const char *key, uint64_t value);
void json_bool(json_writer *j, const char *key, bool value);
void json_null(json_writer *j, const char *key);
/* A value that is already JSON text (a document read back and checked), written as is. */
void json_raw(json_writer *j, const char *key, const char *text, size_t len);

/* Writes s as a JSON string literal (with quotes). */
void json_write_escaped(FILE *f, const char *s);

#endif
