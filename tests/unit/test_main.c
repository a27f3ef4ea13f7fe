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
 * looks for. Armed by publishing the counter; its note is written before. */
static const atomic_uint *_Atomic watched;
static atomic_uint watch_generation; /* moved on at each arming */
static atomic_uint watch_still_s;
static char still_note[512];

static void *watch_progress(void *arg)
{
    (void)arg;
    unsigned generation = 0, last = 0, still = 0;
    for (;;) {
        test_sleep(1.0);
        const atomic_uint *counter = atomic_load(&watched);
        unsigned g = atomic_load(&watch_generation);
        if (!counter) {
            still = 0;
            continue;
        }
        unsigned now = atomic_load(counter);
        if (g != generation || now != last) {
            generation = g;
            last = now;
            still = 0;
        } else if (++still >= atomic_load(&watch_still_s)) {
            if (write(STDOUT_FILENO, still_note, strlen(still_note)) < 0)
                _exit(1);
            _exit(1);
        }
    }
    return NULL;
}

/* The watcher blocks every signal (it inherits the mask at its start): a test's
 * signals are for the threads it tests, and the kernel would hand a process's
 * signals to an idle thread that takes them, one such thread again and again. */
static void start_watcher(void)
{
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pthread_t th;
    int error = pthread_create(&th, NULL, watch_progress, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (error != 0) {
        fprintf(stderr, "cannot start the progress watchdog: %s\n", strerror(error));
        exit(1);
    }
    pthread_detach(th);
}

void test_watchdog_progress(unsigned still_s, unsigned total_s, const char *what, const atomic_uint *progress)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    still_s = capped(still_s);
    snprintf(still_note, sizeof still_note, "    watchdog: %s made no progress for %u s (a hang)\nnot ok - %s\n",
             what, still_s, current_test ? current_test : "?");
    test_watchdog(total_s, what); /* a livelock moves on and never ends */
    atomic_store(&watch_still_s, still_s);
    atomic_fetch_add(&watch_generation, 1);
    atomic_store(&watched, progress);
    pthread_once(&once, start_watcher);
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
        atomic_store(&watched, NULL);
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
