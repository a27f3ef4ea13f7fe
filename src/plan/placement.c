#include "plan/placement.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse_number.h"

#define MAX_PLACES 4096

typedef struct {
    cpu_list *lists;
    size_t n;
} place_list;

static void places_free(place_list *pl)
{
    for (size_t i = 0; i < pl->n; i++)
        cpu_list_free(&pl->lists[i]);
    free(pl->lists);
    pl->lists = NULL;
    pl->n = 0;
}

static bool places_add(place_list *pl, const int *ids, size_t count)
{
    if (count == 0)
        return true; /* a place with no usable CPU is dropped */
    if (pl->n >= MAX_PLACES)
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

static int compare_spread(const void *a, const void *b, void *ctx);

static const topology *sort_topology; /* qsort has no context argument in C11 */

static int compare_cpu_spread(const void *a, const void *b)
{
    return compare_spread(a, b, (void *)sort_topology);
}

static int compare_spread(const void *a, const void *b, void *ctx)
{
    const topology *t = ctx;
    const cpu_info *x = topology_cpu(t, *(const int *)a), *y = topology_cpu(t, *(const int *)b);
    if (x->smt_rank != y->smt_rank)
        return x->smt_rank - y->smt_rank;
    return x->id - y->id;
}

size_t placement_spread_order(const topology *t, int *out, size_t cap)
{
    size_t n = 0;
    /* Per node: usable CPUs with first hardware threads of each core first. */
    int **per_node = calloc(t->nnodes ? t->nnodes : 1, sizeof *per_node);
    size_t *counts = calloc(t->nnodes ? t->nnodes : 1, sizeof *counts);
    if (!per_node || !counts) {
        free(per_node);
        free(counts);
        return 0;
    }
    for (size_t k = 0; k < t->nnodes; k++) {
        per_node[k] = malloc(sizeof(int) * (t->ncpus ? t->ncpus : 1));
        if (!per_node[k])
            continue;
        for (size_t i = 0; i < t->ncpus; i++)
            if (t->cpus[i].usable && t->cpus[i].node == t->nodes[k].id)
                per_node[k][counts[k]++] = t->cpus[i].id;
        sort_topology = t;
        qsort(per_node[k], counts[k], sizeof(int), compare_cpu_spread);
    }
    /* Round-robin over nodes. */
    for (size_t round = 0; n < cap; round++) {
        bool any = false;
        for (size_t k = 0; k < t->nnodes && n < cap; k++)
            if (round < counts[k]) {
                out[n++] = per_node[k][round];
                any = true;
            }
        if (!any)
            break;
    }
    /* CPUs on no listed node (a sysfs tree without node directories for them). */
    for (size_t i = 0; i < t->ncpus && n < cap; i++) {
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = out[j] == t->cpus[i].id;
        if (t->cpus[i].usable && !seen)
            out[n++] = t->cpus[i].id;
    }
    for (size_t k = 0; k < t->nnodes; k++)
        free(per_node[k]);
    free(per_node);
    free(counts);
    return n;
}

/* Groups usable CPUs by a key (core, package, node, LLC instance), places in order
 * of each group's lowest CPU id. */
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

static bool group_places(const topology *t, group_key key, place_list *pl)
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
        ok = places_add(pl, ids, n);
    }
    free(done);
    free(ids);
    return ok;
}

