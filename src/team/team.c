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

struct team {
    int n;
    worker *workers;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    unsigned long generation; /* incremented per job */
    int finished;
    int ready; /* workers that have pinned themselves */
    bool quit;
    team_job job;
    void *arg;
    /* sense-reversing barrier; waiters spin, then sleep on barrier_wake */
    atomic_int barrier_count;
    atomic_int barrier_sense;
    pthread_mutex_t barrier_lock;
    pthread_cond_t barrier_wake;
    int barrier_sleepers;  /* under barrier_lock */
    bool oversubscribed; /* more threads than usable CPUs: barrier waiters sleep */
};

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
    unsigned long seen = 0;
    pthread_mutex_lock(&t->lock);
    if (++t->ready == t->n)
        pthread_cond_signal(&t->done);
    for (;;) {
        while (!t->quit && t->generation == seen)
            pthread_cond_wait(&t->wake, &t->lock);
        if (t->quit)
            break;
        seen = t->generation;
        team_job job = t->job;
        void *arg = t->arg;
        pthread_mutex_unlock(&t->lock);
        job(t, w->tid, arg);
        w->observed_cpu = platform_current_cpu(); /* where the job (a measurement) ended */
        pthread_mutex_lock(&t->lock);
        if (++t->finished == t->n)
            pthread_cond_signal(&t->done);
    }
    pthread_mutex_unlock(&t->lock);
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
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    pthread_cond_init(&t->done, NULL);
    atomic_init(&t->barrier_count, 0);
    atomic_init(&t->barrier_sense, 0);
    pthread_mutex_init(&t->barrier_lock, NULL);
    pthread_cond_init(&t->barrier_wake, NULL);
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
        pthread_mutex_lock(&t->lock); /* the started workers read n */
        t->n = started;
        pthread_mutex_unlock(&t->lock);
        team_destroy(t);
        return failed(why, error, started);
    }
    /* Return only once every worker is pinned, so callers can read the checks. */
    pthread_mutex_lock(&t->lock);
    while (t->ready < t->n)
        pthread_cond_wait(&t->done, &t->lock);
    pthread_mutex_unlock(&t->lock);
    return t;
}

void team_run(team *t, team_job job, void *arg)
{
    pthread_mutex_lock(&t->lock);
    t->job = job;
    t->arg = arg;
    t->finished = 0;
    t->generation++;
    pthread_cond_broadcast(&t->wake);
    while (t->finished < t->n)
        pthread_cond_wait(&t->done, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

void team_barrier(team *t)
{
    int sense = !atomic_load_explicit(&t->barrier_sense, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&t->barrier_count, 1, memory_order_acq_rel) == t->n - 1) {
        atomic_store_explicit(&t->barrier_count, 0, memory_order_relaxed);
        atomic_store_explicit(&t->barrier_sense, sense, memory_order_release);
        /* Sleepers re-check the sense under the lock before waiting, so taking it
         * here after the flip means none can miss the broadcast. */
        pthread_mutex_lock(&t->barrier_lock);
        if (t->barrier_sleepers)
            pthread_cond_broadcast(&t->barrier_wake);
        pthread_mutex_unlock(&t->barrier_lock);
        return;
    }
    /* Every thread has a CPU: spin (yielding now and then), so timed starts are
     * tight. More threads than CPUs: a spinner holds a CPU that a thread still on
     * its way here needs (4096 threads on 2 CPUs took minutes), so sleep. */
    for (unsigned long spins = 0; !t->oversubscribed || spins < 100; spins++) {
        if (atomic_load_explicit(&t->barrier_sense, memory_order_acquire) == sense)
            return;
        if (spins > 20000)
            sched_yield();
    }
    pthread_mutex_lock(&t->barrier_lock);
    t->barrier_sleepers++;
    while (atomic_load_explicit(&t->barrier_sense, memory_order_acquire) != sense)
        pthread_cond_wait(&t->barrier_wake, &t->barrier_lock);
    t->barrier_sleepers--;
    pthread_mutex_unlock(&t->barrier_lock);
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
    pthread_mutex_lock(&t->lock);
    t->quit = true;
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->lock);
    for (int i = 0; i < t->n; i++) {
        pthread_join(t->workers[i].thread, NULL);
        cpu_list_free(&t->workers[i].place);
    }
    pthread_mutex_destroy(&t->lock);
    pthread_mutex_destroy(&t->barrier_lock);
    pthread_cond_destroy(&t->barrier_wake);
    pthread_cond_destroy(&t->wake);
    pthread_cond_destroy(&t->done);
    free(t->workers);
    free(t);
}

