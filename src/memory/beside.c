/* SPDX-License-Identifier: MIT */
#include "memory/beside.h"

#include <pthread.h>

#include "platform/platform.h"

typedef struct {
    beside_part_fn fn;
    void *arg;
    size_t part, parts;
    int cpu;
    bool pinned, ok;
} beside_part;

static void *beside_helper(void *arg)
{
    beside_part *p = arg;
    p->pinned = platform_pin_self(&p->cpu, 1);
    if (p->pinned) /* unpinned, its pages could land on another node: the caller does them */
        p->ok = p->fn(p->arg, p->part, p->parts);
    return NULL;
}

bool beside_run(size_t parts, const int *helpers, size_t nhelpers, beside_part_fn fn, void *arg)
{
    if (parts > 1 + nhelpers)
        parts = 1 + nhelpers;
    if (parts > 1 + BESIDE_MAX_HELPERS)
        parts = 1 + BESIDE_MAX_HELPERS;
    if (parts <= 1)
        return fn(arg, 0, 1);
    beside_part p[BESIDE_MAX_HELPERS];
    pthread_t tid[BESIDE_MAX_HELPERS];
    bool started[BESIDE_MAX_HELPERS];
    for (size_t k = 1; k < parts; k++) {
        p[k - 1] = (beside_part){fn, arg, k, parts, helpers[k - 1], false, false};
        started[k - 1] = pthread_create(&tid[k - 1], NULL, beside_helper, &p[k - 1]) == 0;
    }
    bool ok = fn(arg, 0, parts);
    for (size_t k = 1; k < parts; k++) {
        if (started[k - 1])
            pthread_join(tid[k - 1], NULL);
        if (!started[k - 1] || !p[k - 1].pinned)
            p[k - 1].ok = ok && fn(arg, k, parts);
        ok = ok && p[k - 1].ok;
    }
    return ok;
}
