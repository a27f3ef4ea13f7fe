/* SPDX-License-Identifier: MIT */
/* Key/value parameters: what a mode wants to say about a result or a run that the
 * shared model has no field for (a STREAM configuration's name, a latency chain's
 * build time, the sweep's planned sizes). Sinks print them without knowing the
 * mode; JSON writes them under the record's "params" or the run's "plan" and
 * "analysis". Keys and texts are copied, so callers may pass temporaries. */
#ifndef MEMBENCH_CORE_PARAMS_H
#define MEMBENCH_CORE_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { PARAM_NUMBER, PARAM_INT, PARAM_TEXT, PARAM_BOOL, PARAM_NULL } param_kind;

typedef struct {
    char *key;
    param_kind kind;
    double number;
    long long integer;
    char *text;
    bool flag;
} param;

typedef struct {
    param *items;
    size_t n, cap;
} param_list;

/* Each adds key (or replaces the value of an existing key, keeping its place).
 * l may be NULL (a row that could not be allocated): nothing happens. */
void params_number(param_list *l, const char *key, double value);
void params_int(param_list *l, const char *key, long long value);
void params_text(param_list *l, const char *key, const char *value); /* NULL -> null */
void params_textf(param_list *l, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void params_bool(param_list *l, const char *key, bool value);
void params_null(param_list *l, const char *key);

const param *params_find(const param_list *l, const char *key);
/* The number (int or number) under key, or fallback when missing or not numeric. */
double params_get_number(const param_list *l, const char *key, double fallback);
/* The text under key, or NULL. */
const char *params_get_text(const param_list *l, const char *key);

void params_copy(param_list *dst, const param_list *src);
/* Adds every key of src to dst (replacing a value dst already has), after dst's own. */
void params_merge(param_list *dst, const param_list *src);
void params_free(param_list *l);

/* A named table of rows (the sweep's sizes, latency steps, STREAM configurations). */
typedef struct {
    char *name;
    param_list *rows;
    size_t nrows, cap;
} param_table;

/* A run-level section: scalar values, then tables. */
typedef struct {
    param_list values;
    param_table *tables;
    size_t ntables;
} param_section;

/* The table named name (created empty when missing). */
param_table *section_table(param_section *s, const char *name);
const param_table *section_find_table(const param_section *s, const char *name);
/* Appends an empty row and returns it; NULL when memory runs out. */
param_list *table_add_row(param_table *t);
void section_free(param_section *s);

#endif
