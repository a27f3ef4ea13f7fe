/* SPDX-License-Identifier: MIT */
#include "core/params.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void clear_value(param *p)
{
    free(p->text);
    p->text = NULL;
}

/* The entry for key: the existing one (value cleared) or a new one at the end;
 * NULL when memory runs out (the parameter is then dropped, never half-written). */
static param *slot(param_list *l, const char *key)
{
    if (!l)
        return NULL;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0) {
            clear_value(&l->items[i]);
            return &l->items[i];
        }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        param *items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return NULL;
        l->items = items;
        l->cap = cap;
    }
    param *p = &l->items[l->n];
    memset(p, 0, sizeof *p);
    p->key = strdup(key);
    if (!p->key)
        return NULL;
    l->n++;
    return p;
}

void params_number(param_list *l, const char *key, double value)
{
    param *p = slot(l, key);
    if (p) {
        p->kind = PARAM_NUMBER;
        p->number = value;
    }
}

void params_int(param_list *l, const char *key, long long value)
{
    param *p = slot(l, key);
    if (p) {
        p->kind = PARAM_INT;
        p->integer = value;
        p->number = (double)value;
    }
}

void params_text(param_list *l, const char *key, const char *value)
{
    param *p = slot(l, key);
    if (!p)
        return;
    p->kind = value ? PARAM_TEXT : PARAM_NULL;
    p->text = value ? strdup(value) : NULL;
    if (value && !p->text)
        p->kind = PARAM_NULL;
}

void params_textf(param_list *l, const char *key, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    params_text(l, key, buf);
}

void params_bool(param_list *l, const char *key, bool value)
{
    param *p = slot(l, key);
    if (p) {
        p->kind = PARAM_BOOL;
        p->flag = value;
    }
}

void params_null(param_list *l, const char *key)
{
    param *p = slot(l, key);
    if (p)
        p->kind = PARAM_NULL;
}

const param *params_find(const param_list *l, const char *key)
{
    for (size_t i = 0; l && i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0)
            return &l->items[i];
    return NULL;
}

double params_get_number(const param_list *l, const char *key, double fallback)
{
    const param *p = params_find(l, key);
    return p && (p->kind == PARAM_NUMBER || p->kind == PARAM_INT) ? p->number : fallback;
}

const char *params_get_text(const param_list *l, const char *key)
{
    const param *p = params_find(l, key);
    return p && p->kind == PARAM_TEXT ? p->text : NULL;
}

void params_copy(param_list *dst, const param_list *src)
{
    memset(dst, 0, sizeof *dst);
    params_merge(dst, src);
}

void params_merge(param_list *dst, const param_list *src)
{
    if (!dst)
        return;
    for (size_t i = 0; i < src->n; i++) {
        const param *s = &src->items[i];
        param *d = slot(dst, s->key);
        if (!d)
            continue;
        *d = (param){d->key, s->kind, s->number, s->integer, s->text ? strdup(s->text) : NULL, s->flag};
    }
}

void params_free(param_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].key);
        clear_value(&l->items[i]);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

param_table *section_table(param_section *s, const char *name)
{
    for (size_t i = 0; i < s->ntables; i++)
        if (strcmp(s->tables[i].name, name) == 0)
            return &s->tables[i];
    param_table *tables = realloc(s->tables, (s->ntables + 1) * sizeof *tables);
    if (!tables)
        return NULL;
    s->tables = tables;
    param_table *t = &tables[s->ntables];
    memset(t, 0, sizeof *t);
    t->name = strdup(name);
    if (!t->name)
        return NULL;
    s->ntables++;
    return t;
}

const param_table *section_find_table(const param_section *s, const char *name)
{
    for (size_t i = 0; i < s->ntables; i++)
        if (strcmp(s->tables[i].name, name) == 0)
            return &s->tables[i];
    return NULL;
}

param_list *table_add_row(param_table *t)
{
    if (!t)
        return NULL;
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 8;
        param_list *rows = realloc(t->rows, cap * sizeof *rows);
        if (!rows)
            return NULL;
        t->rows = rows;
        t->cap = cap;
    }
    param_list *row = &t->rows[t->nrows++];
    memset(row, 0, sizeof *row);
    return row;
}

void section_free(param_section *s)
{
    params_free(&s->values);
    for (size_t i = 0; i < s->ntables; i++) {
        for (size_t r = 0; r < s->tables[i].nrows; r++)
            params_free(&s->tables[i].rows[r]);
        free(s->tables[i].rows);
        free(s->tables[i].name);
    }
    free(s->tables);
    memset(s, 0, sizeof *s);
}
