/* SPDX-License-Identifier: MIT */
/* The team's barrier and job dispatch with many more threads than CPUs (its
 * waiters sleep on a futex, src/platform/wait_word.c). Promised: no thread passes a
 * barrier before every thread has arrived, generation after generation and job
 * after job; every thread runs every job once; a signal (Ctrl-C's path) wakes a
 * sleeper without letting it through; a stop requested mid-job ends the job on
 * every thread; an idle team is stopped; a team that could start only some of its
 * threads stops those and reports the failure. A lost wake-up shows as a hang: the
 * watchdog (test_watchdog) turns it into a failure. Nothing here is timed. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/clock.h"
#include "measure/stop.h"
#include "platform/platform.h"
#include "team/team.h"
#include "test.h"

/* Generous: these take about a second here, and a minute would be a hang
 * even under qemu-user or ASan. The barrier tests count it as a minute without
 * a barrier passed (passes): at nice 19 beside a busy loop on each CPU, 256
 * threads took 54-57 s in all, moving on all the while. */
#define HANG_S 60
/* Ten times the starved run, for a test that moves on forever. */
#define LIVELOCK_S 600

static atomic_uint passes; /* barriers passed by any thread, any test: the progress */

enum { MAX_THREADS = 256 };

typedef struct {
    unsigned rounds;
    atomic_uint arrived;   /* arrivals at any barrier, all generations */
    atomic_uint early;     /* passes seen before every thread had arrived */
    atomic_uint ahead;     /* passes seen after someone went past the next barrier */
    atomic_uint runs[MAX_THREADS];
} barrier_check;

/* Before barrier r every thread counts its arrival; after it, all n(r+1)
 * arrivals so far must be in, and nobody can be past barrier r+1 (this thread has
 * not arrived there), so at most n-1 of the next round's. */
static void count_arrivals(team *t, int tid, void *arg)
{
    barrier_check *c = arg;
    unsigned n = (unsigned)team_size(t);
    atomic_fetch_add(&c->runs[tid], 1);
    for (unsigned r = 0; r < c->rounds; r++) {
        atomic_fetch_add(&c->arrived, 1);
        team_barrier(t);
        atomic_fetch_add(&passes, 1);
        unsigned seen = atomic_load(&c->arrived);
        if (seen < n * (r + 1))
            atomic_fetch_add(&c->early, 1);
        if (seen > n * (r + 2) - 1)
            atomic_fetch_add(&c->ahead, 1);
    }
}

/* n threads round robin over the usable CPUs: with 2 CPUs, 64 or 256 threads are
 * oversubscribed and the barrier's waiters sleep. */
static team *team_of(int n)
{
    cpu_list usable;
    if (!platform_usable_cpus(&usable) || usable.count == 0)
        return NULL;
    team_place places[MAX_THREADS];
    for (int i = 0; i < n; i++)
        places[i].cpus = (cpu_list){&usable.ids[(size_t)i % usable.count], 1};
    team *t = team_create(places, n, NULL);
    cpu_list_free(&usable);
    return t;
}

/* jobs jobs of rounds barriers each on a team of n; checks every pass. */
static void check_barriers(int n, int jobs, unsigned rounds)
{
    team *t = team_of(n);
    CHECK(t != NULL);
    if (!t)
        return;
    static barrier_check c;
    for (int j = 0; j < jobs; j++) {
        c.rounds = rounds;
        atomic_store(&c.arrived, 0);
        atomic_store(&c.early, 0);
        atomic_store(&c.ahead, 0);
        for (int i = 0; i < n; i++)
            atomic_store(&c.runs[i], 0);
        team_run(t, count_arrivals, &c);
        CHECK_INT(atomic_load(&c.arrived), (unsigned)n * rounds);
        CHECK_INT(atomic_load(&c.early), 0);
        CHECK_INT(atomic_load(&c.ahead), 0);
        for (int i = 0; i < n; i++)
            CHECK_INT(atomic_load(&c.runs[i]), 1);
    }
    team_destroy(t);
}

TEST(an_oversubscribed_barrier_lets_nobody_pass_before_all_arrive)
{
    test_watchdog_progress(HANG_S, LIVELOCK_S, "64 and 256 threads' barriers and jobs", &passes);
    check_barriers(64, 20, 100);
    check_barriers(256, 5, 100);
}

TEST(a_barrier_of_threads_that_each_have_a_cpu_holds_too)
{
    /* as many threads as CPUs: the waiters spin instead of sleeping */
    cpu_list usable;
    CHECK(platform_usable_cpus(&usable));
    int n = usable.count < MAX_THREADS ? (int)usable.count : MAX_THREADS;
    cpu_list_free(&usable);
    test_watchdog_progress(HANG_S, LIVELOCK_S, "a barrier of one thread per CPU", &passes);
    check_barriers(n, 5, 1000);
}

static atomic_bool pestering;

static void ignore_signal(int sig)
{
    (void)sig;
}

/* Sends SIGUSR1 to the process again and again; only the workers take it (the
 * main thread blocks it), so their sleeps end early as on Ctrl-C. */
static void *pester(void *arg)
{
    (void)arg;
    while (atomic_load(&pestering)) {
        kill(getpid(), SIGUSR1);
        nanosleep(&(struct timespec){0, 200 * 1000}, NULL);
    }
    return NULL;
}

