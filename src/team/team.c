/* SPDX-License-Identifier: MIT */
#include "team/team.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

typedef struct {
    team *owner;
    int tid;
    pthread_t thread;
    cpu_list place;
    int observed_cpu;
    bool pin_verified;
} worker;

/* Every wait here is on a word another thread moves on (platform_wait_on: a futex
 * on Linux), never on a mutex: with a condition variable, each of T woken threads
 * took one mutex again, one at a time, and an oversubscribed barrier of 4096
 * threads cost 200 ms (BENCHMARKS.md, issue 38). A waiter spins a little first;
 * the one who moves a word on wakes the sleepers only when there are any. */
struct team {
    int n;
    worker *workers;
    atomic_uint job_gen;      /* moved on per job, and once more to quit */
    atomic_uint job_sleepers; /* workers asleep on job_gen */
    atomic_uint pending;      /* workers yet to pin themselves, then to finish the job */
    atomic_bool quit;
    team_job job; /* written before job_gen moves on, read after */
    void *arg;
    atomic_uint barrier_count;    /* arrivals in this generation */
    atomic_uint barrier_gen;      /* moved on by each generation's last arrival */
    atomic_uint barrier_sleepers; /* waiters asleep on barrier_gen */
    bool oversubscribed; /* more threads than usable CPUs: barrier waiters sleep */
};

enum {
    SPIN_FOREVER = 0, /* never sleep (yielding after YIELD_AFTER polls) */
    YIELD_AFTER = 20000,
    SLEEP_AFTER = 100, /* polls before sleeping: a few microseconds */
};

/* Waits until *word moves on from seen: polls it (up to spins times, or forever
 * with SPIN_FOREVER), then sleeps on it, counted in *sleepers. The count goes up
 * before the word is checked and the waker moves the word before it reads the
 * count (both sequentially consistent), so either the waker sees a sleeper and
 * wakes it, or the sleeper sees the new value and never sleeps. */
static void wait_for_change(atomic_uint *word, unsigned seen, atomic_uint *sleepers, unsigned spins)
{
    for (unsigned i = 0; spins == SPIN_FOREVER || i < spins; i++) {
        if (atomic_load_explicit(word, memory_order_acquire) != seen)
            return;
        if (i > YIELD_AFTER)
            sched_yield();
    }
    atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(word, memory_order_seq_cst) == seen)
        platform_wait_on(word, seen);
    atomic_fetch_sub_explicit(sleepers, 1, memory_order_relaxed);
}

/* Moves *word on (publishing what was written before) and wakes its sleepers. */
static void release_all(atomic_uint *word, atomic_uint *sleepers)
{
    atomic_fetch_add_explicit(word, 1, memory_order_seq_cst);
    if (atomic_load_explicit(sleepers, memory_order_seq_cst) > 0)
        platform_wake_all(word);
}

/* One worker is done (pinned, or finished the job); the last wakes team_run. */
static void worker_done(team *t)
{
    if (atomic_fetch_sub_explicit(&t->pending, 1, memory_order_acq_rel) == 1)
        platform_wake_all(&t->pending);
}

/* The caller's wait for every worker: each decrement changes the word (a sleep
 * on an old count returns at once), and only the last one wakes. */
static void wait_all_done(team *t)
{
    unsigned left;
    while ((left = atomic_load_explicit(&t->pending, memory_order_acquire)) != 0)
        platform_wait_on(&t->pending, left);
}

static bool verify_pin(const cpu_list *place)
{
    cpu_list now;
    if (!platform_self_affinity(&now))
        return false;
    /* as sets: a place may name a CPU twice (OMP_PLACES='{0,0,0}') */
    bool same = true;
    for (size_t i = 0; same && i < place->count; i++)
        same = cpu_list_contains(&now, place->ids[i]);
    for (size_t i = 0; same && i < now.count; i++)
        same = cpu_list_contains(place, now.ids[i]);
    cpu_list_free(&now);
    return same;
}

static void *worker_main(void *p)
{
    worker *w = p;
    team *t = w->owner;
    if (w->place.count > 0) {
        platform_pin_self(w->place.ids, w->place.count);
        sched_yield(); /* let the scheduler move us onto the new CPU set */
        w->pin_verified = verify_pin(&w->place);
    }
    w->observed_cpu = platform_current_cpu();
    worker_done(t);
    /* Idle between jobs: a short spin, then sleep (a team waits for its next job
     * for as long as the caller measures on other threads or prints). */
    for (unsigned seen = 0;;) {
        wait_for_change(&t->job_gen, seen, &t->job_sleepers, SLEEP_AFTER);
        seen = atomic_load_explicit(&t->job_gen, memory_order_acquire);
        if (atomic_load_explicit(&t->quit, memory_order_acquire))
            break;
        t->job(t, w->tid, t->arg);
        w->observed_cpu = platform_current_cpu(); /* where the job (a measurement) ended */
        worker_done(t);
    }
    return NULL;
}

