/* SPDX-License-Identifier: MIT */
#include "measure/stop.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "measure/clock.h"
#include "platform/platform.h"

static volatile sig_atomic_t stop_sig;
static double deadline;
static atomic_int deadline_hit;
static int output_fd = -1;                 /* stdout, when a pipe or socket */
static atomic_llong next_output_check_us; /* clock_now() in microseconds */

/* The watcher: one thread asleep until the deadline (or until told to quit). */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake;
static bool watch_cond_ready;
static bool watch_quit;
static bool watching; /* a watcher thread exists and must be joined */
static pthread_t watcher;

static void raise_deadline(void)
{
    atomic_store(&deadline_hit, 1);
    atomic_store(&stop_flag, 1);
}

static void on_signal(int sig)
{
    stop_sig = sig;
    atomic_store(&stop_flag, 1);
}

void stop_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SIGHUP: a closed terminal or ssh session; SIGPIPE: stdout's reader went away
     * (| head). Each stops the run like SIGTERM, so what was measured is kept and
     * the JSON says why it ended. */
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

static void *watch(void *arg)
{
    (void)arg;
    struct timespec until;
    double when = deadline;
    until.tv_sec = (time_t)when;
    until.tv_nsec = (long)((when - (double)until.tv_sec) * 1e9);
    pthread_mutex_lock(&watch_lock);
    while (!watch_quit) {
        if (clock_now() >= when) {
            raise_deadline();
            break;
        }
        pthread_cond_timedwait(&watch_wake, &watch_lock, &until);
    }
    pthread_mutex_unlock(&watch_lock);
    return NULL;
}

/* The condition variable sleeps on clock_now()'s clock, not the wall clock. */
static bool watch_cond_init(void)
{
    if (watch_cond_ready)
        return true;
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0)
        return false;
    bool ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&watch_wake, &ca) == 0;
    pthread_condattr_destroy(&ca);
    watch_cond_ready = ok;
    return ok;
}

static bool watch_start(void)
{
    if (!watch_cond_init())
        return false;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    /* A small stack, so a tight address-space limit (ulimit -v) still allows it;
     * all signals blocked, so they reach the threads that act on them. */
    pthread_attr_setstacksize(&attr, 64 << 10);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    watch_quit = false;
    watching = pthread_create(&watcher, &attr, watch, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return watching;
}

void stop_disarm(void)
{
    if (!watching)
        return;
    pthread_mutex_lock(&watch_lock);
    watch_quit = true;
    pthread_cond_signal(&watch_wake);
    pthread_mutex_unlock(&watch_lock);
    pthread_join(watcher, NULL);
    watching = false;
}

void stop_set_deadline(double when)
{
    stop_disarm();
    deadline = when;
    if (when <= 0)
        return;
    if (clock_now() >= when)
        raise_deadline();
    else
        watch_start(); /* without a watcher, stop_requested() polls the clock */
}

bool stop_check_output(void)
{
    if (output_fd < 0 || !platform_output_reader_gone(output_fd))
        return false;
    stop_request(SIGPIPE);
    return true;
}

/* The look at stdout's reader, at most every STOP_OUTPUT_CHECK_S whoever asks (a
 * mode's loop, STREAM's thread 0, the first touch of every traffic thread). Also
 * stop_poll's hook, so the untimed loops below this layer look too. */
static bool poll_output(void)
{
    if (output_fd < 0)
        return false;
    long long now = (long long)(clock_now() * 1e6);
    long long due = atomic_load_explicit(&next_output_check_us, memory_order_relaxed);
    if (now < due ||
        !atomic_compare_exchange_strong(&next_output_check_us, &due, now + (long long)(STOP_OUTPUT_CHECK_S * 1e6)))
        return false;
    return stop_check_output();
}

void stop_watch_output(int fd)
{
    output_fd = fd >= 0 && platform_output_is_pipe(fd) ? fd : -1;
    atomic_store(&next_output_check_us, 0);
    stop_poll_set_hook(output_fd >= 0 ? poll_output : NULL);
}

bool stop_requested(void)
{
    if (atomic_load_explicit(&stop_flag, memory_order_relaxed))
        return true;
    if (deadline > 0 && !watching && clock_now() >= deadline) {
        raise_deadline();
        return true;
    }
    return poll_output();
}

int stop_signal(void)
{
    return (int)stop_sig;
}

bool stop_deadline_passed(void)
{
    return atomic_load(&deadline_hit) != 0;
}

void stop_request(int sig)
{
    stop_sig = sig;
    atomic_store(&stop_flag, 1);
}

void stop_reset(void)
{
    stop_disarm();
    stop_sig = 0;
    deadline = 0;
    output_fd = -1;
    stop_poll_set_hook(NULL);
    atomic_store(&stop_flag, 0);
    atomic_store(&deadline_hit, 0);
}

const char *stop_signal_name(int sig)
{
    switch (sig) {
    case 0:
        return NULL;
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    case SIGPIPE:
        return "SIGPIPE";
    }
    return "signal";
}
