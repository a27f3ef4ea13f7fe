/* SPDX-License-Identifier: MIT */
/* What rank 0 says about a cluster: the per-node table of headline figures with
 * the cluster's median, min and max and the outliers (text), and one JSON document
 * holding every node's own schema-2 document. */
#ifndef MEMBENCH_CLUSTER_REPORT_H
#define MEMBENCH_CLUSTER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cluster/cluster.h"

/* How the cluster was run, for the JSON. */
typedef struct {
    int argc;
    char **argv;
    const char *started_at;  /* ISO 8601 UTC */
    bool one_at_a_time;
    const char *share_host;  /* "refuse" or "split" */
    double rank_timeout_s;
    bool complete;           /* every rank answered and nothing stopped the run */
    const char *stopped_by;  /* "SIGINT", ... or NULL */
    int exit_status;
    /* rank 0's gather, from the end of every rank's measurement (their last common
     * step) to the last record: records received, their bytes, the seconds it
     * took, and the part of them spent rewriting the cluster's JSON */
    int gathered;
    double gather_bytes, gather_s, json_write_s;
} cluster_run;

/* The table (analysed cluster). */
void cluster_table_write(FILE *f, const cluster *c, const cluster_run *run);
/* {"tool":"membench","mode":"cluster",...,"figures":[...],"nodes":[{rank, host,
 * status, error, ..., document}]}: a node's document is its schema-2 text as is. */
void cluster_json_write(FILE *f, const cluster *c, const cluster_run *run);

#endif
