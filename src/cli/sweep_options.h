/* Options of the sweep (membench with no subcommand): sc-membench's flags with the
 * same meaning, plus long options of our own. Parsed once into a plain struct;
 * every value is validated here, before anything is measured. */
#ifndef MEMBENCH_SWEEP_OPTIONS_H
#define MEMBENCH_SWEEP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/omp_env.h"
#include "util/cpu_list.h"


#define MAX_TRIES 1000
#define MAX_SIZE_KB (1ULL << 40) /* 1 PiB: anything larger is a typo */


typedef struct {
    int verbose;             /* -v, -vv */
    uint64_t single_size_kb; /* -s; 0 = sweep */
    int tries;               /* -r */
    bool full;               /* -f */
    int threads;             /* -p, else OMP_NUM_THREADS, else 0 = all usable CPUs */
    bool threads_from_p;
    bool auto_scale;         /* -a */
    double max_runtime;      /* -t seconds; 0 = unlimited */
    unsigned ops_mask;       /* -o, default read/write/copy/latency */
    bool ops_given;
    bool huge;               /* -H */
    bool human;              /* -R */
    const char *json_path;   /* --json FILE */
    cpu_list cpus;           /* --cpus LIST */
    bool cpus_given;
    bool oversubscribe;
    const char *kernel_isa;  /* --kernel ISA, NULL = best for this CPU */
    double sample_ms;        /* --sample-ms: minimum duration of a bandwidth sample */
    double latency_sample_ms;
    uint64_t seed;           /* --seed: chase order */
    const char *omp_bind;    /* OMP_PROC_BIND */
    const char *omp_places;  /* OMP_PLACES */
    bool help, version;
} sweep_options;


/* argv[0] is the program name. On PARSE_ERROR err holds one line naming the bad value. */
parse_result sweep_options_parse(int argc, char **argv, env_lookup env, sweep_options *o, char *err,
                                 size_t errlen);
void sweep_options_free(sweep_options *o);
void sweep_usage(FILE *out);

#endif
