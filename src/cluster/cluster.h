/* SPDX-License-Identifier: MIT */
/* A whole cluster's run (membench-mpi): one record per MPI rank, each a node's
 * schema-2 document as that rank sent it, read back for its headline figures and
 * what must be alike on every node (kernel, huge pages, placement). Rank 0 fills
 * it as records arrive; cluster_analyse finds the median, min and max of every
 * figure and the outliers. No MPI here, so all of it is unit tested. */
#ifndef MEMBENCH_CLUSTER_H
#define MEMBENCH_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#define CLUSTER_MAX_FIGURES 32
/* The exit status when any node is an outlier, failed or never answered. */
#define CLUSTER_EXIT_OUTLIER 3

typedef enum {
    NODE_WAITING,   /* nothing heard yet (partial output) */
    NODE_OK,        /* its document arrived and its run succeeded */
    NODE_FAILED,    /* it said it failed, or its document was unreadable */
    NODE_NO_ANSWER  /* nothing within --rank-timeout, or the run was stopped first */
} node_status;

const char *node_status_name(node_status s);

typedef struct {
    char name[96];          /* "read MB/s", "triad MB/s", "latency ns" */
    bool higher_is_better;  /* bandwidth; latency is lower */
    int n;                  /* nodes that have it */
    double median, min, max; /* NaN when n is 0 */
} cluster_figure;

/* What must be alike on every node; a node unlike the majority is an outlier. */
enum { SIG_KERNEL, SIG_PAGES, SIG_PLACEMENT, SIG_COUNT };

typedef struct {
    int rank;
    char *host;
    node_status status;
    char *error;          /* why it failed (NODE_FAILED, NODE_NO_ANSWER) */
    int exit_status;      /* the mode's exit status; -1 unknown */
    char *document;       /* the schema-2 text as sent (NODE_OK, or failed with a document) */
    size_t document_len;
    double started, ended; /* its measurement, Unix time (0: unknown) */
    int steps_together;    /* measured steps started together with every other rank */
    int steps_lost_at;     /* the step whose common start timed out (-1: none; also unknown) */
    double values[CLUSTER_MAX_FIGURES]; /* per figure; NaN: not measured */
    char *signature[SIG_COUNT];
    /* cluster_analyse */
    double ratio[CLUSTER_MAX_FIGURES];  /* performance / the median's (1: the median; <1 slower) */
    bool outlier;
    char *reasons;        /* "read MB/s at 81% of the median; kernel Linux 6.1 (majority Linux 6.18)" */
} cluster_node;

typedef struct {
    char *mode;           /* the measured mode ("sweep") */
    double threshold;     /* an outlier performs below this share of the median (0.9) */
    cluster_figure figures[CLUSTER_MAX_FIGURES];
    int nfigures;
    char *majority[SIG_COUNT]; /* NULL: no node, or no value held by more than half */
    cluster_node *nodes;
    int nnodes;
} cluster;

const char *cluster_signature_name(int sig); /* "kernel", "huge pages", "placement" */

/* nranks nodes, all NODE_WAITING, host "?" until known. False: out of memory. */
bool cluster_init(cluster *c, const char *mode, int nranks, double threshold);
void cluster_free(cluster *c);
void cluster_set_host(cluster *c, int rank, const char *host);
/* A rank's record: its mode's exit status, its document (may be NULL) and the
 * error it reported (may be NULL). A document is read back (strictly) for its
 * figures and signatures; a run that failed, or a document that cannot be read,
 * makes the node NODE_FAILED with the error. */
void cluster_set_record(cluster *c, int rank, int exit_status, const char *document, size_t len, const char *error);
/* When the rank measured (Unix time, seconds). */
void cluster_set_times(cluster *c, int rank, double started, double ended);
/* How many of its steps started together with the others', and the step whose
 * common start timed out (-1: none). */
void cluster_set_steps(cluster *c, int rank, int together, int lost_at);
/* No record: status NODE_FAILED or NODE_NO_ANSWER with why. */
void cluster_set_missing(cluster *c, int rank, node_status status, const char *why);
/* Medians, minimums, maximums, majorities and outliers, from the nodes so far. */
void cluster_analyse(cluster *c);
/* CLUSTER_EXIT_OUTLIER when any node is an outlier, failed or did not answer
 * (also one still waiting), else 0. */
int cluster_exit_status(const cluster *c);

#endif
