/* SPDX-License-Identifier: MIT */
/* Does a DRAM figure depend on the memory a process is given, or on when it is
 * measured? One process maps K buffers of SIZE_MIB each (4 KiB pages, no THP), links
 * each into its own random chase (random_cycle.h), then measures them in turn, round
 * after round: one traversal of the chase (ns per load) and one read of the buffer
 * (GB/s). If the buffers differ from each other by more than each moves from round to
 * round, the figure depends on the pages; if they move together, on the time.
 *   cc -O2 -o build/alloc_luck bench/alloc_luck.c && build/alloc_luck [SIZE_MIB [K [ROUNDS]]]
 * Prints one line per (round, buffer), then each buffer's medians, the spread of
 * those medians across buffers, and the median spread of one buffer across rounds. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "random_cycle.h"

#define MAX_BUFFERS 16
#define MAX_ROUNDS 64

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_ROUNDS > MAX_BUFFERS ? MAX_ROUNDS : MAX_BUFFERS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* (max - min) / median of v, in percent */
static double spread(const double *v, int n)
{
    double lo = v[0], hi = v[0];
    for (int i = 1; i < n; i++)
        lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
    return 100 * (hi - lo) / median(v, n);
}

static unsigned long arg(int argc, char **argv, int i, unsigned long dflt, unsigned long max, const char *name)
{
    if (argc <= i)
        return dflt;
    char *end;
    unsigned long v = strtoul(argv[i], &end, 10);
    if (*end || v == 0 || v > max) {
        fprintf(stderr, "alloc_luck: %s '%s': a whole number from 1 to %lu\n", name, argv[i], max);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    size_t mib = arg(argc, argv, 1, 64, 4096, "SIZE_MIB");
    int k = (int)arg(argc, argv, 2, 6, MAX_BUFFERS, "K");
    int rounds = (int)arg(argc, argv, 3, 9, MAX_ROUNDS, "ROUNDS");
    size_t bytes = mib << 20, lines = bytes / CYCLE_LINE;
    char *buf[MAX_BUFFERS];
    static double lat[MAX_BUFFERS][MAX_ROUNDS], bw[MAX_BUFFERS][MAX_ROUNDS];
    for (int b = 0; b < k; b++) {
        buf[b] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (buf[b] == MAP_FAILED || madvise(buf[b], bytes, MADV_NOHUGEPAGE) != 0 || !link_random_cycle(buf[b], lines)) {
            fprintf(stderr, "alloc_luck: cannot map buffer %d of %zu MiB\n", b, mib);
            return 1;
        }
    }
    uint64_t sink = 0;
    for (int r = 0; r < rounds; r++)
        for (int b = 0; b < k; b++) {
            void **p = (void **)buf[b];
            for (size_t i = 0; i < lines / 8; i++) /* warm the page walk's tables a little */
                p = (void **)*p;
            double t0 = now();
            for (size_t i = 0; i < lines; i++)
                p = (void **)*p;
            double t1 = now();
            const uint64_t *w = (const uint64_t *)buf[b];
            uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (size_t i = 0; i < bytes / 8; i += 4)
                s0 += w[i], s1 += w[i + 1], s2 += w[i + 2], s3 += w[i + 3];
            double t2 = now();
            sink += (uint64_t)(uintptr_t)p + s0 + s1 + s2 + s3;
            lat[b][r] = (t1 - t0) * 1e9 / (double)lines;
            bw[b][r] = (double)bytes / (t2 - t1) / 1e9;
            printf("round %d buffer %d: %.1f ns  %.2f GB/s\n", r, b, lat[b][r], bw[b][r]);
        }
    double lat_med[MAX_BUFFERS], bw_med[MAX_BUFFERS], lat_sp[MAX_BUFFERS], bw_sp[MAX_BUFFERS];
    for (int b = 0; b < k; b++) {
        lat_med[b] = median(lat[b], rounds), bw_med[b] = median(bw[b], rounds);
        lat_sp[b] = spread(lat[b], rounds), bw_sp[b] = spread(bw[b], rounds);
        printf("buffer %d: median %.1f ns (rounds spread %.1f%%), %.2f GB/s (rounds spread %.1f%%)\n", b, lat_med[b],
               lat_sp[b], bw_med[b], bw_sp[b]);
    }
    /* the same round across buffers: how far apart buffers are at one moment */
    double lat_rsp[MAX_ROUNDS], bw_rsp[MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        double l[MAX_BUFFERS], g[MAX_BUFFERS];
        for (int b = 0; b < k; b++)
            l[b] = lat[b][r], g[b] = bw[b][r];
        lat_rsp[r] = spread(l, k), bw_rsp[r] = spread(g, k);
    }
    printf("latency: buffers' medians spread %.1f%%; one buffer over rounds, median spread %.1f%%; one round over "
           "buffers, median spread %.1f%%\n",
           spread(lat_med, k), median(lat_sp, k), median(lat_rsp, rounds));
    printf("read:    buffers' medians spread %.1f%%; one buffer over rounds, median spread %.1f%%; one round over "
           "buffers, median spread %.1f%%\n",
           spread(bw_med, k), median(bw_sp, k), median(bw_rsp, rounds));
    return sink == 42; /* the sums used: the loops are kept */
}
