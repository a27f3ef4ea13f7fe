/* SPDX-License-Identifier: MIT */
#include "plan/omp_places.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* OMP_PLACES text is read the way libgomp reads it: blanks may surround every
 * token, numbers may carry a '+', names are matched in any case. A place is a set
 * of CPUs, kept in the order first named. */
typedef struct {
    const topology *t;
    const char *text; /* the whole value, for messages */
    const char *p;    /* where reading is */
    char *err;
    size_t errlen;
    cpu_list *raw; /* every place as written, usable CPUs or not */
    size_t nraw, raw_cap;
    size_t raw_cpus;        /* CPU entries over all of them, bounded */
    unsigned char *in_place; /* CPU_LIST_MAX_ID + 1 flags: the place being read */
    bool named;              /* an abstract name, not a list of places */
} places_reader;

#define MAX_RAW_PLACES 65536
#define MAX_RAW_CPUS (1 << 20)

static bool fail(places_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(places_reader *r, const char *fmt, ...)
{
    int used = snprintf(r->err, r->errlen, "OMP_PLACES='%s': ", r->text);
    if (used >= 0 && (size_t)used < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + used, r->errlen - (size_t)used, fmt, ap);
        va_end(ap);
    }
    return false;
}

static void skip_blanks(places_reader *r)
{
    while (isspace((unsigned char)*r->p))
        r->p++;
}

static bool syntax_error(places_reader *r)
{
    skip_blanks(r);
    const char *what = r->named ? "not a name with a count" : "not a place list";
    const char *e_g = r->named ? "e.g. cores(4)" : "e.g. {0,1},{2:2} or {0:2}:4";
    if (*r->p)
        return fail(r, "%s at '%.16s' (%s)", what, r->p, e_g);
    return fail(r, "%s (it ends too soon; %s)", what, e_g);
}

/* The next character after blanks is c: consumes it. */
static bool next_is(places_reader *r, char c)
{
    skip_blanks(r);
    if (*r->p != c)
        return false;
    r->p++;
    return true;
}

/* A decimal number in [lo, hi] after blanks: '+' always allowed, '-' when lo < 0. */
static bool read_number(places_reader *r, long long lo, long long hi, long long *out)
{
    skip_blanks(r);
    const char *s = r->p;
    bool negative = *s == '-' && lo < 0;
    if (*s == '+' || negative)
        s++;
    if (!isdigit((unsigned char)*s))
        return syntax_error(r);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    bool fits = errno != ERANGE && v <= (unsigned long long)LLONG_MAX;
    long long x = !fits ? 0 : negative ? -(long long)v : (long long)v;
    if (!fits || x < lo || x > hi)
        return fail(r, "%.*s is out of range (%lld to %lld)", (int)(end - r->p), r->p, lo, hi);
    r->p = end;
    *out = x;
    return true;
}

/* ":len" and ":len:stride" after a CPU or a place, if there. */
static bool read_interval(places_reader *r, long long max_len, long long *len, long long *stride)
{
    *len = 1;
    *stride = 1;
    if (!next_is(r, ':'))
        return true;
    if (!read_number(r, 1, max_len, len))
        return false;
    if (next_is(r, ':'))
        return read_number(r, -CPU_LIST_MAX_ID, CPU_LIST_MAX_ID, stride);
    return true;
}

static bool cpu_in_range(places_reader *r, long long id)
{
    if (id >= 0 && id <= CPU_LIST_MAX_ID)
        return true;
    return fail(r, "CPU %lld is out of range (0 to %d)", id, CPU_LIST_MAX_ID);
}

/* Appends a place; false when there are too many. */
static bool add_raw(places_reader *r, const int *ids, size_t n)
{
    if (r->nraw >= MAX_RAW_PLACES || r->raw_cpus + n > MAX_RAW_CPUS)
        return fail(r, "too many places or CPUs (at most %d places, %d CPUs in all)", MAX_RAW_PLACES, MAX_RAW_CPUS);
    if (r->nraw == r->raw_cap) {
        size_t cap = r->raw_cap ? 2 * r->raw_cap : 16;
        cpu_list *more = realloc(r->raw, cap * sizeof *more);
        if (!more)
            return fail(r, "out of memory");
        r->raw = more;
        r->raw_cap = cap;
    }
    cpu_list *c = &r->raw[r->nraw];
    c->ids = malloc((n ? n : 1) * sizeof(int));
    if (!c->ids)
        return fail(r, "out of memory");
    if (n)
        memcpy(c->ids, ids, n * sizeof(int));
    c->count = n;
    r->nraw++;
    r->raw_cpus += n;
    return true;
}

/* "{res,res,...}": res is "lo[:len[:stride]]" or "!cpu". The CPUs named, in order
 * and once each, less the excluded ones (exclusions apply after every inclusion,
 * as libgomp does, and must name a CPU of the place). */
