/* SPDX-License-Identifier: MIT */
/* A memory-hungry neighbour for bench/host_interval_ab.sh: streams MIB MiB (read
 * and write) for ON_S seconds, sleeps OFF_S seconds, and again, until killed: a
 * host whose memory moves over minutes, as issue 14 saw between runs.
 *   mem_neighbour MIB ON_S OFF_S */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mem_neighbour MIB ON_S OFF_S\n");
        return 2;
    }
    size_t words = (size_t)atol(argv[1]) << 17; /* MiB of 8-byte words */
    double on = atof(argv[2]), off = atof(argv[3]);
    uint64_t *b = malloc(words * sizeof *b);
    if (!b || !words)
        return 1;
    memset(b, 1, words * sizeof *b);
    volatile uint64_t sink = 0;
    for (;;) {
        double end = now() + on;
        while (now() < end)
            for (size_t i = 0; i < words; i++)
                b[i] += i;
        sink += b[words / 2];
        struct timespec nap = {(time_t)off, (long)((off - (double)(time_t)off) * 1e9)};
        nanosleep(&nap, NULL);
    }
}
