/* Options of `membench stream`: STREAM's rules with membench's placement. */
#ifndef MEMBENCH_STREAM_OPTIONS_H
#define MEMBENCH_STREAM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/omp_env.h"
#include "util/cpu_list.h"

typedef enum { STORES_REGULAR = 1, STORES_NT = 2, STORES_BOTH = 3 } stream_stores;

typedef struct {
    uint64_t n;          /* elements per array; 0 = 4x the total last-level cache */
    bool n_given;
    int ntimes;
    stream_stores stores;
    bool stores_given;   /* --stores said; else NT is dropped where there is no NT kernel */
    bool scan;
    double peak_gbs;     /* 0 = detect */
    int threads;         /* -p / OMP_NUM_THREADS; 0 = all usable */
    bool threads_from_p;
    cpu_list cpus;
    bool cpus_given;
    bool oversubscribe;
    const char *kernel_isa;
    const char *json_path;
    const char *omp_bind, *omp_places;
    int verbose;
    bool help;
} stream_options;

parse_result stream_options_parse(int argc, char **argv, env_lookup env, stream_options *o, char *err,
                                  size_t errlen);
void stream_options_free(stream_options *o);
void stream_usage(FILE *out);

#endif
