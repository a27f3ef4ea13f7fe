/* SPDX-License-Identifier: MIT */
/* membench-mpi's own flags, taken out of the command line wherever they stand;
 * the rest is the mode's command line, given to each rank's mode unchanged. */
#ifndef MEMBENCH_CLUSTER_OPTIONS_H
#define MEMBENCH_CLUSTER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define CLUSTER_DEFAULT_THRESHOLD_PCT 90.0
#define CLUSTER_DEFAULT_RANK_TIMEOUT_S 3600.0

typedef struct {
    const char *json_path;   /* --json FILE: the cluster's document (each node's is inside it) */
    bool one_at_a_time;      /* --one-at-a-time */
    bool split;              /* --share-host split (default refuse) */
    double threshold;        /* --outlier-threshold PCT, as a share (0.9) */
    double rank_timeout_s;   /* --rank-timeout SECONDS */
    bool help;               /* --help/-h before the mode (membench-mpi's own help) */
    int argc;                /* the mode's command line: the program, then what is left */
    char **argv;             /* allocated (the strings are argv's) */
} cluster_options;

/* False, with one line naming the bad value in err (exit status 2), when a flag's
 * value is missing or out of range. Free with cluster_options_free. */
bool cluster_options_parse(int argc, char **argv, cluster_options *o, char *err, size_t errlen);
void cluster_options_free(cluster_options *o);
/* A mode argument for one rank: "%h" becomes its host's name, "%r" its rank and "%%"
 * a "%" (so `--openmetrics /tmp/mb-%h.prom` is a node-local file per node; any other
 * "%" stays). Allocated; NULL: out of memory. */
char *cluster_rank_argument(const char *arg, const char *host, int rank);
/* membench-mpi --help. */
extern const char cluster_options_help[];

#endif
