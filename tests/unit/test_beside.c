/* SPDX-License-Identifier: MIT */
/* beside_run (memory/beside.h): the work of a chain's first touch and linking, cut
 * into parts. Every part runs exactly once and is told the part count; part 0 on
 * the caller, part k on a thread pinned to helpers[k - 1]; a helper that cannot be
 * pinned (a CPU that does not exist) leaves its part to the caller; more parts than
 * helpers are cut to 1 + helpers; one part that fails fails the whole. */
#include <pthread.h>
#include <stdatomic.h>

#include "memory/beside.h"
#include "platform/platform.h"
#include "test.h"
#include "util/cpu_list.h"

#define MAX_PARTS (1 + BESIDE_MAX_HELPERS)

typedef struct {
    atomic_int runs[MAX_PARTS];
    int cpu[MAX_PARTS];
    pthread_t thread[MAX_PARTS];
    size_t parts_told[MAX_PARTS];
    int fail_part; /* -1: none */
} part_log;

static bool log_part(void *arg, size_t part, size_t parts)
{
    part_log *l = arg;
    if (part >= MAX_PARTS)
        return false;
    atomic_fetch_add(&l->runs[part], 1);
    l->cpu[part] = platform_current_cpu();
    l->thread[part] = pthread_self();
    l->parts_told[part] = parts;
    return (int)part != l->fail_part;
}

static void log_reset(part_log *l, int fail_part)
{
    for (int i = 0; i < MAX_PARTS; i++)
        atomic_store(&l->runs[i], 0);
    l->fail_part = fail_part;
}

/* Each of the first `parts` parts ran once, told `parts`; none past them ran. */
static void check_each_once(part_log *l, size_t parts, const char *what)
{
    for (size_t k = 0; k < MAX_PARTS; k++) {
        int want = k < parts ? 1 : 0, runs = atomic_load(&l->runs[k]);
        if (runs != want || (want && l->parts_told[k] != parts))
            test_fail(__FILE__, __LINE__, "%s: part %zu ran %d times (want %d), told %zu parts (want %zu)", what, k,
                      runs, want, runs ? l->parts_told[k] : 0, parts);
    }
}

TEST(beside_run_runs_each_part_once_the_helpers_on_their_cpus)
{
    cpu_list usable = {0};
    CHECK(platform_usable_cpus(&usable));
    int helpers[3];
    for (size_t i = 0; i < 3; i++)
        helpers[i] = usable.ids[(i + 1) % usable.count];
    static part_log l;
    log_reset(&l, -1);
    CHECK(beside_run(4, helpers, 3, log_part, &l));
    check_each_once(&l, 4, "4 parts, 3 helpers");
    CHECK(pthread_equal(l.thread[0], pthread_self()));
    for (size_t k = 1; k < 4; k++) {
        CHECK(!pthread_equal(l.thread[k], pthread_self()));
        CHECK_INT(l.cpu[k], helpers[k - 1]);
    }
    /* more parts than helpers: cut to 1 + helpers */
    log_reset(&l, -1);
    CHECK(beside_run(10, helpers, 2, log_part, &l));
    check_each_once(&l, 3, "10 parts asked, 2 helpers");
    log_reset(&l, -1);
    CHECK(beside_run(0, helpers, 3, log_part, &l));
    check_each_once(&l, 1, "no part asked");
    CHECK(pthread_equal(l.thread[0], pthread_self()));
    cpu_list_free(&usable);
}

TEST(beside_run_does_an_unpinned_helpers_part_on_the_caller)
{
    const int nowhere[] = {1 << 20, (1 << 20) + 1}; /* no such CPUs: the pins fail */
    static part_log l;
    log_reset(&l, -1);
    CHECK(beside_run(3, nowhere, 2, log_part, &l));
    check_each_once(&l, 3, "3 parts, helpers that cannot be pinned");
    for (size_t k = 0; k < 3; k++)
        CHECK(pthread_equal(l.thread[k], pthread_self()));
}

TEST(beside_run_fails_when_a_part_fails)
{
    cpu_list usable = {0};
    CHECK(platform_usable_cpus(&usable));
    int helpers[2] = {usable.ids[0], usable.ids[usable.count - 1]};
    static part_log l;
    for (int fail = 0; fail < 3; fail++) {
        log_reset(&l, fail);
        if (beside_run(3, helpers, 2, log_part, &l))
            test_fail(__FILE__, __LINE__, "part %d of 3 failed, beside_run said true", fail);
    }
    const int nowhere[] = {1 << 20};
    log_reset(&l, 1);
    CHECK(!beside_run(2, nowhere, 1, log_part, &l)); /* the failing part on the caller */
    cpu_list_free(&usable);
}
