/* SPDX-License-Identifier: MIT */
#include "core/run_info.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform/platform.h"

void run_info_start(run_info *info, const char *mode, int argc, char **argv, const topology *t)
{
    info->mode = mode;
    info->argc = argc;
    info->argv = argv;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(info->started_at, sizeof info->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    platform_hostname(info->hostname, sizeof info->hostname);
    platform_cpu_model(info->cpu_model, sizeof info->cpu_model);
    platform_kernel(info->os_kernel, sizeof info->os_kernel);
    info->topo = t;
}

static void keep_text(char ***list, size_t *n, const char *text)
{
    char **w = realloc(*list, (*n + 1) * sizeof *w);
    if (!w)
        return;
    *list = w;
    w[*n] = strdup(text);
    if (w[*n])
        (*n)++;
}

void run_info_warn(run_info *info, warn_kind kind, const char *text)
{
    warn_kind *k = realloc(info->warning_kinds, (info->nwarnings + 1) * sizeof *k);
    if (!k)
        return;
    info->warning_kinds = k;
    k[info->nwarnings] = kind; /* kept by keep_text's count: the two stay in step */
    keep_text(&info->warnings, &info->nwarnings, text);
}

void run_info_error(run_info *info, const char *text)
{
    keep_text(&info->errors, &info->nerrors, text);
}

static void free_threads(run_placement *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->threads[i].cpus);
    free(p->threads);
    p->threads = NULL;
    p->n = 0;
}

run_thread *run_info_set_threads(run_info *info, int n)
{
    free_threads(&info->placement);
    info->placement.threads = calloc(n > 0 ? (size_t)n : 1, sizeof *info->placement.threads);
    if (info->placement.threads)
        info->placement.n = n;
    return info->placement.threads;
}

void run_info_free(run_info *info)
{
    for (size_t i = 0; i < info->nwarnings; i++)
        free(info->warnings[i]);
    free(info->warnings);
    free(info->warning_kinds);
    for (size_t i = 0; i < info->nerrors; i++)
        free(info->errors[i]);
    free(info->errors);
    free_threads(&info->placement);
    params_free(&info->options);
    section_free(&info->plan);
    section_free(&info->analysis);
    memset(info, 0, sizeof *info);
}
