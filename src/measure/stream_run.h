/* STREAM's method on a team: three double arrays split into one contiguous chunk
 * per thread, first-touched by that thread; NTIMES iterations of Copy, Scale, Add,
 * Triad, all threads starting each kernel together; each kernel's time is the
 * slowest thread's. Iteration 0 is excluded from the statistics, as in STREAM. */
#ifndef MEMBENCH_STREAM_RUN_H
#define MEMBENCH_STREAM_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/stream_kernels.h"
#include "measure/bandwidth.h"
#include "team/team.h"

#define STREAM_MAX_NTIMES 1000
#define STREAM_SCALAR 3.0
#define STREAM_EPSILON 1e-13

typedef struct {
    size_t n; /* elements per array */
    int ntimes;
    const stream_kernel_set *kernels;
} stream_request;

typedef struct {
    int iterations_done;
    double best_mb_s[STREAM_NFUNCS];
    double avg_s[STREAM_NFUNCS], min_s[STREAM_NFUNCS], max_s[STREAM_NFUNCS];
    bool validated;
    char validation[256]; /* STREAM's message, or what failed */
    double huge_coverage;
} stream_result;

measure_status stream_measure(team *t, const stream_request *rq, stream_result *out);

/* STREAM's check: replays the kernels on scalars and compares the average absolute
 * error of each array with epsilon. Exposed for tests (corrupted arrays). */
bool stream_validate(const double *a, const double *b, const double *c, size_t n, int iterations, char *msg,
                     size_t msglen);

#endif
