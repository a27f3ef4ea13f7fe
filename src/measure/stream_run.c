/* SPDX-License-Identifier: MIT */
#include "measure/stream_run.h"

#include "platform/platform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "measure/stop.h"
#include "memory/buffer.h"

typedef struct {
    const stream_request *rq;
    stream_arrays arrays;
    int nthreads;
    double (*times)[STREAM_NFUNCS][STREAM_MAX_NTIMES]; /* per thread */
    volatile int stop;
    int done;
} stream_ctx;

static void chunk(const stream_ctx *c, int tid, size_t *lo, size_t *hi)
{
    *lo = c->rq->n * (size_t)tid / (size_t)c->nthreads;
    *hi = c->rq->n * (size_t)(tid + 1) / (size_t)c->nthreads;
}

static void job_init(team *t, int tid, void *arg)
{
    (void)t;
    stream_ctx *c = arg;
    size_t lo, hi;
    chunk(c, tid, &lo, &hi);
    size_t step = STOP_CHECK_BYTES / sizeof(double);
    for (size_t from = lo; from < hi && !stop_requested(); from += step) {
        size_t to = hi - from < step ? hi : from + step;
        /* the chunk's pages in one call each (platform_populate), not a fault a page */
        platform_populate(&c->arrays.a[from], (to - from) * sizeof(double));
        platform_populate(&c->arrays.b[from], (to - from) * sizeof(double));
        platform_populate(&c->arrays.c[from], (to - from) * sizeof(double));
        for (size_t i = from; i < to; i++) { /* first touch: the chunk lands on this thread's node */
            c->arrays.a[i] = 1.0;
            c->arrays.b[i] = 2.0;
            c->arrays.c[i] = 0.0;
        }
    }
}

static void job_run(team *t, int tid, void *arg)
{
    stream_ctx *c = arg;
    size_t lo, hi;
    chunk(c, tid, &lo, &hi);
    const kernel *const *kernels = c->rq->kernels->k;
    kernel_args args[STREAM_NFUNCS];
    for (int f = 0; f < STREAM_NFUNCS; f++)
        args[f] = stream_kernel_args(&c->arrays, (stream_func)f, lo, hi);
    for (int k = 0; k < c->rq->ntimes; k++) {
        for (int f = 0; f < STREAM_NFUNCS; f++) {
            team_barrier(t);
            double t0 = clock_now();
            kernels[f]->fn(&args[f]);
            c->times[tid][f][k] = clock_now() - t0;
        }
        /* Thread 0 decides whether to go on, so no thread waits at a barrier alone. */
        if (tid == 0) {
            c->done = k + 1;
            c->stop = stop_requested();
            if (c->rq->between && !c->stop && k + 1 < c->rq->ntimes)
                c->rq->between(c->rq->between_ctx);
        }
        team_barrier(t);
        if (c->stop)
            break;
    }
}

bool stream_validate(const double *a, const double *b, const double *c, size_t n, int iterations, char *msg,
                     size_t msglen)
{
    double aj = 1.0, bj = 2.0, cj = 0.0;
    for (int k = 0; k < iterations; k++) {
        cj = aj;
        bj = STREAM_SCALAR * cj;
        cj = aj + bj;
        aj = bj + STREAM_SCALAR * cj;
    }
    double ea = 0, eb = 0, ec = 0;
    for (size_t i = 0; i < n; i++) {
        ea += fabs(a[i] - aj);
        eb += fabs(b[i] - bj);
        ec += fabs(c[i] - cj);
    }
    ea /= (double)n;
    eb /= (double)n;
    ec /= (double)n;
    const double expect[3] = {aj, bj, cj}, err[3] = {ea, eb, ec};
    const char *names[3] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++)
        if (!(fabs(err[i] / expect[i]) <= STREAM_EPSILON)) {
            snprintf(msg, msglen, "Failed Validation on array %s[]: expected %e, avg abs error %e (epsilon %e)",
                     names[i], expect[i], err[i], STREAM_EPSILON);
            return false;
        }
    snprintf(msg, msglen, "Solution Validates: avg error less than %e on all three arrays", STREAM_EPSILON);
    return true;
}

/* Sampled pages of one thread's chunk of each array, and their nodes. */
typedef struct {
    const void *addrs[3][BUFFER_RANGE_SAMPLES];
    int nodes[3][BUFFER_RANGE_SAMPLES];
    size_t n[3];
} chunk_pages;

/* Where thread i's chunk of each array is, right after the first touch. */
static void chunk_sample(const stream_ctx *c, const buffer bufs[3], int i, chunk_pages *cp)
{
    size_t lo, hi;
    chunk(c, i, &lo, &hi);
    for (int a = 0; a < 3; a++) {
        cp->n[a] = buffer_range_pages(&bufs[a], lo * sizeof(double), (hi - lo) * sizeof(double), cp->addrs[a],
                                      BUFFER_RANGE_SAMPLES);
        page_nodes_query(cp->addrs[a], cp->nodes[a], cp->n[a]);
    }
}

/* After the run, the pages that had no answer are asked again: NUMA balancing had
 * unmapped them (a 6.1 kernel's move_pages then says nothing), and the run's own
 * accesses have mapped them back. A page that did answer keeps its first answer:
 * balancing may have moved it since, toward the thread, which would hide a first
 * touch from the wrong thread. */
