/* SPDX-License-Identifier: MIT */
#include "cluster/host_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

bool host_share_split(const cpu_list *cpus, int index, int count, cpu_list *out, char *err, size_t errlen)
{
    out->ids = NULL;
    out->count = 0;
    if (count < 1 || index < 0 || index >= count) {
        snprintf(err, errlen, "rank %d of %d on this host: no such share", index, count);
        return false;
    }
    if (cpus->count < (size_t)count) {
        snprintf(err, errlen, "%d ranks share this host but it has only %zu usable CPU%s: one CPU each at least",
                 count, cpus->count, cpus->count == 1 ? "" : "s");
        return false;
    }
    int *sorted = malloc(cpus->count * sizeof *sorted);
    if (!sorted) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(sorted, cpus->ids, cpus->count * sizeof *sorted);
    qsort(sorted, cpus->count, sizeof *sorted, compare_int);
    size_t base = cpus->count / (size_t)count, extra = cpus->count % (size_t)count;
    size_t i = (size_t)index;
    size_t start = i * base + (i < extra ? i : extra);
    size_t len = base + (i < extra ? 1 : 0);
    memmove(sorted, sorted + start, len * sizeof *sorted);
    out->ids = sorted;
    out->count = len;
    return true;
}

int host_share_ranks(const char *const *hosts, int n, int rank, char *buf, size_t size)
{
    int same = 0;
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(hosts[i], hosts[rank]) != 0)
            continue;
        same++;
        if (used < size) {
            int w = snprintf(buf + used, size - used, "%s%d", used ? "," : "", i);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    return same;
}