static bool read_place(places_reader *r, cpu_list *out)
{
    out->ids = NULL;
    out->count = 0;
    if (!next_is(r, '{'))
        return syntax_error(r);
    size_t cap = 16, nexcl = 0, excap = 4;
    int *ids = malloc(cap * sizeof *ids), *excl = malloc(excap * sizeof *excl);
    bool ok = ids && excl ? true : fail(r, "out of memory");
    size_t n = 0;
    do {
        long long lo, len, stride;
        if (next_is(r, '!')) {
            ok = read_number(r, 0, CPU_LIST_MAX_ID, &lo);
            int *more = ok && nexcl == excap ? realloc(excl, (excap *= 2) * sizeof *excl) : excl;
            if (ok && !more)
                ok = fail(r, "out of memory");
            if (ok) {
                excl = more;
                excl[nexcl++] = (int)lo;
            }
            continue;
        }
        ok = read_number(r, 0, CPU_LIST_MAX_ID, &lo) && read_interval(r, CPU_LIST_MAX_ID + 1, &len, &stride);
        for (long long k = 0; ok && k < len; k++) {
            long long id = lo + k * stride;
            ok = cpu_in_range(r, id);
            if (!ok || r->in_place[id])
                continue;
            int *more = n == cap ? realloc(ids, (cap *= 2) * sizeof *ids) : ids;
            if (!more) {
                ok = fail(r, "out of memory");
                continue;
            }
            ids = more;
            r->in_place[id] = 1;
            ids[n++] = (int)id;
        }
    } while (ok && next_is(r, ','));
    if (ok && !next_is(r, '}'))
        ok = syntax_error(r);
    for (size_t i = 0; ok && i < nexcl; i++) {
        if (!r->in_place[excl[i]])
            ok = fail(r, "CPU %d to exclude is not in its place", excl[i]);
        else
            r->in_place[excl[i]] = 0;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) { /* the flags are cleared for the next place */
        if (r->in_place[ids[i]])
            ids[kept++] = ids[i];
        r->in_place[ids[i]] = 0;
    }
    free(excl);
    if (!ok) {
        free(ids);
        return false;
    }
    out->ids = ids;
    out->count = kept;
    return true;
}

/* a and b hold the same CPUs (each lists a CPU once); the flags are left clear. */
static bool same_set(places_reader *r, const cpu_list *a, const cpu_list *b)
{
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < b->count; i++)
        r->in_place[b->ids[i]] = 1;
    bool same = true;
    for (size_t i = 0; same && i < a->count; i++)
        same = r->in_place[a->ids[i]];
    for (size_t i = 0; i < b->count; i++)
        r->in_place[b->ids[i]] = 0;
    return same;
}

/* One item of the list: "!{...}" removes the first earlier place equal to it (as a
 * set); "{...}[:len[:stride]]" adds len places, each the previous moved by stride. */
static bool read_item(places_reader *r)
{
    cpu_list place;
    if (next_is(r, '!')) {
        if (!read_place(r, &place))
            return false;
        size_t i = 0;
        while (i < r->nraw && !same_set(r, &r->raw[i], &place))
            i++;
        cpu_list_free(&place);
        if (i == r->nraw)
            return fail(r, "a place to exclude is not among the places before it");
        r->raw_cpus -= r->raw[i].count;
        cpu_list_free(&r->raw[i]);
        memmove(&r->raw[i], &r->raw[i + 1], (r->nraw - i - 1) * sizeof *r->raw);
        r->nraw--;
        return true;
    }
    long long len, stride;
    if (!read_place(r, &place))
        return false;
    int *moved = malloc((place.count ? place.count : 1) * sizeof *moved);
    bool ok = moved ? read_interval(r, MAX_RAW_PLACES, &len, &stride) : fail(r, "out of memory");
    for (long long k = 0; ok && k < len; k++) {
        for (size_t i = 0; ok && i < place.count; i++) { /* place k: the first moved by k x stride */
            long long id = place.ids[i] + k * stride;
            ok = cpu_in_range(r, id);
            moved[i] = (int)id;
        }
        ok = ok && add_raw(r, moved, place.count);
    }
    free(moved);
    cpu_list_free(&place);
    return ok;
}

/* Explicit places, then only the usable CPUs of each (a place left with none is
 * dropped, as libgomp does). */
