/* SPDX-License-Identifier: MIT */
/* A plain pointer chase, the peer membench's latency is compared with in
 * bench/calibration.sh: one thread, a random cyclic order of the cache lines of one
 * buffer (4 KiB pages, no huge pages asked for), a fixed number of dependent loads,
 * nanoseconds per load. Nothing else: no warm-up statistics, no pinning, no
 * convergence rule, as a user's quick check would be.
 *   cc -O2 -o build/plain_chase bench/plain_chase.c && build/plain_chase SIZE_MIB [LOADS]
 * With LOADS, the first LOADS loads of the chase are timed on their own too and
 * printed second: the chase given only as much time as membench spends on the
 * point, so the two spreads can be compared at equal measuring time. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "random_cycle.h"

#define LINE CYCLE_LINE

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
    size_t lines = (mib << 20) / LINE;
    if (mib == 0 || lines < 2) {
        fprintf(stderr, "plain_chase: SIZE_MIB '%s': a whole number of MiB above 0\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    size_t first = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
    if (argc > 2 && first == 0) {
        fprintf(stderr, "plain_chase: LOADS '%s': a whole number above 0\n", argv[2]);
        return 2;
    }
    char *buf = malloc(lines * LINE);
    if (!buf || !link_random_cycle(buf, lines)) {
        fprintf(stderr, "plain_chase: cannot allocate %zu MiB\n", mib);
        return 1;
    }
    void **p = (void **)buf;
    size_t loads = lines * 4 > 20000000 ? lines * 4 : 20000000;
    if (first > loads)
        first = loads;
    double t0 = now();
    for (size_t i = 0; i < first; i++) /* two loops: no test inside the timed chase */
        p = (void **)*p;
    double tf = now();
    for (size_t i = first; i < loads; i++)
        p = (void **)*p;
    double t1 = now();
    printf("%.3f", (t1 - t0) * 1e9 / (double)loads + (p == NULL)); /* p used: the chase is kept */
    if (first)
        printf(" %.3f", (tf - t0) * 1e9 / (double)first);
    printf("\n");
    free(buf);
    return 0;
}
