/* SPDX-License-Identifier: MIT */
#include "plan/placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/omp_places.h"

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

    omp_bind bind = OMP_BIND_SPREAD;
    if (rq->omp_bind && !omp_proc_bind_parse(rq->omp_bind, &bind, err, errlen)) { /* set but empty: refused */
        placement_free(out);
        return false;
    }
    if (bind == OMP_BIND_FALSE) {
        for (int i = 0; i < n && ok; i++)
            ok = set_place(t, &out->places[i], t->usable.ids, usable);
        out->pinned = false;
        snprintf(out->policy, sizeof out->policy, "unpinned (OMP_PROC_BIND=false)");
        goto done;
    }

    omp_place_list pl = {NULL, 0};
    if (rq->omp_places) {
        if (!omp_places_parse(t, rq->omp_places, &pl, err, errlen)) {
            placement_free(out);
            return false;
        }
        snprintf(out->policy, sizeof out->policy, "OMP_PLACES=%.40s, %s", rq->omp_places,
                 bind == OMP_BIND_CLOSE ? "close" : bind == OMP_BIND_PRIMARY ? "master" : "spread");
    } else {
        /* No places given: each usable CPU is a place, in spread order for spread
         * (nodes, then cores, then siblings) and in id order for close/master. */
        int *order = malloc(sizeof(int) * (usable ? usable : 1));
        size_t m = 0;
        if (order && bind == OMP_BIND_SPREAD)
            m = placement_spread_order(t, order, usable);
        else if (order) {
            memcpy(order, t->usable.ids, sizeof(int) * usable);
            m = usable;
        }
        for (size_t i = 0; i < m && ok; i++)
            ok = omp_places_add(&pl, &order[i], 1);
        free(order);
        snprintf(out->policy, sizeof out->policy, "%s",
                 bind == OMP_BIND_SPREAD ? "spread: NUMA nodes, then cores, then SMT siblings"
                 : bind == OMP_BIND_CLOSE ? "close (OMP_PROC_BIND)"
                                          : "master (OMP_PROC_BIND): all threads on the first CPU");
    }
    size_t p = pl.n;
    for (int i = 0; i < n && ok && p > 0; i++) {
        size_t k;
        if (bind == OMP_BIND_PRIMARY)
            k = 0;
        else if (!rq->omp_places && bind == OMP_BIND_SPREAD)
            k = (size_t)i % p; /* the order already spreads */
        else if (bind == OMP_BIND_CLOSE && (size_t)n <= p)
            k = (size_t)i;
        else
            k = (size_t)i * p / (size_t)n; /* OpenMP spread: evenly spaced places */
        ok = set_place(t, &out->places[i], pl.lists[k].ids, pl.lists[k].count);
    }
    omp_places_free(&pl);
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

bool placement_one_per_cpu(const topology *t, const int *cpus, int n, placement *out)
{
    out->places = calloc((size_t)(n > 0 ? n : 1), sizeof *out->places);
    out->n = out->places ? n : 0;
    out->pinned = true;
    for (int i = 0; i < out->n; i++) {
        thread_place *p = &out->places[i];
        p->cpus.ids = malloc(sizeof *p->cpus.ids);
        if (!p->cpus.ids) {
            placement_free(out);
            return false;
        }
        p->cpus.ids[0] = p->cpu = cpus[i];
        p->cpus.count = 1;
        p->node = topology_cpu(t, cpus[i])->node;
        p->mem_node = topology_memory_node(t, p->node);
    }
    return out->places != NULL;
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
