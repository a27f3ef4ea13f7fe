/* SPDX-License-Identifier: MIT */
/* The run of `membench numa mem` (perf bench numa mem): real processes (fork), each
 * with its threads (a pinned team), working on memory shared by all processes (one
 * MAP_SHARED buffer), by a process's threads, and by one thread, loop after loop,
 * until a loop count, a time limit or a stop.
 *
 * Coordination lives in one shared anonymous mapping: a slot per task (state, CPU,
 * loops, bytes read and written, runtime, CPU times, page placement) and a control
 * block (ready count, go, stop). The parent never waits blindly: while tasks get
 * ready and while they run it polls the children (waitpid) and the slots, so a
 * worker that dies or cannot allocate ends the run with an error naming it; the
 * time limit and a stop (Ctrl-C) set the stop flag, which every task polls inside
 * its passes (kernels/numa_work.h), so they are kept within milliseconds; a child
 * that does not end within NUMA_MEM_KILL_AFTER_S seconds of a stop is killed. The
 * children ignore the terminal's signals (the parent decides) and die with it. */
#ifndef MEMBENCH_NUMA_MEM_H
#define MEMBENCH_NUMA_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/numa_work.h"
#include "memory/buffer.h"
#include "util/cpu_list.h"

#define NUMA_MEM_KILL_AFTER_S 10.0
#define NUMA_MEM_NODE_SAMPLES 64 /* pages of a buffer whose node is looked up */
#define NUMA_MEM_MOVES_KEPT 64   /* -x moves of task 0 whose target CPU is kept */

/* What to run. Sizes in bytes; the per-task arrays are indexed by task =
 * process * nthreads + thread and may be NULL (all unbound). */
typedef struct {
    int nproc, nthreads;
    size_t global_bytes, proc_bytes, thread_bytes, locked_bytes;
    uint64_t loops;           /* 0: until the time limit */
    double seconds;           /* 0: no time limit */
    unsigned usleep_us;
    numa_access access;
    bool init_zero, init_random;
    int init_node;            /* -0: every buffer first touched on this node (-1: none) */
    cpu_list init_cpus;       /* -0: the usable CPUs of init_node, where the touching thread goes */
    page_request pages;       /* from --thp */
    uint64_t huge_size;
    const cpu_list *cpus;     /* count 0: unbound */
    const int *nodes;         /* -1: unbound */
    bool serialize;           /* tasks start together */
    double sample_s;          /* placement samples (convergence) this often; 0: none */
    bool stop_converged;      /* -m: stop at the first sample where every process sits on one node */
    bool keep_series;         /* -c/-m: keep the samples in the result */
    const int *cpu_node;      /* node of each CPU id (for convergence), indexed by CPU */
    int ncpu_node;
    int perturb_s;            /* -x: move task 0 to a far CPU this often (0: never) */
    int far_cpu_low, far_cpu_high; /* the CPUs -x moves between */
} numa_mem_setup;

/* One task's outcome. */
typedef struct {
    int process, thread, pid;
    int cpu, node;            /* where it ran last (-1 unknown) */
    int mem_node;             /* node most of its thread buffer's sampled pages are on (-1 none/unknown) */
    double mem_node_fraction;
    uint64_t loops;
    uint64_t bytes_processed;         /* perf's data: each word visited once, whatever the access */
    uint64_t bytes_read, bytes_written; /* membench's: what was read and written (RMW in both) */
    uint64_t perturbations;   /* -x: times this task was moved to the far CPU */
    double runtime_s, user_s, system_s;
    /* where its memory is mapped (perf's -d -d -d lines; 0: none) and, task 0 with
     * -x, the CPUs it was moved to, the first NUMA_MEM_MOVES_KEPT in order (-1 after) */
    uintptr_t global_addr, process_addr, thread_addr;
    int moved_to[NUMA_MEM_MOVES_KEPT];
} numa_task_result;

/* Where one process stood at one sample: its threads' nodes (sched_getcpu at
 * their last loop) and its memory's (move_pages queried on NUMA_MEM_NODE_SAMPLES
 * pages spread over its process and thread buffers). */
typedef struct {
    int node_min, node_max;   /* lowest and highest node its threads ran on (-1 unknown) */
    int thread_nodes;         /* how many nodes its threads ran on */
    int mem_node;             /* node holding most of the sampled pages (-1 none or unknown) */
    double mem_share;         /* share of the sampled pages there */
} numa_proc_place;

/* One placement sample, for convergence. */
typedef struct {
    double t;                 /* seconds since the start */
    bool converged;           /* every process: all threads on one node, its memory mostly there */
    int min_loops, max_loops;
    numa_proc_place *procs;   /* nproc */
    int *task_nodes;          /* ntasks: the node of each task's CPU (-1 unknown) */
    int last_loops;           /* the last task's loops (perf's -c progress with -l) */
} numa_sample;

#define NUMA_MEM_SERIES_MAX 4096 /* samples kept: about one a second, and the first converged */

typedef struct {
    numa_task_result *tasks;  /* ntasks */
    int ntasks;
    double startup_s;         /* forks, allocations and first touch, until every task was ready */
    double wall_s;            /* start to the end of the last task */
    double converged_s;       /* first converged sample (-1: never) */
    int nsamples;
    numa_sample *series;      /* with setup.keep_series: nseries samples, about one a second */
    int nseries;
    const char *process_pages; /* page method of the process buffers ("thp", ...), NULL none */
    double process_huge;       /* their huge-page share (lowest), -1 unknown */
    int process_mem_node;      /* node most of process 0's buffer is on */
    bool stopped;             /* a stop or the time limit ended the loops */
    bool failed;
    char error[320];          /* why, when failed */
} numa_mem_result;

/* Called by the parent about once a second while the tasks run (progress lines);
 * may be NULL. */
typedef void (*numa_mem_progress)(void *ctx, const numa_sample *s, const numa_task_result *tasks, int ntasks);

/* Runs it; the parent must be single-threaded. Returns false with r->error when a
 * task failed (the others' results are still in r). Free with numa_mem_result_free. */
bool numa_mem_run(const numa_mem_setup *s, numa_mem_progress progress, void *ctx, numa_mem_result *r);
void numa_mem_result_free(numa_mem_result *r);

#endif