static team *failed(team_failure *why, int error, int started)
{
    if (why)
        *why = (team_failure){error, started};
    return NULL;
}

team *team_create(const team_place *places, int n, team_failure *why)
{
    if (n <= 0)
        return failed(why, EINVAL, 0);
    team *t = calloc(1, sizeof *t);
    if (!t)
        return failed(why, ENOMEM, 0);
    t->n = n;
    t->workers = calloc((size_t)n, sizeof *t->workers);
    if (!t->workers) {
        free(t);
        return failed(why, ENOMEM, 0);
    }
    atomic_init(&t->job_gen, 0);
    atomic_init(&t->job_sleepers, 0);
    atomic_init(&t->pending, (unsigned)n);
    atomic_init(&t->quit, false);
    atomic_init(&t->barrier_count, 0);
    atomic_init(&t->barrier_gen, 0);
    atomic_init(&t->barrier_sleepers, 0);
    cpu_list usable;
    if (platform_usable_cpus(&usable)) {
        t->oversubscribed = (size_t)n > usable.count;
        cpu_list_free(&usable);
    }
    int started = 0, error = 0;
    for (int i = 0; i < n; i++) {
        worker *w = &t->workers[i];
        w->owner = t;
        w->tid = i;
        w->observed_cpu = -1;
        w->place.count = places[i].cpus.count;
        w->place.ids = malloc(sizeof(int) * (w->place.count ? w->place.count : 1));
        if (!w->place.ids) {
            error = ENOMEM;
            break;
        }
        if (w->place.count) /* unpinned threads have no CPU list at all */
            memcpy(w->place.ids, places[i].cpus.ids, sizeof(int) * w->place.count);
        error = pthread_create(&w->thread, NULL, worker_main, w);
        if (error != 0) {
            cpu_list_free(&w->place);
            break;
        }
        started++;
    }
    if (started != n) {
        t->n = started; /* the ones to stop and join; workers read n only in a job */
        team_destroy(t);
        return failed(why, error, started);
    }
    /* Return only once every worker is pinned, so callers can read the checks. */
    wait_all_done(t);
    return t;
}

void team_run(team *t, team_job job, void *arg)
{
    t->job = job;
    t->arg = arg;
    atomic_store_explicit(&t->pending, (unsigned)t->n, memory_order_relaxed);
    release_all(&t->job_gen, &t->job_sleepers); /* publishes job, arg and pending */
    wait_all_done(t);
}

void team_barrier(team *t)
{
    /* The generation moves on only once this thread has arrived, so the one read
     * before arriving is this round's. */
    unsigned gen = atomic_load_explicit(&t->barrier_gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&t->barrier_count, 1, memory_order_acq_rel) == (unsigned)t->n - 1) {
        /* The last arrival: reset the count before anyone can pass, then release. */
        atomic_store_explicit(&t->barrier_count, 0, memory_order_relaxed);
        release_all(&t->barrier_gen, &t->barrier_sleepers);
        return;
    }
    /* Every thread has a CPU: spin (yielding now and then), so timed starts are
     * tight. More threads than CPUs: a spinner holds a CPU that a thread still on
     * its way here needs (4096 threads on 2 CPUs took minutes), so sleep. */
    wait_for_change(&t->barrier_gen, gen, &t->barrier_sleepers, t->oversubscribed ? SLEEP_AFTER : SPIN_FOREVER);
}

int team_size(const team *t)
{
    return t->n;
}

int team_observed_cpu(const team *t, int tid)
{
    return t->workers[tid].observed_cpu;
}

bool team_pin_verified(const team *t, int tid)
{
    return t->workers[tid].pin_verified;
}

void team_destroy(team *t)
{
    if (!t)
        return;
    atomic_store_explicit(&t->quit, true, memory_order_relaxed);
    release_all(&t->job_gen, &t->job_sleepers); /* wakes the idle workers to quit */
    for (int i = 0; i < t->n; i++) {
        pthread_join(t->workers[i].thread, NULL);
        cpu_list_free(&t->workers[i].place);
    }
    free(t->workers);
    free(t);
}

