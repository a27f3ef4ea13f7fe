/* SPDX-License-Identifier: MIT */
/* How long a chase takes to come back to its pace after the caches were flushed,
 * as a sweep's latency visit finds them (bench/latency_warmup.sh): a random cyclic
 * chase of one buffer (4 KiB pages unless THP is asked for), then REPS times: stream
 * a 256 MiB buffer through the caches, chase CHUNKS chunks of CHUNK loads, each timed
 * on its own. Prints, per chunk, the loads before it and its mean ns per load.
 *   cc -O2 -o build/chase_warmup bench/chase_warmup.c
 *   build/chase_warmup SIZE_MIB CHUNK CHUNKS REPS [thp] */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "random_cycle.h"

#define LINE CYCLE_LINE
#define FLUSH_BYTES (256u << 20)
#define MAX_CHUNKS 1000

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t number(const char *s, const char *what)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || v == 0) {
        fprintf(stderr, "chase_warmup: %s '%s': a whole number above 0\n", what, s);
        exit(2);
    }
    return (size_t)v;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 6 || (argc == 6 && strcmp(argv[5], "thp"))) {
        fprintf(stderr, "usage: chase_warmup SIZE_MIB CHUNK CHUNKS REPS [thp]\n");
        return 2;
    }
    size_t mib = number(argv[1], "SIZE_MIB"), chunk = number(argv[2], "CHUNK");
    size_t chunks = number(argv[3], "CHUNKS"), reps = number(argv[4], "REPS");
    if (chunks > MAX_CHUNKS) {
        fprintf(stderr, "chase_warmup: CHUNKS '%s': at most %d\n", argv[3], MAX_CHUNKS);
        return 2;
    }
    size_t bytes = mib << 20, lines = bytes / LINE;
    char *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *flush = malloc(FLUSH_BYTES);
    if (buf == MAP_FAILED || !flush) {
        fprintf(stderr, "chase_warmup: cannot allocate %zu MiB\n", mib);
        return 1;
    }
    if (argc == 6)
        madvise(buf, bytes, MADV_HUGEPAGE);
    if (!link_random_cycle(buf, lines)) {
        fprintf(stderr, "chase_warmup: cannot allocate the order of %zu lines\n", lines);
        return 1;
    }
    memset(flush, 1, FLUSH_BYTES);
    static double sum[MAX_CHUNKS];
    void **p = (void **)buf;
    for (size_t r = 0; r < reps; r++) {
        for (size_t i = 0; i < FLUSH_BYTES; i += LINE) /* a streaming pass, as the bandwidth points make */
            flush[i]++;
        for (size_t c = 0; c < chunks; c++) {
            double t0 = now();
            for (size_t i = 0; i < chunk; i++)
                p = (void **)*p;
            sum[c] += (now() - t0) * 1e9 / (double)chunk;
        }
    }
    for (size_t c = 0; c < chunks; c++)
        printf("%zu %.1f\n", c * chunk, sum[c] / (double)reps + (p == NULL)); /* p used: the chase is kept */
    return 0;
}
