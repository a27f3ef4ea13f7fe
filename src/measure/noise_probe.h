/* SPDX-License-Identifier: MIT */
/* How much the host moved during a run: a fixed piece of work (a dependent
 * multiply-add chain of about a millisecond, on the main thread) is timed at the
 * start and after each result, at most every PROBE_EVERY_S. Its spread over the
 * run says how much the CPU the run got changed: clock drift, time slices lost
 * to neighbours, throttling. It does not see memory contention from other guests
 * that leaves the CPU alone: a second probe, timed right after it, reads a slice
 * of a buffer twice the last-level cache (16-64 MiB), and the run's verdict is the
 * larger of the two variations (docs/uncertainty.md "Host noise"). */
#ifndef MEMBENCH_NOISE_PROBE_H
#define MEMBENCH_NOISE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memory/buffer.h"

#define NOISE_PROBE_EVERY_S 0.1
#define NOISE_PROBE_MIN 5        /* fewer probes: no verdict */
#define NOISE_FLAG_PCT 5.0       /* a run whose host varied more is flagged */
#define NOISE_CPU_PRESSURE_WARN_PCT 10.0 /* other tasks waiting for a CPU: warned from here */

/* Seconds the fixed work took this time. */
double noise_probe_run(void);

/* The memory probe's buffer: twice the last level, at least NOISE_MEM_MIN_BYTES
 * (a read that leaves caches smaller than that) and at most NOISE_MEM_MAX_BYTES
 * (what a run may spend on it). Each probe reads the next quarter, so the quarter
 * read was last read three probes ago: out of a cache smaller than the buffer,
 * and on a larger one (this bound) out of the neighbours' share of it. A quarter
 * of 64 MiB is about 1 ms at 16 GB/s. */
#define NOISE_MEM_MIN_BYTES ((size_t)16 << 20)
#define NOISE_MEM_MAX_BYTES ((size_t)64 << 20)
#define NOISE_MEM_PARTS 4

typedef struct {
    buffer mem;    /* the mapping */
    uint64_t *buf; /* NULL: not open (no memory probe; the CPU probe alone) */
    size_t words;
    size_t next; /* the part read next */
} noise_mem_probe;

/* The buffer's size for a last level of llc_bytes (0: unknown), and at most a
 * NOISE_MEM_BUDGET_SHARE-th of the memory budget (0: unknown); 0, no memory probe,
 * when that is below NOISE_MEM_MIN_BYTES (a 64 MiB cgroup runs without it). */
#define NOISE_MEM_BUDGET_SHARE 16
size_t noise_mem_probe_bytes(uint64_t llc_bytes, uint64_t budget);
/* Whether the probe's times say how memory moved: only when its buffer is at least
 * twice the last level (known), so a part has left it by its next read. On a larger
 * cache (a 300 MiB L3: BENCHMARKS.md "Calibration") a part is cached or not by what
 * the run did since, and the times alternate with the run's own work. */
bool noise_mem_probe_counts(size_t bytes, uint64_t llc_bytes);
/* Allocates the buffer, preferably on node (-1: wherever the caller runs), and
 * touches it; false (and p closed) when it cannot. A session passes its first CPU's
 * node: touched by whatever CPU the main thread was on, 32 MiB of probe landed on a
 * small node a run then bound its buffer to (the NUMA guest's node 3), and the run
 * found no room there. */
bool noise_mem_probe_open(noise_mem_probe *p, size_t bytes, int node);
/* Seconds the read of the next part took. */
double noise_mem_probe_run(noise_mem_probe *p);
void noise_mem_probe_close(noise_mem_probe *p);

typedef struct {
    size_t probes;
    bool known;           /* at least NOISE_PROBE_MIN probes */
    double median_s;      /* of the probe's times */
    double varied_pct;    /* ± this: half the 10th-90th percentile range, in % of the median */
    double meaningful_pct; /* differences below this are within the host's movement: 2 x varied_pct */
    bool flagged;         /* varied_pct > NOISE_FLAG_PCT */
} noise_verdict;

/* From the probe times of one run (not modified). */
noise_verdict noise_judge(const double *times_s, size_t n);
/* The run's verdict from the CPU probe's and the memory probe's: the larger
 * variation of those known (either probe alone sees a host moving), the rest the
 * CPU probe's (probes, median_s). */
noise_verdict noise_combine(noise_verdict cpu, noise_verdict memory);

#endif