/* Explicit places: "{0,1},{2,3}", "{0:4}", "{0:4:2}" (start:length[:stride]). */
static bool parse_explicit_places(const topology *t, const char *text, place_list *pl)
{
    const char *p = text;
    while (*p) {
        if (*p != '{')
            return false;
        p++;
        int ids[1024];
        size_t n = 0;
        for (;;) {
            char *end;
            if (!isdigit((unsigned char)*p))
                return false;
            long lo = strtol(p, &end, 10), len = 1, stride = 1;
            p = end;
            if (*p == ':') {
                if (!isdigit((unsigned char)p[1]))
                    return false;
                len = strtol(p + 1, &end, 10);
                p = end;
                if (*p == ':') {
                    if (!isdigit((unsigned char)p[1]) && p[1] != '-')
                        return false;
                    stride = strtol(p + 1, &end, 10);
                    p = end;
                }
            }
            /* Bounding the stride keeps lo + k * stride far from overflow. */
            if (lo < 0 || lo > CPU_LIST_MAX_ID || len < 1 || len > 1024 || stride == 0 ||
                stride < -CPU_LIST_MAX_ID || stride > CPU_LIST_MAX_ID)
                return false;
            for (long k = 0; k < len; k++) {
                long id = lo + k * stride;
                if (id < 0 || id > CPU_LIST_MAX_ID || n >= 1024)
                    return false;
                const cpu_info *c = topology_cpu(t, (int)id);
                if (c && c->usable)
                    ids[n++] = (int)id;
            }
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
        if (!places_add(pl, ids, n))
            return false;
        if (*p == ',')
            p++;
        else if (*p)
            return false;
    }
    return pl->n > 0;
}

static bool parse_places(const topology *t, const char *text, place_list *pl, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        group_key key;
    } names[] = {{"threads", key_thread}, {"cores", key_core}, {"sockets", key_socket},
                 {"numa_domains", key_node}, {"ll_caches", key_llc}};
    char word[32];
    size_t wl = strcspn(text, "(");
    if (text[0] == '{') {
        if (parse_explicit_places(t, text, pl))
            return true;
        places_free(pl);
        snprintf(err, errlen, "OMP_PLACES='%s': not a place list this CPU set can use (e.g. {0,1},{2:2})", text);
        return false;
    }
    if (wl == 0 || wl >= sizeof word) {
        snprintf(err, errlen, "OMP_PLACES='%s': unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})", text);
        return false;
    }
    memcpy(word, text, wl);
    word[wl] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(word, names[i].name) != 0)
            continue;
        if (!group_places(t, names[i].key, pl))
            break;
        if (text[wl] == '(') {
            /* "cores(4)": the first four places */
            char num[32];
            size_t nl = strcspn(text + wl + 1, ")");
            uint64_t count;
            if (nl == 0 || nl >= sizeof num || text[wl + 1 + nl] != ')' || text[wl + 2 + nl] != '\0')
                break;
            memcpy(num, text + wl + 1, nl);
            num[nl] = '\0';
            if (!parse_u64(num, 1, MAX_PLACES, &count))
                break;
            while (pl->n > count)
                cpu_list_free(&pl->lists[--pl->n]);
        } else if (text[wl] != '\0') {
            break;
        }
        return true;
    }
    places_free(pl);
    snprintf(err, errlen, "OMP_PLACES='%s': unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})", text);
    return false;
}

static bool set_place(const topology *t, thread_place *tp, const int *ids, size_t n)
{
    tp->cpus.ids = malloc(sizeof(int) * (n ? n : 1));
    if (!tp->cpus.ids)
        return false;
    memcpy(tp->cpus.ids, ids, sizeof(int) * n);
    tp->cpus.count = n;
    tp->cpu = n ? ids[0] : -1;
    const cpu_info *c = n ? topology_cpu(t, ids[0]) : NULL;
    tp->node = c ? c->node : -1;
    tp->mem_node = c ? topology_memory_node(t, c->node) : -1;
    return true;
}

typedef enum { BIND_SPREAD, BIND_CLOSE, BIND_PRIMARY, BIND_NONE } bind_kind;

static bool parse_bind(const char *text, bind_kind *out, char *err, size_t errlen)
{
    /* Nested lists ("spread,close") describe inner teams; only the first level applies. */
    char first[32];
    size_t len = strcspn(text, ",");
    if (len == 0 || len >= sizeof first)
        goto bad;
    memcpy(first, text, len);
    first[len] = '\0';
    for (char *c = first; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!strcmp(first, "spread") || !strcmp(first, "true"))
        *out = BIND_SPREAD;
    else if (!strcmp(first, "close"))
        *out = BIND_CLOSE;
    else if (!strcmp(first, "master") || !strcmp(first, "primary"))
        *out = BIND_PRIMARY;
    else if (!strcmp(first, "false"))
        *out = BIND_NONE;
    else
        goto bad;
    return true;
bad:
    snprintf(err, errlen, "OMP_PROC_BIND='%s': unknown (use spread, close, master, true or false)", text);
    return false;
}

