/* SPDX-License-Identifier: MIT */
/* The one result model. Every mode fills result records, every sink reads them;
 * neither the measuring code nor the writers define results of their own. A record
 * says what was measured (mode, operation, sizes, threads and where each ran and
 * kept its memory, the kernel, the pages obtained), every raw sample, the summary
 * statistics computed from those samples, whether the run converged or was cut
 * short, and mode-specific parameters as key/value pairs. */
#ifndef MEMBENCH_CORE_RESULT_H
#define MEMBENCH_CORE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/params.h"
#include "util/stats.h"

/* What a sample is: bandwidth in MB/s (10^6 bytes per second, all threads), or
 * latency in ns per dependent load. */
typedef enum { METRIC_BANDWIDTH, METRIC_LATENCY } result_metric;

/* Where one thread ran and where its memory was meant to be. */
typedef struct {
    int cpu;      /* first CPU of the thread's place; -1 when not pinned */
    int node;     /* that CPU's NUMA node, -1 unknown */
    int mem_node; /* node its buffers were placed on, -1 when left to first touch */
} result_thread;

/* What a thread was seen doing, as opposed to what was planned (result_thread):
 * the CPU it was on, read from inside the thread after its last job, and the node
 * each of its buffers (or, for STREAM, its chunk of each array) is on, from
 * move_pages on sampled pages. Tests compare these with the plan. */
#define RESULT_THREAD_BUFFERS 3
typedef struct {
    int cpu;                                /* -1 unknown */
    int mem_nodes[RESULT_THREAD_BUFFERS];   /* per buffer: node most sampled pages are on, -1 unknown */
    int nbuffers;
    double mem_share; /* lowest share of a buffer's sampled pages on its node, -1 unknown */
} result_observed;

/* Latency: the full random chase, page walks included, beside a headline chased
 * TLB-locally (kernels/chase.h: CHASE_TLB_LOCAL). */
typedef enum {
    RANDOM_CHASE_NONE,     /* not asked for (cache-sized points, other chase orders) */
    RANDOM_CHASE_SAME,     /* the buffer is one TLB group: the headline's chase is random over all of it */
    RANDOM_CHASE_MEASURED, /* random_* hold it */
    RANDOM_CHASE_FAILED    /* asked for, but its chain could not be allocated */
} random_chase_state;

/* The buffers of a result that got the same kind of pages. */
#define RESULT_PAGE_GROUPS 4
typedef struct {
    const char *method;  /* "hugetlb", "thp", "normal", "small" */
    int buffers;
    double bytes;
    double huge_bytes;   /* -1 when any of them could not be checked */
} result_page_group;

/* Where no source describes the last level (the DRAM rule's floor), a DRAM figure
 * carries a plateau check: the same kind of kernel at the footprint and at twice
 * it; a figure that is better at the smaller size was not yet DRAM's. */
typedef struct {
    bool ran;
    const char *kernel;       /* what was run (a static string) */
    const char *unit;         /* "MB/s" or "ns" */
    uint64_t footprint_bytes; /* all threads together */
    double at_footprint, at_twice;
    const char *verdict;      /* "dram", "not_dram" (dram_check_verdict) */
} result_dram_check;

/* "not_dram" when the figure at the footprint is better than at twice it by more
 * than DRAM_CHECK_TOLERANCE (bandwidth higher, latency lower), else "dram". */
#define DRAM_CHECK_TOLERANCE 0.05
const char *dram_check_verdict(bool latency, double at_footprint, double at_twice);

