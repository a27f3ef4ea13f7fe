/* SPDX-License-Identifier: MIT */
/* STREAM's method on a team: three double arrays split into one contiguous chunk
 * per thread, first-touched by that thread; NTIMES iterations of Copy, Scale, Add,
 * Triad, all threads starting each kernel together; each kernel's time is the
 * slowest thread's. Iteration 0 is excluded from the statistics, as in STREAM. */
#ifndef MEMBENCH_STREAM_RUN_H
#define MEMBENCH_STREAM_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/stream_kernels.h"
#include "core/result.h"
#include "measure/bandwidth.h"
#include "memory/buffer.h"
#include "team/team.h"

#define STREAM_MAX_NTIMES 1000
#define STREAM_SCALAR 3.0
#define STREAM_EPSILON 1e-13

typedef struct {
    size_t n; /* elements per array */
    int ntimes;
    const stream_kernel_set *kernels;
    page_request pages; /* for the three arrays (memory/page_policy decides) */
    uint64_t huge_size;
    /* Called by thread 0 between two iterations while the others wait at the
     * barrier, outside every timed kernel (NULL: none): the session's host probe,
     * so a STREAM run gets a noise verdict (it emits only at its end). */
    void (*between)(void *ctx);
    void *between_ctx;
} stream_request;

/* Fills out[copy, scale, add, triad]: the rate of every iteration but the first
 * (MB/s, STREAM's bytes), bytes per sample, kernel, pages (the method of the
 * first array, the smallest huge-page coverage of the three), parameters
 * "validation" (STREAM's message), "validated" and "iterations_done"; the caller
 * has set mode and operation with result_init. MEASURE_WRONG_RESULT when the
 * arrays do not validate (the records are still filled, to show what was timed). */
measure_status stream_measure(team *t, const stream_request *rq, result_record out[STREAM_NFUNCS]);

/* STREAM's check: replays the kernels on scalars and compares the average absolute
 * error of each array with epsilon. Exposed for tests (corrupted arrays). */
bool stream_validate(const double *a, const double *b, const double *c, size_t n, int iterations, char *msg,
                     size_t msglen);

#endif
