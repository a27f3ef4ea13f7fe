/* SPDX-License-Identifier: MIT */
/* How fast this host backs memory a process writes for the first time (issue 44):
 *   first_touch MIB MODE     MODE: touch (a write a 4 KiB page), thp (the same after
 *                            MADV_HUGEPAGE), populate (MADV_POPULATE_WRITE, then memset)
 * Prints seconds and GB/s. Run each mode alternately, fresh processes, under the lock:
 *   cc -O2 -o /tmp/first_touch bench/first_touch.c
 *   for i in 1 2 3; do for m in touch thp populate; do flock -x /tmp/bench.lock /tmp/first_touch 1024 $m; done; done */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return fprintf(stderr, "usage: first_touch MIB touch|thp|populate\n"), 2;
    size_t n = (size_t)strtoull(argv[1], NULL, 10) << 20, huge = 2 << 20;
    char *raw = mmap(NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return perror("mmap"), 1;
    char *p = (char *)(((unsigned long)raw + huge - 1) & ~(huge - 1));
    const char *mode = argv[2];
    if (strcmp(mode, "thp") == 0)
        madvise(p, n, MADV_HUGEPAGE);
    double t0 = now();
    if (strcmp(mode, "populate") == 0) {
        if (madvise(p, n, MADV_POPULATE_WRITE) != 0)
            perror("MADV_POPULATE_WRITE");
        memset(p, 1, n);
    } else {
        for (size_t i = 0; i < n; i += 4096)
            p[i] = 1;
    }
    double s = now() - t0;
    printf("%zu MiB %s: %.3f s, %.2f GB/s\n", n >> 20, mode, s, (double)n / s / 1e9);
    return 0;
}