bool placement_build(const topology *t, const placement_request *rq, placement *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int n = rq->threads;
    size_t usable = t->usable.count;
    if (n <= 0) {
        snprintf(err, errlen, "thread count must be at least 1");
        return false;
    }
    size_t distinct_cpus = rq->cpus ? rq->cpus->count : usable;
    if ((size_t)n > distinct_cpus && !rq->oversubscribe) {
        snprintf(err, errlen, "%d threads but only %zu CPUs %s: add --oversubscribe to run more threads than CPUs",
                 n, distinct_cpus, rq->cpus ? "given in --cpus" : "usable");
        return false;
    }
    out->places = calloc((size_t)n, sizeof *out->places);
    if (!out->places) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    out->n = n;
    out->pinned = true;
    bool ok = true;

    if (rq->cpus && rq->cpus->count == 0) {
        snprintf(err, errlen, "--cpus: the list is empty");
        placement_free(out);
        return false;
    }
    if (rq->cpus) {
        for (size_t i = 0; i < rq->cpus->count; i++) {
            const cpu_info *c = topology_cpu(t, rq->cpus->ids[i]);
            if (!c || !c->usable) {
                char allowed[256];
                cpu_list_format(t->usable.ids, t->usable.count, allowed, sizeof allowed);
                snprintf(err, errlen, "--cpus: CPU %d is not available to this process (usable: %s)",
                         rq->cpus->ids[i], allowed);
                placement_free(out);
                return false;
            }
        }
        for (int i = 0; i < n && ok; i++)
            ok = set_place(t, &out->places[i], &rq->cpus->ids[(size_t)i % rq->cpus->count], 1);
        snprintf(out->policy, sizeof out->policy, "explicit (--cpus)");
        goto done;
    }

    bind_kind bind = BIND_SPREAD;
    if (rq->omp_bind && *rq->omp_bind && !parse_bind(rq->omp_bind, &bind, err, errlen)) {
        placement_free(out);
        return false;
    }
    if (bind == BIND_NONE) {
        for (int i = 0; i < n && ok; i++)
            ok = set_place(t, &out->places[i], t->usable.ids, usable);
        out->pinned = false;
        snprintf(out->policy, sizeof out->policy, "unpinned (OMP_PROC_BIND=false)");
        goto done;
    }

    place_list pl = {NULL, 0};
    if (rq->omp_places && *rq->omp_places) {
        if (!parse_places(t, rq->omp_places, &pl, err, errlen)) {
            placement_free(out);
            return false;
        }
        snprintf(out->policy, sizeof out->policy, "OMP_PLACES=%.40s, %s", rq->omp_places,
                 bind == BIND_CLOSE ? "close" : bind == BIND_PRIMARY ? "master" : "spread");
    } else {
        /* No places given: each usable CPU is a place, in spread order for spread
         * (nodes, then cores, then siblings) and in id order for close/master. */
        int *order = malloc(sizeof(int) * (usable ? usable : 1));
        size_t m = 0;
        if (order && bind == BIND_SPREAD)
            m = placement_spread_order(t, order, usable);
        else if (order) {
            memcpy(order, t->usable.ids, sizeof(int) * usable);
            m = usable;
        }
        for (size_t i = 0; i < m && ok; i++)
            ok = places_add(&pl, &order[i], 1);
        free(order);
        snprintf(out->policy, sizeof out->policy, "%s",
                 bind == BIND_SPREAD ? "spread: NUMA nodes, then cores, then SMT siblings"
                 : bind == BIND_CLOSE ? "close (OMP_PROC_BIND)"
                                      : "master (OMP_PROC_BIND): all threads on the first CPU");
    }
    size_t p = pl.n;
    for (int i = 0; i < n && ok && p > 0; i++) {
        size_t k;
        if (bind == BIND_PRIMARY)
            k = 0;
        else if (!rq->omp_places && bind == BIND_SPREAD)
            k = (size_t)i % p; /* the order already spreads */
        else if (bind == BIND_CLOSE && (size_t)n <= p)
            k = (size_t)i;
        else
            k = (size_t)i * p / (size_t)n; /* OpenMP spread: evenly spaced places */
        ok = set_place(t, &out->places[i], pl.lists[k].ids, pl.lists[k].count);
    }
    places_free(&pl);
    if (p == 0) {
        placement_free(out);
        snprintf(err, errlen, "no usable CPU in the places given");
        return false;
    }
done:
    if (!ok) {
        placement_free(out);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}

void placement_free(placement *p)
{
    for (int i = 0; p->places && i < p->n; i++)
        cpu_list_free(&p->places[i].cpus);
    free(p->places);
    p->places = NULL;
    p->n = 0;
}

void placement_primary_cpus(const placement *p, int *out)
{
    for (int i = 0; i < p->n; i++)
        out[i] = p->places[i].cpu;
}

char *placement_cpus_text(const placement *p)
{
    bool multi = false;
    size_t size = 1;
    for (int i = 0; i < p->n; i++) {
        multi = multi || p->places[i].cpus.count > 1;
        size += 12 * p->places[i].cpus.count + 2; /* as cpu_list_format_alloc, plus a separator or "?" */
    }
    char *buf = malloc(size);
    if (!buf)
        return NULL;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->n; i++) {
        char *one = cpu_list_format_alloc(p->places[i].cpus.ids, p->places[i].cpus.count);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? (multi ? "|" : ",") : "", one ? one : "?");
        free(one);
    }
    return buf;
}
