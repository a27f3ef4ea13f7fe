/* SPDX-License-Identifier: MIT */
#include "util/cpu_list.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool read_id(const char **p, int *out)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return false;
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s - '0');
        if (v > CPU_LIST_MAX_ID)
            return false;
        s++;
    }
    *out = (int)v;
    *p = s;
    return true;
}

/* seen: one bit per possible id, so duplicates are found in constant time (a
 * linear search made "0-65535" take a second natively, half a minute under ASan). */
static bool append(cpu_list *list, size_t *cap, unsigned char *seen, int id)
{
    if (seen[id / 8] & (1u << (id % 8)))
        return false;
    seen[id / 8] |= (unsigned char)(1u << (id % 8));
    if (list->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        int *n = realloc(list->ids, ncap * sizeof *n);
        if (!n)
            return false;
        list->ids = n;
        *cap = ncap;
    }
    list->ids[list->count++] = id;
    return true;
}

bool cpu_list_parse(const char *text, cpu_list *list)
{
    list->ids = NULL;
    list->count = 0;
    if (text == NULL)
        return false;
    size_t cap = 0;
    const char *p = text;
    if (*p == '\n' || *p == '\0')
        return *p == '\0' || p[1] == '\0';
    unsigned char *seen = calloc(CPU_LIST_MAX_ID / 8 + 1, 1);
    if (!seen)
        return false;
    for (;;) {
        int lo, hi;
        if (!read_id(&p, &lo))
            goto fail;
        hi = lo;
        if (*p == '-') {
            p++;
            if (!read_id(&p, &hi) || hi < lo)
                goto fail;
        }
        for (int id = lo; id <= hi; id++)
            if (!append(list, &cap, seen, id))
                goto fail;
        if (*p == ',') {
            p++;
            continue;
        }
        if ((*p == '\n' && p[1] == '\0') || *p == '\0') {
            free(seen);
            return true;
        }
        goto fail;
    }
fail:
    free(seen);
    cpu_list_free(list);
    return false;
}

void cpu_list_free(cpu_list *list)
{
    free(list->ids);
    list->ids = NULL;
    list->count = 0;
}

bool cpu_list_contains(const cpu_list *list, int id)
{
    for (size_t i = 0; i < list->count; i++)
        if (list->ids[i] == id)
            return true;
    return false;
}

char *cpu_list_format(const int *ids, size_t count, char *buf, size_t size)
{
    size_t used = 0;
    if (size == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < count;) {
        size_t j = i;
        while (j + 1 < count && ids[j + 1] == ids[j] + 1)
            j++;
        int n;
        if (j > i)
            n = snprintf(buf + used, size - used, "%s%d-%d", used ? "," : "", ids[i], ids[j]);
        else
            n = snprintf(buf + used, size - used, "%s%d", used ? "," : "", ids[i]);
        if (n < 0 || (size_t)n >= size - used) {
            buf[used] = '\0'; /* truncated: keep the whole entries that fit */
            break;
        }
        used += (size_t)n;
        i = j + 1;
    }
    return buf;
}

char *cpu_list_format_alloc(const int *ids, size_t count)
{
    /* "-65535," is the longest an entry can be: 12 bytes each is always enough. */
    size_t size = 12 * count + 1;
    char *buf = malloc(size);
    return buf ? cpu_list_format(ids, count, buf, size) : NULL;
}
