/* SPDX-License-Identifier: MIT */
/* What a team of T threads costs, with the project's own team and buffer code
 * (src/team, src/memory), for T = 1, 2, 4, ... MAX_T: starting the team (each
 * thread pins itself to its CPU, round robin over the usable CPUs, and checks the
 * pin, as the sweep's teams do), one job with nothing to do (the dispatch), one
 * barrier round (a job of BARRIERS barriers over BARRIERS, the dispatch included),
 * first touch of MIB MiB split across the T threads (each maps and fills its share,
 * as the pool's first touch does), and stopping the team. More threads than CPUs
 * is the oversubscribed case (barrier waiters sleep).
 *   make bench-team && build/team_costs [MIB [MAX_T [BARRIERS [REPEATS [MIN_T]]]]]
 * Prints one row per T (from MIN_T, default 1, doubling): the median of REPEATS
 * (default 3) of each, in ms. One T alone (MIN_T = MAX_T) is for a profiler
 * (perf stat -e context-switches). */
#include <stdio.h>
#include <stdlib.h>

#include "measure/clock.h"
#include "memory/buffer.h"
#include "platform/platform.h"
#include "team/team.h"
#include "util/parse_number.h"
#include "util/stats.h"

#define MAX_REPEATS 15

typedef struct {
    int barriers;
    size_t share;  /* first touch: bytes per thread */
    buffer *bufs;  /* one per thread */
    int *ok;
} job_args;

static void job_nothing(team *t, int tid, void *arg)
{
    (void)t, (void)tid, (void)arg;
}

static void job_barriers(team *t, int tid, void *arg)
{
    (void)tid;
    const job_args *a = arg;
    for (int i = 0; i < a->barriers; i++)
        team_barrier(t);
}

static void job_touch(team *t, int tid, void *arg)
{
    (void)t;
    job_args *a = arg;
    a->ok[tid] = buffer_alloc(&a->bufs[tid], a->share, PAGES_NORMAL, 0, -1) && buffer_fill(&a->bufs[tid], 1);
}

static double median_of(double *v, int n)
{
    sample_stats s = stats_compute(v, (size_t)n);
    return s.median;
}

static bool arg_int(const char *text, int min, int max, int *out)
{
    uint64_t v;
    if (!parse_u64(text, (uint64_t)min, (uint64_t)max, &v)) {
        fprintf(stderr, "team_costs: '%s': want a whole number from %d to %d\n", text, min, max);
        return false;
    }
    *out = (int)v;
    return true;
}

int main(int argc, char **argv)
{
    int mib = 256, max_t = 4096, barriers = 100, repeats = 3, min_t = 1;
    if ((argc > 1 && !arg_int(argv[1], 1, 1 << 20, &mib)) || (argc > 2 && !arg_int(argv[2], 1, 4096, &max_t)) ||
        (argc > 3 && !arg_int(argv[3], 1, 100000, &barriers)) || (argc > 4 && !arg_int(argv[4], 1, MAX_REPEATS, &repeats)) ||
        (argc > 5 && !arg_int(argv[5], 1, 4096, &min_t)))
        return 2;
    cpu_list usable;
    if (!platform_usable_cpus(&usable) || usable.count == 0) {
        fprintf(stderr, "team_costs: cannot read the usable CPUs\n");
        return 1;
    }
    printf("# %zu usable CPUs; first touch of %d MiB split across the threads; %d barriers a job; median of %d\n",
           usable.count, mib, barriers, repeats);
    printf("%7s %10s %10s %12s %14s %10s %12s\n", "threads", "start_ms", "job_ms", "barrier_us", "first_touch_ms",
           "stop_ms", "touch_GB/s");
    for (int n = min_t; n <= max_t; n *= 2) {
        team_place *places = calloc((size_t)n, sizeof *places);
        buffer *bufs = calloc((size_t)n, sizeof *bufs);
        int *ok = calloc((size_t)n, sizeof *ok);
        if (!places || !bufs || !ok)
            return 1;
        for (int i = 0; i < n; i++)
            places[i].cpus = (cpu_list){&usable.ids[(size_t)i % usable.count], 1};
        double start[MAX_REPEATS], job[MAX_REPEATS], barrier[MAX_REPEATS], touch[MAX_REPEATS], stop[MAX_REPEATS];
        for (int r = 0; r < repeats; r++) {
            double t0 = clock_now();
            team_failure why;
            team *t = team_create(places, n, &why);
            double t1 = clock_now();
            if (!t) {
                fprintf(stderr, "team_costs: %d threads: team_create failed (error %d after %d threads)\n", n, why.error,
                        why.started);
                return 1;
            }
            job_args a = {barriers, ((size_t)mib << 20) / (size_t)n, bufs, ok};
            team_run(t, job_nothing, &a);
            double t2 = clock_now();
            team_run(t, job_nothing, &a);
            double t3 = clock_now();
            team_run(t, job_barriers, &a);
            double t4 = clock_now();
            team_run(t, job_touch, &a);
            double t5 = clock_now();
            for (int i = 0; i < n; i++) {
                if (!ok[i])
                    fprintf(stderr, "team_costs: thread %d could not map its share\n", i);
                buffer_free(&bufs[i]);
            }
            double t6 = clock_now();
            team_destroy(t);
            double t7 = clock_now();
            (void)t2;
            start[r] = (t1 - t0) * 1e3;
            job[r] = (t3 - t2) * 1e3;
            barrier[r] = (t4 - t3) / barriers * 1e6; /* the job's dispatch, job_ms, spread over them */
            touch[r] = (t5 - t4) * 1e3;
            stop[r] = (t7 - t6) * 1e3;
        }
        double ft = median_of(touch, repeats);
        printf("%7d %10.2f %10.3f %12.2f %14.1f %10.2f %12.2f\n", n, median_of(start, repeats), median_of(job, repeats),
               median_of(barrier, repeats), ft, median_of(stop, repeats), ft > 0 ? (double)((size_t)mib << 20) / ft / 1e6 : 0);
        fflush(stdout);
        free(places);
        free(bufs);
        free(ok);
    }
    cpu_list_free(&usable);
    return 0;
}