TEST(a_signal_wakes_a_barrier_sleeper_without_letting_it_through)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ignore_signal; /* no SA_RESTART: a sleeping wait returns EINTR */
    sigaction(SIGUSR1, &sa, &old);
    test_watchdog_progress(HANG_S, LIVELOCK_S, "barriers of 64 threads under signals", &passes);
    team *t = team_of(64); /* the workers inherit SIGUSR1 unblocked */
    CHECK(t != NULL);
    sigset_t usr1, before;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, &before);
    atomic_store(&pestering, true);
    pthread_t th;
    bool started = pthread_create(&th, NULL, pester, NULL) == 0; /* inherits the block */
    CHECK(started);
    static barrier_check c;
    for (int j = 0; t && j < 10; j++) {
        c.rounds = 100;
        atomic_store(&c.arrived, 0);
        atomic_store(&c.early, 0);
        atomic_store(&c.ahead, 0);
        team_run(t, count_arrivals, &c);
        CHECK_INT(atomic_load(&c.early), 0);
        CHECK_INT(atomic_load(&c.ahead), 0);
    }
    atomic_store(&pestering, false);
    if (started)
        pthread_join(th, NULL);
    team_destroy(t);
    /* a SIGUSR1 still pending in this thread is taken, ignored, when unblocked */
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    sigaction(SIGUSR1, &old, NULL);
}

typedef struct {
    atomic_uint rounds[MAX_THREADS];
    bool stop; /* thread 0's verdict, read by all after a barrier */
} stop_check;

/* STREAM's shape (measure/stream_run.c): barriers until thread 0 sees the stop,
 * its verdict passed on through one more barrier, so every thread leaves after the
 * same round and none waits at a barrier alone. */
static void until_stopped(team *t, int tid, void *arg)
{
    stop_check *c = arg;
    for (;;) {
        team_barrier(t);
        atomic_fetch_add(&passes, 1);
        atomic_fetch_add(&c->rounds[tid], 1);
        if (tid == 0)
            c->stop = stop_requested();
        team_barrier(t);
        if (c->stop)
            break;
    }
}

TEST(a_stop_requested_mid_job_ends_it_on_every_thread)
{
    /* the -t deadline's watcher raises the flag as Ctrl-C's handler does */
    stop_reset();
    test_watchdog_progress(HANG_S, LIVELOCK_S, "a job of 256 threads stopped by a deadline", &passes);
    team *t = team_of(256);
    CHECK(t != NULL);
    static stop_check c;
    stop_set_deadline(clock_now() + 0.2);
    if (t)
        team_run(t, until_stopped, &c);
    CHECK(stop_requested());
    for (int i = 1; t && i < 256; i++)
        CHECK_INT(atomic_load(&c.rounds[i]), atomic_load(&c.rounds[0]));
    team_destroy(t);
    stop_reset();
}

static void nothing(team *t, int tid, void *arg)
{
    (void)t, (void)tid, (void)arg;
}

TEST(an_idle_oversubscribed_team_stops)
{
    test_watchdog(HANG_S, "stopping 256 idle threads");
    team *t = team_of(256);
    CHECK(t != NULL);
    if (t)
        team_run(t, nothing, NULL);
    test_sleep(0.05); /* every worker asleep, waiting for a job */
    team_destroy(t);
}

/* Threads of this process now (/proc/self/status), -1 when unknown. */
static int threads_now(void)
{
    char status[8192];
    if (!platform_read_text("/proc/self/status", status, sizeof status))
        return -1;
    const char *p = strstr(status, "\nThreads:");
    return p ? atoi(p + strlen("\nThreads:")) : -1;
}

/* In a child limited to a little more address space than it has, so thread
 * stacks run out: exit 0 when team_create failed as promised (NULL, EAGAIN or
 * ENOMEM, the number started less than asked, and the started ones stopped and
 * joined: the child is one thread again), 77 when every thread started
 * (the limit did not bite, as under qemu-user), 1 otherwise. */
static int start_too_many(void)
{
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld", &pages) != 1)
        return 77;
    fclose(f);
    rlim_t limit = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (64u << 20);
    if (setrlimit(RLIMIT_AS, &(struct rlimit){limit, limit}) != 0)
        return 77;
    enum { ASKED = 4096 }; /* 64 KiB a thread or more: 256 MiB, far past the limit */
    cpu_list usable;
    if (!platform_usable_cpus(&usable) || usable.count == 0)
        return 77;
    team_place *places = calloc(ASKED, sizeof *places);
    if (!places)
        return 77;
    for (int i = 0; i < ASKED; i++)
        places[i].cpus = (cpu_list){&usable.ids[(size_t)i % usable.count], 1};
    team_failure why = {0, 0};
    team *t = team_create(places, ASKED, &why);
    if (t) {
        team_destroy(t);
        return 77;
    }
    int threads = threads_now();
    printf("    # team_create: %d of %d threads started, error %d; %d thread(s) left\n", why.started, ASKED, why.error,
           threads);
    return (why.error == EAGAIN || why.error == ENOMEM) && why.started < ASKED && threads == 1 ? 0 : 1;
}

TEST(a_team_that_cannot_start_every_thread_stops_the_rest_and_says_so)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("    # skipped: ASan cannot run under an address-space limit\n");
    return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    printf("    # skipped: ASan cannot run under an address-space limit\n");
    return;
#endif
#endif
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int rc = start_too_many();
        fflush(stdout);
        _exit(rc);
    }
    /* the started threads must be stopped and joined: a hang is the failure */
    int status = 0;
    double until = clock_now() + HANG_S;
    pid_t done = 0;
    while (pid > 0 && (done = waitpid(pid, &status, WNOHANG)) == 0 && clock_now() < until)
        test_sleep(0.01);
    if (pid > 0 && done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        test_fail(__FILE__, __LINE__, "team_create hung after its threads ran out");
        return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        printf("    # skipped: the address-space limit did not stop thread creation here\n");
        return;
    }
    CHECK(WIFEXITED(status));
    CHECK_INT(WEXITSTATUS(status), 0);
}
