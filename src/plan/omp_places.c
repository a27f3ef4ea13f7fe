#include "plan/omp_places.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse_number.h"

#define MAX_PLACE_CPUS 1024 /* CPUs in one explicit place */

void omp_places_free(omp_place_list *pl)
{
    for (size_t i = 0; i < pl->n; i++)
        cpu_list_free(&pl->lists[i]);
    free(pl->lists);
    pl->lists = NULL;
    pl->n = 0;
}

bool omp_places_add(omp_place_list *pl, const int *ids, size_t count)
{
    if (count == 0)
        return true; /* a place with no usable CPU is dropped */
    if (pl->n >= OMP_MAX_PLACES)
        return false;
    cpu_list *n = realloc(pl->lists, (pl->n + 1) * sizeof *n);
    if (!n)
        return false;
    pl->lists = n;
    cpu_list *c = &pl->lists[pl->n];
    c->ids = malloc(count * sizeof(int));
    if (!c->ids)
        return false;
    memcpy(c->ids, ids, count * sizeof(int));
    c->count = count;
    pl->n++;
    return true;
}

/* Abstract names group usable CPUs by a key (core, package, node, LLC instance);
 * places come in order of each group's lowest CPU id. */
typedef long (*group_key)(const topology *t, const cpu_info *c);

static long key_thread(const topology *t, const cpu_info *c)
{
    (void)t;
    return c->id;
}

static long key_core(const topology *t, const cpu_info *c)
{
    (void)t;
    return c->core_id < 0 ? -1 - (long)c->id : ((long)c->package_id << 32) + c->core_id;
}

static long key_socket(const topology *t, const cpu_info *c)
{
    (void)t;
    return c->package_id;
}

static long key_node(const topology *t, const cpu_info *c)
{
    (void)t;
    return c->node;
}

static long key_llc(const topology *t, const cpu_info *c)
{
    int level = topology_max_cache_level(t);
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level && cpu_list_contains(&t->caches[i].shared, c->id))
            return (long)i;
    return -1 - (long)c->id;
}

static bool group_places(const topology *t, group_key key, omp_place_list *pl)
{
    bool *done = calloc(t->ncpus ? t->ncpus : 1, sizeof *done);
    int *ids = malloc(sizeof(int) * (t->ncpus ? t->ncpus : 1));
    bool ok = done && ids;
    for (size_t i = 0; ok && i < t->ncpus; i++) {
        if (done[i] || !t->cpus[i].usable)
            continue;
        long k = key(t, &t->cpus[i]);
        size_t n = 0;
        for (size_t j = i; j < t->ncpus; j++)
            if (!done[j] && t->cpus[j].usable && key(t, &t->cpus[j]) == k) {
                done[j] = true;
                ids[n++] = t->cpus[j].id;
            }
        ok = omp_places_add(pl, ids, n);
    }
    free(done);
    free(ids);
    return ok;
}

/* One interval "lo", "lo:len" or "lo:len:stride" at *p: its usable CPUs are
 * appended to ids (n of them so far); *p moves past it. */
static bool parse_interval(const topology *t, const char **p, int *ids, size_t *n)
{
    const char *s = *p;
    char *end;
    if (!isdigit((unsigned char)*s))
        return false;
    long lo = strtol(s, &end, 10), len = 1, stride = 1;
    s = end;
    if (*s == ':') {
        if (!isdigit((unsigned char)s[1]))
            return false;
        len = strtol(s + 1, &end, 10);
        s = end;
        if (*s == ':') {
            if (!isdigit((unsigned char)s[1]) && s[1] != '-')
                return false;
            stride = strtol(s + 1, &end, 10);
            s = end;
        }
    }
    *p = s;
    /* Bounding the stride keeps lo + k * stride far from overflow. */
    if (lo < 0 || lo > CPU_LIST_MAX_ID || len < 1 || len > MAX_PLACE_CPUS || stride == 0 ||
        stride < -CPU_LIST_MAX_ID || stride > CPU_LIST_MAX_ID)
        return false;
    for (long k = 0; k < len; k++) {
        long id = lo + k * stride;
        if (id < 0 || id > CPU_LIST_MAX_ID || *n >= MAX_PLACE_CPUS)
            return false;
        const cpu_info *c = topology_cpu(t, (int)id);
        if (c && c->usable)
            ids[(*n)++] = (int)id;
    }
    return true;
}