static void chunk_ask_again(chunk_pages *cp)
{
    for (int a = 0; a < 3; a++) {
        const void *addrs[BUFFER_RANGE_SAMPLES];
        int nodes[BUFFER_RANGE_SAMPLES] = {0};
        size_t at[BUFFER_RANGE_SAMPLES], n = 0;
        for (size_t k = 0; k < cp->n[a]; k++)
            if (cp->nodes[a][k] < 0) {
                at[n] = k;
                addrs[n++] = cp->addrs[a][k];
            }
        page_nodes_query(addrs, nodes, n);
        for (size_t k = 0; k < n; k++)
            cp->nodes[a][at[k]] = nodes[k];
    }
}

static result_observed chunk_observed(const chunk_pages *cp)
{
    result_observed seen = result_observed_unknown();
    for (int a = 0; a < 3; a++) {
        double share;
        int node = page_nodes_verdict(cp->nodes[a], cp->n[a], &share);
        result_observed_add_buffer(&seen, node, share);
    }
    return seen;
}

measure_status stream_measure(team *t, const stream_request *rq, result_record out[STREAM_NFUNCS])
{
    buffer bufs[3];
    size_t bytes = rq->n * sizeof(double);
    int allocated = 0;
    for (; allocated < 3; allocated++)
        if (!buffer_alloc(&bufs[allocated], bytes, rq->pages, rq->huge_size, -1))
            break;
    stream_ctx c = {rq, {NULL, NULL, NULL, STREAM_SCALAR}, team_size(t), NULL, 0, 0};
    c.times = calloc((size_t)c.nthreads, sizeof *c.times);
    measure_status status = MEASURE_OK;
    result_observed *seen = NULL;
    chunk_pages *pages = NULL;
    if (allocated < 3 || !c.times) {
        status = MEASURE_NO_MEMORY;
        goto done;
    }
    c.arrays.a = bufs[0].ptr;
    c.arrays.b = bufs[1].ptr;
    c.arrays.c = bufs[2].ptr;
    team_run(t, job_init, &c);
    if (stop_flagged()) {
        status = MEASURE_STOPPED; /* during first touch */
        goto done;
    }
    /* Each thread's chunk of each array: where its first touch put the pages, read
     * now because the kernel's NUMA balancing may move them during the run. */
    seen = calloc((size_t)c.nthreads, sizeof *seen);
    pages = calloc((size_t)c.nthreads, sizeof *pages);
    for (int i = 0; seen && pages && i < c.nthreads; i++)
        chunk_sample(&c, bufs, i, &pages[i]);
    team_run(t, job_run, &c);
    if (c.done < 2) {
        status = MEASURE_STOPPED; /* nothing left once iteration 0 is excluded */
        goto done;
    }
    buffer *inspect[3] = {&bufs[0], &bufs[1], &bufs[2]};
    buffer_inspect_all(inspect, 3);
    char validation[256];
    bool validated = stream_validate(c.arrays.a, c.arrays.b, c.arrays.c, rq->n, c.done, validation,
                                     sizeof validation);
    for (int i = 0; seen && pages && i < c.nthreads; i++) {
        chunk_ask_again(&pages[i]);
        seen[i] = chunk_observed(&pages[i]);
        seen[i].cpu = team_observed_cpu(t, i);
    }
    double rates[STREAM_MAX_NTIMES];
    for (int f = 0; f < STREAM_NFUNCS; f++) {
        double counted = (double)kernel_bytes_counted(rq->kernels->k[f], bytes), total = 0;
        for (int k = 1; k < c.done; k++) {
            double slowest = 0;
            for (int i = 0; i < c.nthreads; i++)
                if (c.times[i][f][k] > slowest)
                    slowest = c.times[i][f][k];
            rates[k - 1] = counted / slowest / 1e6;
            total += slowest;
        }
        result_record *r = &out[f];
        if (!result_set_samples(r, rates, c.done - 1))
            status = MEASURE_NO_MEMORY;
        r->threads = c.nthreads;
        r->bytes_per_sample = counted;
        r->iterations = (uint64_t)c.done;
        r->samples_wanted = rq->ntimes - 1;
        r->elapsed_s = total;
        r->complete = c.done == rq->ntimes;
        r->kernel_isa = rq->kernels->isa;
        r->kernel_store = rq->kernels->nontemporal ? "non-temporal" : "regular";
        for (int i = 0; i < 3; i++)
            result_add_buffer(r, bufs[i].method, bufs[i].len, bufs[i].huge_coverage);
        params_text(&r->params, "validation", validation);
        params_bool(&r->params, "validated", validated);
        params_int(&r->params, "iterations_done", c.done);
        for (int i = 0; i < c.nthreads; i++)
            r->pins_verified += team_pin_verified(t, i);
        if (seen && pages)
            result_set_observed(r, seen, c.nthreads);
    }
    if (!validated)
        status = MEASURE_WRONG_RESULT;
done:
    for (int i = 0; i < allocated; i++)
        buffer_free(&bufs[i]);
    free(seen);
    free(pages);
    free(c.times);
    return status;
}