typedef struct {
    const char *mode;      /* "sweep", "latency", "stream" */
    const char *operation; /* "read", "copy-nt", "latency", STREAM's "copy" ... "triad" */
    result_metric metric;
    uint64_t size_bytes;   /* per thread (sweep), the chased buffer (latency), one array (stream) */
    const char *size_basis; /* where the cache size the size was planned from came from
                               (topology/cache_source.h's keys, "user" when given); NULL unknown */
    bool dram_intent;       /* the size was planned to be DRAM's */
    bool may_fit_cache;     /* with dram_intent: the buffers may still fit a cache */
    int threads;
    result_thread *placement; /* threads entries, owned */

    const char *kernel_isa;   /* "avx512", ..., "c", "libc", "chase" */
    const char *kernel_store; /* "loads", "regular", "non-temporal", "libc" */
    const char *page_method;  /* what was obtained: "normal", "thp", "hugetlb", "small", or
                                 "mixed" when the buffers differ (see pages[]) */
    double huge_coverage;     /* share of all the buffers' bytes in huge pages, -1 unknown */
    result_page_group pages[RESULT_PAGE_GROUPS]; /* the buffers by method */
    int npages;
    double node_local_fraction; /* lowest share of sampled pages on the intended node, -1 unknown */
    int pins_verified;        /* threads whose affinity was checked equal to their place */
    result_observed *observed; /* threads entries, owned; NULL when the mode does not observe */

    double *samples;          /* every timed sample, in the metric's unit; owned */
    int nsamples;
    int *sample_rounds;       /* the round each sample was taken in (sweep), or NULL; owned */
    double *sample_times;     /* when each sample ended, s since the run's first sample (with
                                 sample_rounds); owned */
    int samples_wanted;
    sample_stats summary;     /* over samples: min, max, median, mean, stddev, cv */
    double bytes_per_sample;  /* bandwidth: bytes counted in one sample, all threads */

    uint64_t iterations;      /* bandwidth: kernel passes per sample (0: samples are time
                                 windows, the traffic modes); latency: samples */
    double elapsed_s;         /* sweep bandwidth: best sample; latency: whole point; stream: all iterations */
    bool has_cv_target;       /* an adaptive rule ran samples until CV < cv_target */
    double cv_target;
    bool converged;           /* that rule was met (meaningless without a target) */
    bool median_headline;     /* bandwidth whose headline is the median sample (time
                                 windows of the traffic modes, as MLC averages its run),
                                 not the best */
    bool complete;            /* false when a stop cut the samples short */

    result_dram_check dram_check; /* with dram_intent, where the rule was the floor */

    random_chase_state random_chase;
    double *random_samples;       /* RANDOM_CHASE_MEASURED: its samples, ns; owned */
    int random_nsamples;
    sample_stats random_summary;  /* over random_samples, the interval over its rounds */

    param_list params;        /* mode-specific: owned */
} result_record;

/* A zeroed record with the unknowns marked unknown. */
void result_init(result_record *r, const char *mode, const char *operation, result_metric metric);

/* Counts one buffer of the result: what page method it got and its share in huge
 * pages (-1 unknown). page_method and huge_coverage follow all buffers counted. */
void result_add_buffer(result_record *r, const char *method, uint64_t bytes, double huge_coverage);
/* "hugetlb", or for mixed buffers "2 hugetlb + 2 normal": for messages. */
void result_pages_text(const result_record *r, char *buf, size_t size);
/* Copies samples and computes the summary from them. False when out of memory. */
bool result_set_samples(result_record *r, const double *samples, int n);
/* Copies the round of each of the n samples (the sweep's rounds) and when each
 * ended (clock_now seconds, less origin). False when out of memory. */
bool result_set_sample_rounds(result_record *r, const int *rounds, const double *ends, double origin, int n);
/* Copies the full random chase's n samples (taken in rounds[], or NULL) and marks
 * it measured. False when out of memory. */
bool result_set_random(result_record *r, const double *samples, const int *rounds, int n);
/* A chase record's figure random over the whole buffer, page walks included
 * (sc-membench's latency): the random chase measured beside a TLB-local one, or
 * the record's own when its chase was random over all of it ("same", or a
 * "random" chase_order). False when it has none: a TLB-local chase whose random
 * one failed or was stopped before a sample. */
bool result_full_random(const result_record *r, const sample_stats **stats, int *nsamples);
/* "same", "measured", "failed", or NULL for RANDOM_CHASE_NONE: the JSON word. */
const char *random_chase_name(random_chase_state s);
/* Copies the placement of n threads. */
bool result_set_placement(result_record *r, const result_thread *threads, int n);
/* Copies what n threads were observed doing. */
bool result_set_observed(result_record *r, const result_observed *threads, int n);
/* An entry with nothing known yet. */
result_observed result_observed_unknown(void);
/* Adds one buffer's measured node (node -1: unknown) and the share of its sampled pages there. */
void result_observed_add_buffer(result_observed *o, int node, double share);
/* The headline number and its statistic: the best sample for bandwidth (the
 * lmbench/sc-membench/STREAM convention), the median for latency and for the
 * traffic modes' windows (median_headline: a best 100 ms window read 1.5-2.4x its
 * own median on a shared guest, far from what MLC's run-long figure means). */
double result_value(const result_record *r);
const char *result_statistic(const result_record *r);
const char *result_unit(const result_record *r);
/* Seconds of sample i (bandwidth only: bytes_per_sample / rate). */
double result_sample_seconds(const result_record *r, int i);
/* Frees owned memory and leaves r empty. */
void result_free(result_record *r);
/* A deep copy of src into dst (dst must be free). False when out of memory (dst
 * is left empty). */
bool result_copy(result_record *dst, const result_record *src);
/* Moves src into dst (dst must be free); src is left empty. */
void result_move(result_record *dst, result_record *src);

/* The records of a run, in the order they were produced. */
typedef struct {
    result_record *items;
    size_t n, cap;
} result_list;

/* Takes ownership of *r (left empty). False when out of memory (r is freed). */
bool result_list_add(result_list *l, result_record *r);
void result_list_free(result_list *l);

#endif
