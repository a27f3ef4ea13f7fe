/* SPDX-License-Identifier: MIT */
#include "output/warning_summary.h"

#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"

typedef struct {
    sink base;
    FILE *f;
    char who[64];
} summary_sink;

static void say_kind(const summary_sink *k, const run_info *info, warn_kind kind, size_t first, size_t count)
{
    const warn_kind_info *w = warn_kind_get(kind);
    fprintf(k->f, "%s: warning: ", k->who);
    if (count == 1) { /* the warning itself says more than a count of one */
        one_line_put(k->f, info->warnings[first]); /* it may quote sysfs or CPUID text */
    } else {
        fprintf(k->f, "%s x%zu: %s (each: -v, or \"warnings\" in --json", w->key, count, w->group);
        if (w->see)
            fprintf(k->f, "; see %s", w->see);
        fputc(')', k->f);
    }
    fputc('\n', k->f);
}

static void summary_end(sink *s, const run_info *info)
{
    const summary_sink *k = (const summary_sink *)s;
    bool said[WARN_KIND_COUNT] = {false};
    for (size_t i = 0; i < info->nwarnings; i++) {
        warn_kind kind = info->warning_kinds[i];
        const warn_kind_info *w = warn_kind_get(kind);
        if (!w || !w->reading || said[kind])
            continue;
        said[kind] = true;
        size_t count = 0;
        for (size_t j = i; j < info->nwarnings; j++)
            count += info->warning_kinds[j] == kind;
        say_kind(k, info, kind, i, count);
    }
    fflush(k->f);
}

static void summary_destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {NULL, NULL, summary_end, summary_destroy, NULL};

sink *warning_summary_sink_create(FILE *f, const char *who)
{
    summary_sink *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->base.ops = &ops;
    k->f = f;
    snprintf(k->who, sizeof k->who, "%s", who);
    return &k->base;
}
