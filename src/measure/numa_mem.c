/* SPDX-License-Identifier: MIT */
#include "measure/numa_mem.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/clock.h"
#include "measure/stop.h"
#include "platform/platform.h"
#include "team/team.h"

enum { SLOT_NEW, SLOT_READY, SLOT_RUNNING, SLOT_DONE, SLOT_FAILED };

/* One task, written by its thread, read by the parent. */
typedef struct {
    int state, pid, cpu, mem_node;
    double mem_fraction;
    uint64_t loops, bytes_processed, bytes_read, bytes_written, perturbations;
    uintptr_t buf_addr;  /* its thread buffer in its process, for the parent's page queries */
    int moved_to[NUMA_MEM_MOVES_KEPT]; /* -x: the CPU of each move, the first ones */
    uint64_t value; /* what the passes read: kept, so no pass can be optimised away */
    double runtime_s, user_s, system_s;
    char error[200];
} slot;

/* One process's buffer, written by the process. */
typedef struct {
    int mem_node;
    double mem_fraction, huge;
    char method[16];
    uintptr_t buf_addr; /* its process buffer, for the parent's page queries */
} proc_info;

/* The shared mapping: control, then ntasks slots, then nproc proc_infos. */
typedef struct {
    int ready, go, stop;
    slot slots[];
} control;