static bool parse_explicit_places(places_reader *r, omp_place_list *pl)
{
    bool ok = true;
    do
        ok = read_item(r);
    while (ok && next_is(r, ','));
    skip_blanks(r);
    if (ok && *r->p)
        ok = syntax_error(r);
    int *usable = ok ? malloc(sizeof(int) * (r->raw_cpus ? r->raw_cpus : 1)) : NULL;
    if (ok && !usable)
        ok = fail(r, "out of memory");
    for (size_t i = 0; ok && i < r->nraw; i++) {
        size_t n = 0;
        for (size_t j = 0; j < r->raw[i].count; j++) {
            const cpu_info *c = topology_cpu(r->t, r->raw[i].ids[j]);
            if (c && c->usable)
                usable[n++] = r->raw[i].ids[j];
        }
        if (!omp_places_add(pl, usable, n))
            ok = fail(r, "more than %d places with usable CPUs", OMP_MAX_PLACES);
    }
    free(usable);
    if (ok && r->nraw == 0)
        ok = fail(r, "every place was excluded");
    if (ok && pl->n == 0) {
        char have[256];
        cpu_list_format(r->t->usable.ids, r->t->usable.count, have, sizeof have);
        ok = fail(r, "none of its CPUs is usable here (usable: %s)", have);
    }
    return ok;
}

/* The len characters at word are name, in any case. */
static bool same_word(const char *word, size_t len, const char *name)
{
    if (strlen(name) != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char)word[i]) != name[i])
            return false;
    return true;
}

/* "name" or "name(count)", blanks allowed around each part, any case. */
static bool parse_named_places(places_reader *r, omp_place_list *pl)
{
    static const struct {
        const char *name;
        group_key key;
    } names[] = {{"threads", key_thread}, {"cores", key_core}, {"sockets", key_socket},
                 {"numa_domains", key_node}, {"ll_caches", key_llc}};
    skip_blanks(r);
    size_t wl = 0;
    while (isalpha((unsigned char)r->p[wl]) || r->p[wl] == '_')
        wl++;
    size_t i = 0;
    while (i < sizeof names / sizeof names[0] && !same_word(r->p, wl, names[i].name))
        i++;
    if (i == sizeof names / sizeof names[0])
        return fail(r, "unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})");
    r->p += wl;
    long long count = LLONG_MAX;
    if (next_is(r, '(')) {
        if (!read_number(r, 0, LLONG_MAX, &count))
            return false;
        if (count == 0)
            return fail(r, "the count of places must be 1 or more");
        if (!next_is(r, ')'))
            return syntax_error(r);
    }
    skip_blanks(r);
    if (*r->p)
        return syntax_error(r);
    if (!group_places(r->t, names[i].key, pl))
        return fail(r, "out of memory");
    while ((long long)pl->n > count)
        cpu_list_free(&pl->lists[--pl->n]);
    return true;
}

bool omp_places_parse(const topology *t, const char *text, omp_place_list *out, char *err, size_t errlen)
{
    out->lists = NULL;
    out->n = 0;
    places_reader r = {t, text, text, err, errlen, NULL, 0, 0, 0, NULL, false};
    if (errlen)
        err[0] = '\0';
    skip_blanks(&r);
    bool ok;
    if (*r.p == '{' || *r.p == '!') {
        r.in_place = calloc(CPU_LIST_MAX_ID + 1, 1);
        ok = r.in_place ? parse_explicit_places(&r, out) : fail(&r, "out of memory");
    } else {
        r.named = true;
        ok = parse_named_places(&r, out);
    }
    for (size_t i = 0; i < r.nraw; i++)
        cpu_list_free(&r.raw[i]);
    free(r.raw);
    free(r.in_place);
    if (!ok)
        omp_places_free(out);
    return ok;
}

/* One OMP_PROC_BIND word, any case; false when unknown. */
static bool bind_word(const char *word, size_t len, omp_bind *out, bool *alone)
{
    static const struct {
        const char *name;
        omp_bind kind;
        bool alone; /* true and false are never part of a list */
    } words[] = {{"spread", OMP_BIND_SPREAD, false}, {"close", OMP_BIND_CLOSE, false},
                 {"primary", OMP_BIND_PRIMARY, false}, {"master", OMP_BIND_PRIMARY, false},
                 {"true", OMP_BIND_SPREAD, true},       {"false", OMP_BIND_FALSE, true}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (same_word(word, len, words[i].name)) {
            *out = words[i].kind;
            *alone = words[i].alone;
            return true;
        }
    return false;
}

bool omp_proc_bind_parse(const char *text, omp_bind *out, char *err, size_t errlen)
{
    const char *p = text;
    size_t items = 0;
    bool any_alone = false;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        size_t len = 0;
        while (isalpha((unsigned char)p[len]))
            len++;
        omp_bind kind;
        bool alone;
        if (!bind_word(p, len, &kind, &alone))
            goto bad;
        if (items++ == 0)
            *out = kind; /* the outermost level: the one our team is */
        any_alone = any_alone || alone;
        p += len;
        while (isspace((unsigned char)*p))
            p++;
        if (*p != ',')
            break;
        p++;
    }
    if (*p == '\0' && !(any_alone && items > 1))
        return true;
bad:
    snprintf(err, errlen,
             "OMP_PROC_BIND='%s': unknown (use spread, close, master, true, false, or a list such as spread,close)",
             text);
    return false;
}
