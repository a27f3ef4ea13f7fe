/* SPDX-License-Identifier: MIT */
/* Runs the last-level-cache probe (src/measure/llc_probe.h) once and prints its
 * curve and verdict; bench/llc_probe.sh repeats it and summarises.
 *   make build/membench-tests   # builds the library objects under build/src
 *   cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
 *      -Wmissing-prototypes -pthread -Isrc -o build/llc_probe bench/llc_probe.c src/measure/llc_probe.c \
 *      $(find build/src -name '*.o' | grep -v -e /main.o -e /llc_probe.o -e /modes/ -e /cli/) -lm
 *   build/llc_probe [MIN_KIB [MAX_MIB [BUDGET_S [SEED]]]]   (defaults 256 256 3 1)
 * Output: one "point" line per size (bytes, median, min, max ns), then one
 * "result" line of key=value fields. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure/llc_probe.h"
#include "util/parse_number.h"

int main(int argc, char **argv)
{
    uint64_t min_kib = 256, max_mib = 256, seed = 1;
    double budget = 3;
    if ((argc > 1 && !parse_u64(argv[1], 4, 1ULL << 30, &min_kib)) ||
        (argc > 2 && !parse_u64(argv[2], 1, 1ULL << 20, &max_mib)) ||
        (argc > 3 && (budget = atof(argv[3])) <= 0) || (argc > 4 && !parse_u64(argv[4], 0, UINT64_MAX, &seed)) ||
        argc > 5) {
        fprintf(stderr, "usage: %s [MIN_KIB [MAX_MIB [BUDGET_S [SEED]]]]\n", argv[0]);
        return 2;
    }
    llc_probe_config cfg = {min_kib << 10, max_mib << 20, budget, seed};
    static llc_probe_result r;
    char err[200];
    if (!llc_probe_run(&cfg, &r, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (size_t i = 0; i < r.npoints; i++)
        printf("point %" PRIu64 " %.2f %.2f %.2f\n", r.points[i].bytes, r.points[i].median_ns, r.points[i].low_ns,
               r.points[i].high_ns);
    printf("result edge_found=%d llc_bytes=%" PRIu64 " llc_low=%" PRIu64 " llc_high=%" PRIu64
           " dram_found=%d dram_from=%" PRIu64 " llc_ns=%.2f dram_ns=%.2f sure=%d batches=%d wall_s=%.3f\n",
           r.edge_found, r.llc_bytes, r.llc_low_bytes, r.llc_high_bytes, r.dram_found, r.dram_from_bytes, r.llc_ns,
           r.dram_ns, r.sure, r.batches, r.wall_s);
    printf("why %s\n", r.why);
    return 0;
}
