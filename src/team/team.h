/* SPDX-License-Identifier: MIT */
/* A team of worker threads, each pinned to its place (a set of CPUs) once, then
 * reused for every job: allocation, first touch, warm-up and timed samples all run
 * on the same threads. The pin is verified from inside each thread. */
#ifndef MEMBENCH_TEAM_H
#define MEMBENCH_TEAM_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cpu_list.h"

typedef struct team team;
typedef void (*team_job)(team *t, int tid, void *arg);

typedef struct {
    cpu_list cpus; /* CPUs the thread may run on; empty = not pinned */
} team_place;

/* Why team_create failed: the error (an errno value: EAGAIN when a limit on
 * processes or memory stopped pthread_create, ENOMEM) and how many threads had
 * started before it (they are stopped again). */
typedef struct {
    int error;
    int started;
} team_failure;

/* Starts n threads; thread i is pinned to places[i] (copied). NULL on failure,
 * with the reason in *why when why is not NULL. */
team *team_create(const team_place *places, int n, team_failure *why);

/* Runs job(t, tid, arg) on every thread and returns when all have finished. */
void team_run(team *t, team_job job, void *arg);

/* Inside a job: waits until all n threads arrive. Spins (so a timed start is
 * tight), yielding now and then; with more threads than CPUs it sleeps instead
 * (on a futex: the last arrival wakes the sleepers with one call, and none takes a
 * lock on its way out), so the threads still on their way get the CPUs. */
void team_barrier(team *t);

int team_size(const team *t);
/* CPU thread tid was on at the end of its last job (before any: when it started),
 * read from inside the thread; and whether its affinity matched its place. */
int team_observed_cpu(const team *t, int tid);
bool team_pin_verified(const team *t, int tid);

void team_destroy(team *t);

#endif