/* Explicit places: "{0,1},{2,3}", "{0:4}", "{0:4:2}" (start:length[:stride]). */
static bool parse_explicit_places(const topology *t, const char *text, omp_place_list *pl)
{
    const char *p = text;
    while (*p) {
        if (*p != '{')
            return false;
        p++;
        int ids[MAX_PLACE_CPUS];
        size_t n = 0;
        for (;;) {
            if (!parse_interval(t, &p, ids, &n))
                return false;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == '}') {
                p++;
                break;
            }
            return false;
        }
        if (!omp_places_add(pl, ids, n))
            return false;
        if (*p == ',')
            p++;
        else if (*p)
            return false;
    }
    return pl->n > 0;
}

/* "(n)" right after a name, ending the text: keeps the first n places. */
static bool apply_count(const char *paren, omp_place_list *pl)
{
    char num[32];
    size_t nl = strcspn(paren + 1, ")");
    uint64_t count;
    if (nl == 0 || nl >= sizeof num || paren[1 + nl] != ')' || paren[2 + nl] != '\0')
        return false;
    memcpy(num, paren + 1, nl);
    num[nl] = '\0';
    if (!parse_u64(num, 1, OMP_MAX_PLACES, &count))
        return false;
    while (pl->n > count)
        cpu_list_free(&pl->lists[--pl->n]);
    return true;
}

static bool parse_named_places(const topology *t, const char *text, omp_place_list *pl)
{
    static const struct {
        const char *name;
        group_key key;
    } names[] = {{"threads", key_thread}, {"cores", key_core}, {"sockets", key_socket},
                 {"numa_domains", key_node}, {"ll_caches", key_llc}};
    size_t wl = strcspn(text, "(");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i].name) != wl || strncmp(text, names[i].name, wl) != 0)
            continue;
        if (!group_places(t, names[i].key, pl))
            return false;
        if (text[wl] == '(')
            return apply_count(text + wl, pl);
        return text[wl] == '\0';
    }
    return false;
}

bool omp_places_parse(const topology *t, const char *text, omp_place_list *out, char *err, size_t errlen)
{
    out->lists = NULL;
    out->n = 0;
    if (text[0] == '{') {
        if (parse_explicit_places(t, text, out))
            return true;
        omp_places_free(out);
        snprintf(err, errlen, "OMP_PLACES='%s': not a place list this CPU set can use (e.g. {0,1},{2:2})", text);
        return false;
    }
    if (parse_named_places(t, text, out))
        return true;
    omp_places_free(out);
    snprintf(err, errlen, "OMP_PLACES='%s': unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})", text);
    return false;
}

bool omp_proc_bind_parse(const char *text, omp_bind *out, char *err, size_t errlen)
{
    char first[32];
    size_t len = strcspn(text, ",");
    if (len == 0 || len >= sizeof first)
        goto bad;
    memcpy(first, text, len);
    first[len] = '\0';
    for (char *c = first; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!strcmp(first, "spread") || !strcmp(first, "true"))
        *out = OMP_BIND_SPREAD;
    else if (!strcmp(first, "close"))
        *out = OMP_BIND_CLOSE;
    else if (!strcmp(first, "master") || !strcmp(first, "primary"))
        *out = OMP_BIND_PRIMARY;
    else if (!strcmp(first, "false"))
        *out = OMP_BIND_FALSE;
    else
        goto bad;
    return true;
bad:
    snprintf(err, errlen, "OMP_PROC_BIND='%s': unknown (use spread, close, master, true or false)", text);
    return false;
}
