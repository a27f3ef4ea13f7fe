/* SPDX-License-Identifier: MIT */
#include "cluster/cluster_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse_number.h"

const char cluster_options_help[] =
    "Usage: mpirun -np N --map-by ppr:1:node membench-mpi [MODE] [cluster flags] [MODE flags]\n"
    "       srun -N N --ntasks-per-node=1 membench-mpi [MODE] [flags]\n"
    "Runs MODE (default: the sweep) on every rank, gathers every node's record on rank 0,\n"
    "prints a per-node table with the median, min and max and the outliers.\n"
    "Cluster flags (anywhere on the line; the rest is the mode's, see membench MODE --help):\n"
    "  --json FILE               the whole cluster as one JSON document (each node's inside)\n"
    "  --outlier-threshold PCT   outlier: a figure below PCT% of the median's performance (default 90)\n"
    "  --one-at-a-time           measure the ranks in turn instead of together\n"
    "  --share-host refuse|split ranks on one host: refused (default) or the host's CPUs split\n"
    "  --rank-timeout SECONDS    the longest a rank's run may take before it is reported silent\n"
    "                            (default 3600)\n"
    "  -h, --help                this help\n"
    "In the mode's arguments %h becomes each rank's host name and %r its rank (%% a %):\n"
    "  --openmetrics /tmp/membench-%h.prom is a node-local file on every node.\n"
    "Exit status: 0 all nodes alike, 3 an outlier or a node that failed or did not answer,\n"
    "2 bad input, 1 rank 0 could not write its output, 128+N stopped by signal N.\n";

/* The value of flag at argv[*i] ("--flag VALUE" or "--flag=VALUE"); NULL when it is
 * not this flag. *missing when the value is not there. */
static const char *flag_value(int argc, char **argv, int *i, const char *flag, bool *missing)
{
    size_t n = strlen(flag);
    const char *a = argv[*i];
    if (strncmp(a, flag, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

bool cluster_options_parse(int argc, char **argv, cluster_options *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->threshold = CLUSTER_DEFAULT_THRESHOLD_PCT / 100;
    o->rank_timeout_s = CLUSTER_DEFAULT_RANK_TIMEOUT_S;
    o->argv = calloc((size_t)argc + 1, sizeof *o->argv);
    if (!o->argv) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    o->argv[o->argc++] = argc > 0 ? argv[0] : "membench-mpi";
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v;
        if (strcmp(argv[i], "--") == 0) { /* the rest is the mode's, untouched */
            while (i < argc)
                o->argv[o->argc++] = argv[i++];
            break;
        }
        if ((strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) && o->argc == 1) {
            o->help = true;
        } else if (strcmp(argv[i], "--one-at-a-time") == 0) {
            o->one_at_a_time = true;
        } else if ((v = flag_value(argc, argv, &i, "--json", &missing)) || missing) {
            if (missing || !*v) {
                snprintf(err, errlen, "--json: a file name is needed");
                return false;
            }
            o->json_path = v;
        } else if ((v = flag_value(argc, argv, &i, "--share-host", &missing)) || missing) {
            if (missing || (strcmp(v, "refuse") != 0 && strcmp(v, "split") != 0)) {
                snprintf(err, errlen, "--share-host '%s': refuse or split", missing ? "" : v);
                return false;
            }
            o->split = strcmp(v, "split") == 0;
        } else if ((v = flag_value(argc, argv, &i, "--outlier-threshold", &missing)) || missing) {
            double pct;
            if (missing || !parse_double(v, 0, 100, &pct) || pct <= 0) {
                snprintf(err, errlen, "--outlier-threshold '%s': a percentage above 0 and at most 100",
                         missing ? "" : v);
                return false;
            }
            o->threshold = pct / 100;
        } else if ((v = flag_value(argc, argv, &i, "--rank-timeout", &missing)) || missing) {
            if (missing || !parse_double(v, 0, 1e7, &o->rank_timeout_s) || o->rank_timeout_s <= 0) {
                snprintf(err, errlen, "--rank-timeout '%s': seconds above 0 (at most 10000000)", missing ? "" : v);
                return false;
            }
        } else {
            o->argv[o->argc++] = argv[i];
        }
    }
    o->argv[o->argc] = NULL;
    return true;
}

void cluster_options_free(cluster_options *o)
{
    free(o->argv);
    o->argv = NULL;
    o->argc = 0;
}

char *cluster_rank_argument(const char *arg, const char *host, int rank)
{
    char num[16];
    snprintf(num, sizeof num, "%d", rank);
    size_t cap = strlen(arg) + 1, hl = strlen(host), nl = strlen(num);
    for (const char *p = strchr(arg, '%'); p; p = strchr(p + 1, '%'))
        cap += hl + nl; /* enough for any mix */
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    for (const char *p = arg; *p; p++) {
        if (p[0] == '%' && (p[1] == 'h' || p[1] == 'r' || p[1] == '%')) {
            const char *with = p[1] == 'h' ? host : p[1] == 'r' ? num : "%";
            size_t len = strlen(with);
            memcpy(o, with, len);
            o += len;
            p++;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}
