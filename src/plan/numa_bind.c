/* SPDX-License-Identifier: MIT */
#include "plan/numa_bind.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What every message needs: which flag, the list as given, where the line goes. */
typedef struct {
    const char *flag, *list;
    bool cpus;
    char *err;
    size_t errlen;
} bind_ctx;

/* One entry, START[_LEN][-END][#STEP][xMUL], with the defaults filled in. */
typedef struct {
    int start, len, end, step, mul;
    char shown[96]; /* the entry as messages show it (escaped, maybe cut) */
} bind_entry;

/* The markers, in the order of bind_entry's fields after start. */
static const char MARKS[] = "_-#x";

static size_t escaped_width(unsigned char ch)
{
    return isprint(ch) ? 1 : 4;
}

/* Copies s[0..n) into dst[cap] (cap > 4), a byte that is not printable as
 * \xNN so that a list holding a newline still gives one line. What does not fit
 * is cut at a whole character and marked "...". */
static void escape(char *dst, size_t cap, const char *s, size_t n)
{
    size_t whole = 0, used = 0;
    for (size_t i = 0; i < n; i++)
        whole += escaped_width((unsigned char)s[i]);
    size_t room = whole < cap ? cap - 1 : cap - 4; /* leave room for "..." when cut */
    for (size_t i = 0; i < n && used + escaped_width((unsigned char)s[i]) <= room; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (isprint(ch))
            dst[used++] = (char)ch;
        else
            used += (size_t)snprintf(dst + used, 5, "\\x%02x", ch);
    }
    strcpy(dst + used, whole < cap ? "" : "...");
}

