/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define MAX_TESTS 512
#define MAX_DIRS 256

static struct {
    const char *name;
    test_fn fn;
} tests[MAX_TESTS];
static int ntests;
static int current_failures;
static char *dirs[MAX_DIRS];
static int ndirs;

void test_register(const char *name, test_fn fn)
{
    if (ntests < MAX_TESTS) {
        tests[ntests].name = name;
        tests[ntests].fn = fn;
        ntests++;
    }
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stdout, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    current_failures++;
}

int test_argv(char **argv, int cap, char *argv0, va_list ap)
{
    int argc = 0;
    argv[argc++] = argv0;
    for (char *a; argc < cap - 1 && (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    argv[argc] = NULL;
    return argc;
}

const char *test_tempdir(void)
{
    char tmpl[] = "/tmp/membench-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    if (!d || ndirs >= MAX_DIRS) {
        fprintf(stderr, "cannot create temporary directory\n");
        exit(1);
    }
    dirs[ndirs] = strdup(d);
    return dirs[ndirs++];
}

static void mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
}

void test_write_file(const char *root, const char *rel, const char *content)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    mkdirs(path);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fputs(content, f);
    fclose(f);
}

void test_sleep(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&ts, &ts) != 0) /* EINTR: sleep the rest */
        ;
}

static const char *current_test;
static char watchdog_note[512];

static void watchdog_fired(int sig)
{
    (void)sig;
    /* only async-signal-safe calls: the note was written when armed */
    if (write(STDOUT_FILENO, watchdog_note, strlen(watchdog_note)) < 0)
        _exit(1);
    _exit(1);
}

/* make check-mutants, whose hang mutants would each cost the whole wait: a
 * shorter one there (the native build, where these tests take well under 1 s) */
static unsigned capped(unsigned seconds)
{
    const char *cap = getenv("MEMBENCH_TEST_WATCHDOG_S");
    return cap && atoi(cap) > 0 && (unsigned)atoi(cap) < seconds ? (unsigned)atoi(cap) : seconds;
}

void test_watchdog(unsigned seconds, const char *what)
{
    seconds = capped(seconds);
    snprintf(watchdog_note, sizeof watchdog_note, "    watchdog: %s did not end within %u s (a hang)\nnot ok - %s\n",
             what, seconds, current_test ? current_test : "?");
    fflush(stdout); /* what the test printed so far comes before the note */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watchdog_fired;
    sigaction(SIGALRM, &sa, NULL);
    alarm(seconds);
}

/* The progress watchdog: a thread, not a timer signal, because a signal every
 * second would wake a sleeper whose wake-up was lost and hide the very hang it
 * looks for. It lives only while its test runs: qemu-user's fork asserts in a
 * child of a process with another thread (the team test that forks). */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake;
static bool watch_stop, watching;
static pthread_t watcher;
static unsigned watch_still_s;
static char still_note[512];

static void *watch_progress(void *arg)
{
    const atomic_uint *counter = arg;
    unsigned last = atomic_load(counter), still = 0;
    pthread_mutex_lock(&watch_lock);
    while (!watch_stop) {
        /* a second from now, not from the last deadline: a watcher that was not
         * scheduled for a while must not count the missed seconds at once */
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += 1;
        while (!watch_stop && pthread_cond_timedwait(&watch_wake, &watch_lock, &until) != ETIMEDOUT)
            ;
        if (watch_stop)
            break;
        unsigned now = atomic_load(counter);
        if (now != last) {
            last = now;
            still = 0;
        } else if (++still >= watch_still_s) {
            if (write(STDOUT_FILENO, still_note, strlen(still_note)) < 0)
                _exit(1);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&watch_lock);
    return NULL;
}

static void watch_end(void)
{
    if (!watching)
        return;
    pthread_mutex_lock(&watch_lock);
    watch_stop = true;
    pthread_cond_signal(&watch_wake);
    pthread_mutex_unlock(&watch_lock);
    pthread_join(watcher, NULL);
    watching = false;
}

void test_watchdog_progress(unsigned still_s, unsigned total_s, const char *what, const atomic_uint *progress)
{
    static bool ready;
    if (!ready) {
        pthread_condattr_t attr;
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_cond_init(&watch_wake, &attr);
        pthread_condattr_destroy(&attr);
        ready = true;
    }
    watch_end();
    watch_still_s = capped(still_s);
    snprintf(still_note, sizeof still_note, "    watchdog: %s made no progress for %u s (a hang)\nnot ok - %s\n",
             what, watch_still_s, current_test ? current_test : "?");
    test_watchdog(total_s, what); /* a livelock moves on and never ends */
    watch_stop = false;
    /* The watcher blocks every signal (it inherits the mask at its start): a
     * test's signals are for the threads it tests, and the kernel would hand them
     * to an idle thread that takes them, one such thread again and again. */
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    int error = pthread_create(&watcher, NULL, watch_progress, (void *)progress);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (error != 0) {
        fprintf(stderr, "cannot start the progress watchdog: %s\n", strerror(error));
        exit(1);
    }
    watching = true;
}

static void cleanup_dirs(void)
{
    for (int i = 0; i < ndirs; i++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dirs[i]);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dirs[i]);
        free(dirs[i]);
    }
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (only && !strstr(tests[i].name, only))
            continue;
        current_failures = 0;
        current_test = tests[i].name;
        tests[i].fn();
        alarm(0); /* a watchdog the test armed */
        watch_end();
        if (current_failures) {
            printf("not ok - %s\n", tests[i].name);
            failed++;
        } else {
            printf("ok - %s\n", tests[i].name);
            passed++;
        }
        fflush(stdout);
    }
    cleanup_dirs();
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