static int load(const int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store(int *p, int v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void nap(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

/* -u's sleep under the process mutex (up to 100 s a loop): in slices, so a stop
 * is seen within NAP_SLICE_S. */
#define NAP_SLICE_S 0.01
static void nap_unless_stopped(double seconds, const int *stop)
{
    for (double left = seconds; left > 0 && !load(stop); left -= NAP_SLICE_S)
        nap(left < NAP_SLICE_S ? left : NAP_SLICE_S);
}

static proc_info *procs_of(control *c, int ntasks)
{
    return (proc_info *)(void *)&c->slots[ntasks];
}

/* ---- the workers ----------------------------------------------------------- */

typedef struct {
    const numa_mem_setup *s;
    control *c;
    const buffer *global, *proc;
    int process;
    pthread_mutex_t lock; /* the process mutex: -u and -L */
} process_ctx;

static void task_fail(slot *sl, const char *fmt, const char *what, size_t mib)
{
    snprintf(sl->error, sizeof sl->error, fmt, what, mib);
    store(&sl->state, SLOT_FAILED);
}

/* A buffer: bound to node (-M), or first touched where -0 says, or by the caller;
 * then initialised as -z / -I say (the first touch). */
static bool make_buffer(const numa_mem_setup *s, buffer *b, size_t bytes, int node, bool shared, uint64_t seed)
{
    cpu_list saved = {NULL, 0};
    bool moved = s->init_node >= 0 && node < 0 && s->init_cpus.count && platform_self_affinity(&saved) &&
                 platform_pin_self(s->init_cpus.ids, s->init_cpus.count);
    bool ok = shared ? buffer_alloc_shared(b, bytes, s->pages, s->huge_size)
              : node >= 0 ? buffer_alloc_bound(b, bytes, s->pages, s->huge_size, node)
                          : buffer_alloc(b, bytes, s->pages, s->huge_size, -1);
    if (ok && s->init_zero) /* in pieces, so the parent (the global buffer) sees a stop */
        for (size_t at = 0; at < bytes && !stop_poll(); at += STOP_CHECK_BYTES)
            memset((char *)b->ptr + at, 0, bytes - at < STOP_CHECK_BYTES ? bytes - at : STOP_CHECK_BYTES);
    else if (ok && s->init_random)
        buffer_fill(b, seed);
    if (moved)
        platform_pin_self(saved.ids, saved.count);
    cpu_list_free(&saved);
    return ok;
}

static void sample_nodes(buffer *b, int *node, double *fraction)
{
    buffer_inspect_nodes(b);
    *node = b->node;
    *fraction = b->node < 0 ? 0 : b->node_fraction;
}

static void wait_for_go(control *c)
{
    while (!load(&c->go) && !load(&c->stop))
        nap(50e-6);
}

/* -x: task 0 goes to the far CPU, once, and back to where it may run; the CPU
 * when it went, -1 when not. */
static int perturb(const numa_mem_setup *s)
{
    cpu_list saved = {NULL, 0};
    int cpu = platform_current_cpu();
    int far = cpu == s->far_cpu_low ? s->far_cpu_high : s->far_cpu_low;
    bool moved = platform_self_affinity(&saved) && platform_pin_self(&far, 1);
    if (moved)
        platform_pin_self(saved.ids, saved.count);
    cpu_list_free(&saved);
    return moved ? far : -1;
}

static void pass(const buffer *b, size_t bytes, const numa_access *a, unsigned index, unsigned count, uint64_t loop,
                 uint64_t *value, control *c, numa_pass_count *n)
{
    if (bytes && b->ptr)
        numa_work_pass(b->ptr, bytes / 8, a, index, count, loop, value, &c->stop, n);
}

static void task_job(team *t, int tid, void *arg)
{
    (void)t;
    process_ctx *x = arg;
    const numa_mem_setup *s = x->s;
    int task = x->process * s->nthreads + tid;
    slot *sl = &x->c->slots[task];
    sl->pid = (int)getpid();
    buffer tb = {0};
    int node = s->nodes ? s->nodes[task] : -1;
    if (s->thread_bytes &&
        !make_buffer(s, &tb, s->thread_bytes, node, false, 0x5EED0000ULL + (uint64_t)task)) {
        task_fail(sl, "cannot allocate its %s memory (%zu MiB)", "thread", s->thread_bytes >> 20);
        return;
    }
    if (s->thread_bytes)
        sample_nodes(&tb, &sl->mem_node, &sl->mem_fraction);
    else
        sl->mem_node = -1;
    sl->buf_addr = (uintptr_t)tb.ptr;
    store(&sl->cpu, platform_current_cpu()); /* known before the first loop ends (slow loops, emulators) */
    store(&sl->state, SLOT_READY);
    __atomic_add_fetch(&x->c->ready, 1, __ATOMIC_ACQ_REL);
    if (s->serialize)
        wait_for_go(x->c);
    store(&sl->state, SLOT_RUNNING);
    double t0 = clock_now(), last_perturb = t0;
    uint64_t value = 0x9E3779B97F4A7C15ULL * (uint64_t)(task + 1);
    numa_pass_count n = {0};
    for (uint64_t l = 0; (!s->loops || l < s->loops) && !load(&x->c->stop) && !n.stopped; l++) {
        pass(x->global, s->global_bytes, &s->access, (unsigned)x->process, (unsigned)s->nproc, l, &value, x->c, &n);
        pass(x->proc, s->proc_bytes, &s->access, (unsigned)tid, (unsigned)s->nthreads, l, &value, x->c, &n);
        pass(&tb, s->thread_bytes, &s->access, 0, 1, l, &value, x->c, &n);
        if (s->usleep_us || s->locked_bytes) {
            pthread_mutex_lock(&x->lock);
            if (s->usleep_us)
                nap_unless_stopped((double)s->usleep_us / 1e6, &x->c->stop);
            pass(x->proc, s->locked_bytes, &s->access, (unsigned)tid, (unsigned)s->nthreads, l, &value, x->c, &n);
            pthread_mutex_unlock(&x->lock);
        }
        __atomic_store_n(&sl->bytes_processed, n.bytes_processed, __ATOMIC_RELAXED);
        __atomic_store_n(&sl->bytes_read, n.bytes_read, __ATOMIC_RELAXED);
        __atomic_store_n(&sl->bytes_written, n.bytes_written, __ATOMIC_RELAXED);
        __atomic_store_n(&sl->loops, l + 1 - n.stopped, __ATOMIC_RELAXED);
        store(&sl->cpu, platform_current_cpu());
        if (task == 0 && s->perturb_s > 0 && clock_now() - last_perturb >= s->perturb_s) {
            int to = perturb(s);
            if (to >= 0 && sl->perturbations < NUMA_MEM_MOVES_KEPT)
                sl->moved_to[sl->perturbations] = to;
            if (to >= 0)
                __atomic_add_fetch(&sl->perturbations, 1, __ATOMIC_RELAXED);
            last_perturb = clock_now();
        }
    }
    sl->runtime_s = clock_now() - t0;
    platform_thread_times(&sl->user_s, &sl->system_s);
    if (s->thread_bytes)
        sample_nodes(&tb, &sl->mem_node, &sl->mem_fraction); /* where the pages ended up */
    buffer_free(&tb);
    sl->value = value;
    store(&sl->state, SLOT_DONE);
}

/* The child: its process memory, its threads, then _exit (no atexit handlers, no
 * second flush of the parent's stdio buffers). */
static void process_main(const numa_mem_setup *s, control *c, const buffer *global, int p)
{
    platform_die_with_parent();
    signal(SIGINT, SIG_IGN); /* the parent hears them and sets the stop flag */
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    stop_watch_output(-1); /* stdout's reader too: a fill cut short here would read as a failure */
    int task0 = p * s->nthreads;
    if (s->cpus && s->cpus[task0].count) /* the process memory is first touched where its thread 0 runs */
        platform_pin_self(s->cpus[task0].ids, s->cpus[task0].count);
    proc_info *pi = &procs_of(c, s->nproc * s->nthreads)[p];
    buffer pb = {0};
    pi->mem_node = -1;
    pi->huge = -1;
    if (s->proc_bytes) {
        if (!make_buffer(s, &pb, s->proc_bytes, s->nodes ? s->nodes[task0] : -1, false, 0x5EED1000ULL + (uint64_t)p)) {
            for (int i = 0; i < s->nthreads; i++)
                task_fail(&c->slots[task0 + i], "cannot allocate its %s memory (%zu MiB)", "process",
                          s->proc_bytes >> 20);
            _exit(3);
        }
        buffer_inspect(&pb);
        pi->buf_addr = (uintptr_t)pb.ptr;
        pi->mem_node = pb.node;
        pi->mem_fraction = pb.node_fraction;
        pi->huge = pb.huge_coverage;
        snprintf(pi->method, sizeof pi->method, "%s", pb.method ? pb.method : "normal");
    }
    team_place *places = calloc((size_t)s->nthreads, sizeof *places);
    team_failure why = {0, 0};
    team *t = NULL;
    if (places) {
        for (int i = 0; i < s->nthreads; i++)
            places[i].cpus = s->cpus ? s->cpus[task0 + i] : (cpu_list){NULL, 0};
        t = team_create(places, s->nthreads, &why);
    }
    if (!t) {
        for (int i = 0; i < s->nthreads; i++) {
            slot *sl = &c->slots[task0 + i];
            snprintf(sl->error, sizeof sl->error, "cannot create its threads (%d of %d started): %s", why.started,
                     s->nthreads, strerror(why.error ? why.error : ENOMEM));
            store(&sl->state, SLOT_FAILED);
        }
        _exit(4);
    }
    process_ctx x = {s, c, global, &pb, p, PTHREAD_MUTEX_INITIALIZER};
    team_run(t, task_job, &x);
    team_destroy(t);
    buffer_free(&pb);
    free(places);
    _exit(0);
}

/* ---- the parent ------------------------------------------------------------ */

typedef struct {
    const numa_mem_setup *s;
    control *c;
    pid_t *pids;
    int alive;
    numa_mem_result *r;
    numa_proc_place *places; /* nproc: the sample being taken */
    int *task_nodes;         /* ntasks: its tasks' nodes */
    bool abandoned;          /* start-up given up: the workers were killed on purpose */
} run_state;

static void fail(numa_mem_result *r, control *c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(numa_mem_result *r, control *c, const char *fmt, ...)
{
    if (!r->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error, sizeof r->error, fmt, ap);
        va_end(ap);
        r->failed = true;
    }
    store(&c->stop, 1);
}

/* The first failed slot of process p, or NULL. */
static const slot *failed_slot(const run_state *st, int p)
{
    for (int i = 0; i < st->s->nthreads; i++) {
        const slot *sl = &st->c->slots[p * st->s->nthreads + i];
        if (load(&sl->state) == SLOT_FAILED)
            return sl;
    }
    return NULL;
}

/* Reaps children that ended; an abnormal end is a failure naming the process. */
static void reap(run_state *st, bool block)
{
    for (int p = 0; p < st->s->nproc; p++) {
        if (st->pids[p] <= 0)
            continue;
        int status;
        pid_t w = waitpid(st->pids[p], &status, block ? 0 : WNOHANG);
        if (w != st->pids[p])
            continue;
        st->alive--;
        const slot *bad = failed_slot(st, p);
        if (!bad && st->abandoned && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
            st->pids[p] = 0; /* killed by abandon_startup: not a failure of its own */
            continue;
        }
        if (bad)
            fail(st->r, st->c, "process %d (pid %d): %s", p, (int)st->pids[p], bad->error);
        else if (WIFSIGNALED(status))
            fail(st->r, st->c, "process %d (pid %d) was killed by signal %d (%s)", p, (int)st->pids[p],
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
        else if (WEXITSTATUS(status) != 0)
            fail(st->r, st->c, "process %d (pid %d) exited with status %d", p, (int)st->pids[p],
                 WEXITSTATUS(status));
        st->pids[p] = 0;
    }
}

static void kill_all(run_state *st)
{
    for (int p = 0; p < st->s->nproc; p++)
        if (st->pids[p] > 0)
            kill(st->pids[p], SIGKILL);
}

/* Where process p's memory is now: move_pages on NUMA_MEM_NODE_SAMPLES pages spread
 * evenly over its process buffer and its threads' buffers, in its address space. */
static void sample_memory(const run_state *st, int p, numa_proc_place *pl)
{
    const numa_mem_setup *s = st->s;
    const proc_info *pi = &procs_of(st->c, s->nproc * s->nthreads)[p];
    size_t total = s->proc_bytes + (size_t)s->nthreads * s->thread_bytes;
    pl->mem_node = -1;
    pl->mem_share = 0;
    if (!total)
        return;
    const void *addrs[NUMA_MEM_NODE_SAMPLES];
    int nodes[NUMA_MEM_NODE_SAMPLES];
    size_t n = 0;
    for (size_t k = 0; k < NUMA_MEM_NODE_SAMPLES; k++) {
        size_t off = total / NUMA_MEM_NODE_SAMPLES * k, at = 0; /* off in the buffers laid end to end */
        uintptr_t base = 0;
        if (off < s->proc_bytes) {
            base = pi->buf_addr;
            at = off;
        } else if (s->thread_bytes) {
            size_t t = (off - s->proc_bytes) / s->thread_bytes;
            base = st->c->slots[p * s->nthreads + (int)t].buf_addr;
            at = (off - s->proc_bytes) % s->thread_bytes;
        }
        if (base)
            addrs[n++] = (const void *)(base + at / 4096 * 4096);
    }
    size_t count, known;
    if (!n || !platform_page_nodes(st->pids[p], addrs, nodes, n))
        return;
    pl->mem_node = page_nodes_majority(nodes, n, &count, &known);
    pl->mem_share = known ? (double)count / (double)known : 0;
}

/* A placement sample: converged when every process has all its threads on one
 * node and (where it has memory whose pages could be queried) most of that memory
 * there too. */
static numa_sample take_sample(const run_state *st, double t)
{
    const numa_mem_setup *s = st->s;
    numa_sample smp = {t, true, -1, -1, st->places, st->task_nodes, 0};
    for (int p = 0; p < s->nproc; p++) {
        numa_proc_place *pl = &st->places[p];
        *pl = (numa_proc_place){-1, -1, 0, -1, 0};
        uint64_t seen = 0; /* nodes the threads ran on, as bits (first 64) */
        for (int i = 0; i < s->nthreads; i++) {
            const slot *sl = &st->c->slots[p * s->nthreads + i];
            int cpu = load(&sl->cpu);
            int n = cpu >= 0 && cpu < s->ncpu_node ? s->cpu_node[cpu] : -1;
            int loops = (int)__atomic_load_n(&sl->loops, __ATOMIC_RELAXED);
            st->task_nodes[p * s->nthreads + i] = n;
            smp.last_loops = loops; /* the tasks in order: the last one's stays */
            smp.min_loops = smp.min_loops < 0 || loops < smp.min_loops ? loops : smp.min_loops;
            smp.max_loops = loops > smp.max_loops ? loops : smp.max_loops;
            if (n < 0) {
                smp.converged = false;
                continue;
            }
            pl->node_min = pl->node_min < 0 || n < pl->node_min ? n : pl->node_min;
            pl->node_max = n > pl->node_max ? n : pl->node_max;
            if (n < 64 && !(seen & (1ULL << n))) {
                seen |= 1ULL << n;
                pl->thread_nodes++;
            }
        }
        if (pl->node_min != pl->node_max || pl->node_min < 0)
            smp.converged = false;
        sample_memory(st, p, pl);
        if (pl->mem_node >= 0 && pl->mem_node != pl->node_min)
            smp.converged = false;
    }
    return smp;
}

/* Keeps a sample in the series: the first, one at least a second after the last
 * kept, and the first converged. */
static void keep_sample(numa_mem_result *r, const numa_sample *smp, int nproc, int ntasks)
{
    bool first_converged = smp->converged && r->converged_s == smp->t;
    if (r->nseries && smp->t - r->series[r->nseries - 1].t < 1.0 - 1e-3 && !first_converged)
        return;
    if (r->nseries >= NUMA_MEM_SERIES_MAX)
        return;
    if (r->nseries % 64 == 0) {
        numa_sample *more = realloc(r->series, (size_t)(r->nseries + 64) * sizeof *more);
        if (!more)
            return;
        r->series = more;
    }
    numa_proc_place *procs = malloc((size_t)nproc * sizeof *procs);
    int *task_nodes = malloc((size_t)ntasks * sizeof *task_nodes);
    if (!procs || !task_nodes) {
        free(procs);
        free(task_nodes);
        return;
    }
    memcpy(procs, smp->procs, (size_t)nproc * sizeof *procs);
    memcpy(task_nodes, smp->task_nodes, (size_t)ntasks * sizeof *task_nodes);
    r->series[r->nseries] = *smp;
    r->series[r->nseries].procs = procs;
    r->series[r->nseries++].task_nodes = task_nodes;
}

static void copy_results(run_state *st)
{
    const numa_mem_setup *s = st->s;
    numa_mem_result *r = st->r;
    for (int i = 0; i < r->ntasks; i++) {
        const slot *sl = &st->c->slots[i];
        numa_task_result *t = &r->tasks[i];
        t->process = i / s->nthreads;
        t->thread = i % s->nthreads;
        t->pid = sl->pid;
        t->cpu = sl->cpu;
        t->node = sl->cpu >= 0 && sl->cpu < s->ncpu_node ? s->cpu_node[sl->cpu] : -1;
        t->mem_node = sl->mem_node;
        t->mem_node_fraction = sl->mem_fraction;
        t->loops = sl->loops;
        t->perturbations = sl->perturbations;
        t->bytes_processed = sl->bytes_processed;
        t->bytes_read = sl->bytes_read;
        t->bytes_written = sl->bytes_written;
        t->runtime_s = sl->runtime_s;
        t->user_s = sl->user_s;
        t->system_s = sl->system_s;
        t->process_addr = procs_of(st->c, r->ntasks)[t->process].buf_addr;
        t->thread_addr = sl->buf_addr;
        for (int k = 0; k < NUMA_MEM_MOVES_KEPT; k++)
            t->moved_to[k] = (uint64_t)k < sl->perturbations ? sl->moved_to[k] : -1;
    }
    const proc_info *pi = procs_of(st->c, r->ntasks);
    r->process_mem_node = s->proc_bytes ? pi[0].mem_node : -1;
    r->process_huge = -1;
    for (int p = 0; s->proc_bytes && p < s->nproc; p++) /* the lowest share of any process */
        if (pi[p].huge >= 0 && (r->process_huge < 0 || pi[p].huge < r->process_huge))
            r->process_huge = pi[p].huge;
    static const char *const methods[] = {"hugetlb", "thp", "normal", "small"}; /* buffer.h's, as constants */
    for (size_t k = 0; s->proc_bytes && k < sizeof methods / sizeof methods[0]; k++)
        if (strcmp(pi[0].method, methods[k]) == 0)
            r->process_pages = methods[k];
}

/* A stop or a failure before every task was ready: nothing is measured yet, so the
 * workers' start-up (allocating and first-touching their memory, which does not
 * look at the stop flag: gigabytes take seconds) is not waited for; they are
 * killed at once and reaped, and the run ends within a second of the stop. */
static void abandon_startup(run_state *st)
{
    st->abandoned = true;
    kill_all(st);
    reap(st, true);
}

/* Until every task is ready: false when one failed or a stop came. */
static bool wait_ready(run_state *st)
{
    int ntasks = st->r->ntasks;
    while (load(&st->c->ready) < ntasks) {
        reap(st, false);
        for (int p = 0; p < st->s->nproc && !st->r->failed; p++) {
            const slot *bad = failed_slot(st, p);
            if (bad)
                fail(st->r, st->c, "process %d: %s", p, bad->error);
        }
        if (st->r->failed || st->alive < st->s->nproc)
            return false;
        if (stop_requested()) {
            st->r->stopped = true;
            store(&st->c->stop, 1);
            return false;
        }
        nap(1e-3);
    }
    return true;
}

static void monitor(run_state *st, double t_go, numa_mem_progress progress, void *ctx)
{
    const numa_mem_setup *s = st->s;
    numa_mem_result *r = st->r;
    double next_sample = t_go + (s->sample_s > 0 ? s->sample_s : 1), stop_at = -1;
    while (st->alive > 0) {
        nap(2e-3);
        reap(st, false);
        double now = clock_now();
        if (!load(&st->c->stop) && ((s->seconds > 0 && now - t_go >= s->seconds) || stop_requested())) {
            r->stopped = true;
            store(&st->c->stop, 1);
        }
        if (load(&st->c->stop) && stop_at < 0)
            stop_at = now;
        if (stop_at >= 0 && now - stop_at > NUMA_MEM_KILL_AFTER_S) {
            fail(r, st->c, "the workers did not stop within %.0f s of the stop: killed", NUMA_MEM_KILL_AFTER_S);
            kill_all(st);
            reap(st, true);
            break;
        }
        if (now >= next_sample && st->alive > 0 && !load(&st->c->stop)) {
            next_sample = now + (s->sample_s > 0 ? s->sample_s : 1);
            numa_sample smp = take_sample(st, now - t_go);
            r->nsamples++;
            if (smp.converged && r->converged_s < 0)
                r->converged_s = smp.t;
            if (s->keep_series)
                keep_sample(r, &smp, s->nproc, r->ntasks);
            if (progress) {
                copy_results(st);
                progress(ctx, &smp, r->tasks, r->ntasks);
            }
            if (smp.converged && s->stop_converged)
                store(&st->c->stop, 1);
        }
    }
}

bool numa_mem_run(const numa_mem_setup *s, numa_mem_progress progress, void *ctx, numa_mem_result *r)
{
    memset(r, 0, sizeof *r);
    r->converged_s = -1;
    r->process_mem_node = -1;
    r->ntasks = s->nproc * s->nthreads;
    r->tasks = calloc((size_t)r->ntasks, sizeof *r->tasks);
    size_t shared_len = sizeof(control) + (size_t)r->ntasks * sizeof(slot) + (size_t)s->nproc * sizeof(proc_info);
    control *c = mmap(NULL, shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pid_t *pids = calloc((size_t)s->nproc, sizeof *pids);
    numa_proc_place *places = calloc((size_t)s->nproc, sizeof *places);
    int *task_nodes = calloc((size_t)r->ntasks, sizeof *task_nodes);
    if (!r->tasks || c == MAP_FAILED || !pids || !places || !task_nodes) {
        snprintf(r->error, sizeof r->error, "cannot allocate the control block of %d tasks", r->ntasks);
        r->failed = true;
        free(pids);
        free(places);
        free(task_nodes);
        if (c != MAP_FAILED)
            munmap(c, shared_len);
        return false;
    }
    for (int i = 0; i < r->ntasks; i++)
        c->slots[i].cpu = -1;
    run_state st = {s, c, pids, 0, r, places, task_nodes, false};
    buffer global = {0};
    double t_start = clock_now();
    if (s->global_bytes && !make_buffer(s, &global, s->global_bytes, -1, true, 0x5EED2000ULL))
        fail(r, c, "cannot allocate the global memory (%zu MiB)", s->global_bytes >> 20);
    if (!r->failed && stop_requested()) /* while the global memory was filled: no worker is started */
        r->stopped = true;
    fflush(stdout); /* the children must not write the parent's buffered output again */
    fflush(stderr);
    for (int p = 0; p < s->nproc && !r->failed && !r->stopped; p++) {
        pid_t pid = fork();
        if (pid == 0)
            process_main(s, c, &global, p);
        if (pid < 0) { /* EAGAIN's text does not say which limit */
            int e = errno;
            fail(r, c, "cannot create the worker processes (%d of %d started): %s%s", p, s->nproc, strerror(e),
                 e == EAGAIN ? " (a limit on processes, ulimit -u)" : "");
            break;
        }
        pids[p] = pid;
        st.alive++;
    }
    bool ready = !r->failed && !r->stopped && wait_ready(&st);
    r->startup_s = clock_now() - t_start;
    double t_go = clock_now();
    if (ready) {
        store(&c->go, 1);
    } else {
        store(&c->stop, 1);
        abandon_startup(&st);
    }
    monitor(&st, t_go, ready ? progress : NULL, ctx);
    reap(&st, true);
    r->wall_s = clock_now() - t_go;
    copy_results(&st);
    for (int i = 0; i < r->ntasks; i++)
        r->tasks[i].global_addr = (uintptr_t)global.ptr;
    buffer_free(&global);
    free(pids);
    free(places);
    free(task_nodes);
    munmap(c, shared_len);
    return !r->failed;
}

void numa_mem_result_free(numa_mem_result *r)
{
    for (int i = 0; i < r->nseries; i++) {
        free(r->series[i].procs);
        free(r->series[i].task_nodes);
    }
    free(r->series);
    free(r->tasks);
    memset(r, 0, sizeof *r);
}