static bool fail(const bind_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "-C 'LIST': " and the rest: one line. */
static bool fail(const bind_ctx *c, const char *fmt, ...)
{
    char list[160];
    escape(list, sizeof list, c->list, strlen(c->list));
    int n = snprintf(c->err, c->errlen, "%s '%s': ", c->flag, list);
    if (n >= 0 && (size_t)n < c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *grammar(const bind_ctx *c)
{
    return c->cpus ? "START[_LEN][-END][#STEP][xMUL]" : "START[-END][#STEP][xMUL]";
}

static const char *id_word(const bind_ctx *c)
{
    return c->cpus ? "CPU" : "node";
}

/* Reads the digits at *p (before end) into *out. A number beyond INT_MAX is
 * refused here, naming its digits, rather than wrapped into a small valid id. */
static bool read_number(const bind_ctx *c, const bind_entry *e, const char **p, const char *end, int *out)
{
    const char *s = *p;
    long long v = 0;
    while (s < end && isdigit((unsigned char)*s)) {
        if (v <= INT_MAX)
            v = v * 10 + (*s - '0');
        s++;
    }
    if (v > INT_MAX)
        return fail(c, "'%s': %.*s is too large", e->shown, (int)(s - *p), *p);
    *out = (int)v;
    *p = s;
    return true;
}

static bool unexpected(const bind_ctx *c, const bind_entry *e, char ch)
{
    if (isprint((unsigned char)ch))
        return fail(c, "'%s': unexpected '%c' (entries are %s)", e->shown, ch, grammar(c));
    return fail(c, "'%s': unexpected byte 0x%02x (entries are %s)", e->shown, (unsigned char)ch, grammar(c));
}

/* One marker and its number; each marker at most once, _LEN only in CPU lists. */
static bool parse_part(const bind_ctx *c, bind_entry *e, const char **p, const char *end, bool seen[4])
{
    const char *m = strchr(MARKS, **p);
    if (**p == '\0' || !m)
        return unexpected(c, e, **p);
    int k = (int)(m - MARKS);
    if (k == 0 && !c->cpus)
        return fail(c, "'%s': _LEN is only for CPU lists (-C)", e->shown);
    if (seen[k])
        return fail(c, "'%s': '%c' is given twice", e->shown, *m);
    seen[k] = true;
    (*p)++;
    if (*p == end || !isdigit((unsigned char)**p))
        return fail(c, "'%s': '%c' needs a number after it", e->shown, *m);
    int *field[4] = {&e->len, &e->end, &e->step, &e->mul};
    return read_number(c, e, p, end, field[k]);
}

/* The grammar of text[0..n): START first, then the markers in any order. */
static bool parse_entry(const bind_ctx *c, const char *text, size_t n, bind_entry *e)
{
    *e = (bind_entry){.len = 1, .step = 1, .mul = 1};
    escape(e->shown, sizeof e->shown, text, n);
    if (n == 0)
        return fail(c, "empty entry");
    const char *p = text, *end = text + n;
    if (!isdigit((unsigned char)*p))
        return fail(c, "'%s' does not start with a number (entries are %s)", e->shown, grammar(c));
    if (!read_number(c, e, &p, end, &e->start))
        return false;
    bool seen[4] = {false, false, false, false};
    while (p < end)
        if (!parse_part(c, e, &p, end, seen))
            return false;
    if (!seen[1])
        e->end = e->start;
    return true;
}

/* The last value the entry reaches (START, START+STEP, ... <= END). */
static long long last_value(const bind_entry *e)
{
    return e->start + (long long)(e->end - e->start) / e->step * e->step;
}

/* Ranges: ids within CPU_LIST_MAX_ID, START <= END, no zero counts. */
static bool check_entry(const bind_ctx *c, const bind_entry *e)
{
    const char *what = id_word(c);
    if (e->start > CPU_LIST_MAX_ID || e->end > CPU_LIST_MAX_ID)
        return fail(c, "'%s': %s %d is above %d, the largest %s id", e->shown, what,
                    e->start > CPU_LIST_MAX_ID ? e->start : e->end, CPU_LIST_MAX_ID, what);
    if (e->start > e->end)
        return fail(c, "'%s': START %d is above END %d", e->shown, e->start, e->end);
    if (e->len == 0 || e->step == 0 || e->mul == 0)
        return fail(c, "'%s': %s must be at least 1", e->shown,
                    e->len == 0 ? "_LEN" : e->step == 0 ? "#STEP" : "xMUL");
    long long top = last_value(e) + e->len - 1; /* the last CPU of the last binding */
    if (top > CPU_LIST_MAX_ID)
        return fail(c, "'%s': CPU %lld is above %d, the largest CPU id", e->shown, top, CPU_LIST_MAX_ID);
    return true;
}

/* Calls fn on every entry of the list, parsed and range-checked, in order. */
typedef bool (*entry_fn)(const bind_ctx *c, const bind_entry *e, void *arg);

static bool each_entry(const bind_ctx *c, entry_fn fn, void *arg)
{
    const char *p = c->list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        bind_entry e;
        if (!parse_entry(c, p, n, &e) || !check_entry(c, &e) || (fn && !fn(c, &e, arg)))
            return false;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

bool numa_bind_syntax(const char *flag, const char *list, bool cpus, char *err, size_t errlen)
{
    bind_ctx c = {flag, list ? list : "", cpus, err, errlen};
    return each_entry(&c, NULL, NULL);
}

/* What the expansion works on: the binding being filled, and for CPU lists one
 * bit per usable CPU id so a binding is checked without searching the topology. */
typedef struct {
    const topology *t;
    numa_binding *b;
    unsigned char *usable;
} bind_state;

static bool is_usable(const bind_state *s, int id)
{
    return s->usable[id / 8] & (1u << (id % 8));
}

/* How many of MUL tasks get a binding; the rest are counted as ignored without
 * a loop, so "0x2000000000"-sized multipliers cost nothing. Saturates at INT_MAX. */
static int take_tasks(numa_binding *b, int mul)
{
    int room = b->ntasks - b->bound;
    int take = mul < room ? mul : room;
    int extra = mul - take;
    b->ignored = b->ignored > INT_MAX - extra ? INT_MAX : b->ignored + extra;
    return take;
}

static bool cpu_unusable(const bind_ctx *c, const topology *t, int cpu)
{
    char *usable = cpu_list_format_alloc(t->usable.ids, t->usable.count);
    fail(c, "CPU %d is not available to this process (usable: %s)", cpu, usable ? usable : "?");
    free(usable);
    return false;
}

/* Every value of the entry is checked, also those past the last task: a list
 * naming a CPU that is not here is a mistake whether or not it is used. */
static bool expand_cpus(const bind_ctx *c, const bind_entry *e, void *arg)
{
    bind_state *s = arg;
    for (int v = e->start; v <= e->end; v += e->step) {
        for (int k = 0; k < e->len; k++)
            if (!is_usable(s, v + k))
                return cpu_unusable(c, s->t, v + k);
        for (int n = take_tasks(s->b, e->mul); n > 0; n--) {
            cpu_list *l = &s->b->cpus[s->b->bound];
            l->ids = malloc((size_t)e->len * sizeof *l->ids);
            if (!l->ids)
                return fail(c, "out of memory");
            for (int k = 0; k < e->len; k++)
                l->ids[k] = v + k;
            l->count = (size_t)e->len;
            s->b->bound++;
        }
        if (e->end - v < e->step)
            break; /* v += step would pass END (and could overflow at INT_MAX) */
    }
    return true;
}

static bool node_missing(const bind_ctx *c, const topology *t, int node)
{
    int *ids = malloc((t->nnodes ? t->nnodes : 1) * sizeof *ids);
    for (size_t i = 0; ids && i < t->nnodes; i++)
        ids[i] = t->nodes[i].id;
    char *nodes = ids ? cpu_list_format_alloc(ids, t->nnodes) : NULL;
    fail(c, "no NUMA node %d here (nodes: %s)", node, nodes ? nodes : "?");
    free(nodes);
    free(ids);
    return false;
}

/* A node must hold memory; whether it has CPUs does not matter (CXL, HBM). */
static bool expand_nodes(const bind_ctx *c, const bind_entry *e, void *arg)
{
    bind_state *s = arg;
    for (int v = e->start; v <= e->end; v += e->step) {
        const numa_node *n = topology_node(s->t, v);
        if (!n)
            return node_missing(c, s->t, v);
        if (n->mem_total == 0)
            return fail(c, "NUMA node %d has no memory", v);
        for (int k = take_tasks(s->b, e->mul); k > 0; k--)
            s->b->nodes[s->b->bound++] = v;
        if (e->end - v < e->step)
            break;
    }
    return true;
}

/* Both arrays for every task, all unbound, so either may be read whichever list
 * was given. */
static bool allocate(numa_binding *b, int ntasks)
{
    size_t n = ntasks > 0 ? (size_t)ntasks : 1;
    b->ntasks = ntasks;
    b->cpus = calloc(n, sizeof *b->cpus);
    b->nodes = malloc(n * sizeof *b->nodes);
    if (!b->cpus || !b->nodes)
        return false;
    for (size_t i = 0; i < n; i++)
        b->nodes[i] = -1;
    return true;
}

static bool expand(const bind_ctx *c, const topology *t, int ntasks, numa_binding *b)
{
    memset(b, 0, sizeof *b);
    /* the whole list's syntax first, so a later malformed entry is named before
     * an earlier entry's missing CPU, as the option parser would */
    if (!each_entry(c, NULL, NULL))
        return false;
    if (ntasks < 0)
        return fail(c, "cannot bind %d tasks", ntasks);
    bind_state s = {t, b, NULL};
    bool ok = allocate(b, ntasks);
    if (ok && c->cpus) {
        s.usable = calloc(CPU_LIST_MAX_ID / 8 + 1, 1);
        for (size_t i = 0; s.usable && i < t->ncpus; i++)
            if (t->cpus[i].usable && t->cpus[i].id >= 0 && t->cpus[i].id <= CPU_LIST_MAX_ID)
                s.usable[t->cpus[i].id / 8] |= (unsigned char)(1u << (t->cpus[i].id % 8));
        ok = s.usable != NULL;
    }
    if (!ok)
        fail(c, "out of memory");
    else
        ok = each_entry(c, c->cpus ? expand_cpus : expand_nodes, &s);
    free(s.usable);
    if (!ok)
        numa_binding_free(b);
    return ok;
}

bool numa_bind_cpus(const topology *t, const char *list, int ntasks, numa_binding *b, char *err, size_t errlen)
{
    bind_ctx c = {"-C", list ? list : "", true, err, errlen};
    return expand(&c, t, ntasks, b);
}

bool numa_bind_nodes(const topology *t, const char *list, int ntasks, numa_binding *b, char *err, size_t errlen)
{
    bind_ctx c = {"-M", list ? list : "", false, err, errlen};
    return expand(&c, t, ntasks, b);
}

void numa_binding_free(numa_binding *b)
{
    for (int i = 0; b->cpus && i < b->ntasks; i++)
        cpu_list_free(&b->cpus[i]);
    free(b->cpus);
    free(b->nodes);
    memset(b, 0, sizeof *b);
}
