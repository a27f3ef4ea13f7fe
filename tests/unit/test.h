/* SPDX-License-Identifier: MIT */
/* A minimal unit-test harness: TEST(name) registers a function at start-up;
 * CHECK* record failures with file:line and keep going; the runner prints
 * "N passed, M failed" (one line per test case). */
#ifndef MEMBENCH_TEST_H
#define MEMBENCH_TEST_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define TEST(name)                                                                                                    \
    static void name(void);                                                                                           \
    __attribute__((constructor)) static void register_##name(void) { test_register(#name, name); }                  \
    static void name(void)

#define CHECK(cond)                                                                                                   \
    do {                                                                                                              \
        if (!(cond))                                                                                                  \
            test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                                        \
    } while (0)

#define CHECK_INT(a, b)                                                                                               \
    do {                                                                                                              \
        long long _a = (long long)(a), _b = (long long)(b);                                                           \
        if (_a != _b)                                                                                                 \
            test_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, _a, #b, _b);                         \
    } while (0)

#define CHECK_STR(a, b)                                                                                               \
    do {                                                                                                              \
        const char *_a = (a), *_b = (b);                                                                              \
        if (!_a || !_b || strcmp(_a, _b) != 0)                                                                        \
            test_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, _a ? _a : "(null)", _b ? _b : "(null)"); \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                                         \
    do {                                                                                                              \
        double _a = (a), _b = (b);                                                                                    \
        if (!(_a - _b <= (tol) && _b - _a <= (tol)))                                                                  \
            test_fail(__FILE__, __LINE__, "%s == %.9g, expected %.9g +- %g", #a, _a, _b, (double)(tol));             \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                                                   \
    do {                                                                                                              \
        const char *_h = (hay), *_n = (needle);                                                                       \
        if (!_h || !strstr(_h, _n))                                                                                   \
            test_fail(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"", _h ? _h : "(null)", _n);                  \
    } while (0)

/* Helpers shared by tests. */
/* Fills argv with argv0 and the char* arguments of ap up to a NULL; returns argc. */
int test_argv(char **argv, int cap, char *argv0, va_list ap);
/* Creates a fresh temporary directory (removed by test_cleanup_dirs at exit). */
const char *test_tempdir(void);
/* Writes content to root/rel, creating parent directories. */
void test_write_file(const char *root, const char *rel, const char *content);
/* Sleeps at least `seconds`, the rest again after a signal: the lower bound a
 * slowed kernel's test relies on. */
void test_sleep(double seconds);

/* For a test whose failure is a hang (a lost wake-up): unless the test ends within
 * seconds, the run prints what hung, names the test as failed and exits 1, so a
 * planted bug fails make check and the mutants instead of blocking them. Disarmed
 * when the test ends. MEMBENCH_TEST_WATCHDOG_S=N shortens it to N seconds. */
void test_watchdog(unsigned seconds, const char *what);
/* The same for a test that may only be slow (many threads on a starved CPU): a
 * hang is *progress standing still for still_s; a test that keeps moving it
 * fails only after total_s (a livelock: signals driving threads round forever).
 * The test moves the counter on as it goes. MEMBENCH_TEST_WATCHDOG_S caps both. */
void test_watchdog_progress(unsigned still_s, unsigned total_s, const char *what, const atomic_uint *progress);

#endif
