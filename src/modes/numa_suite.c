/* SPDX-License-Identifier: MIT */
#include "modes/numa_suite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory_budget.h"
#include "modes/numa_mem_mode.h"
#include "output/numa_sink.h"

/* The flags of perf's three kinds of test. */
enum { RAM, CONV, BW };
static const char *const group_words[][8] = {
    [RAM] = {"-s", "20", "-zZq", "--thp", "1", "--no-data_rand_walk", NULL},
    [CONV] = {"-s", "100", "-zZ0qcm", "--thp", "1", NULL},
    [BW] = {"-s", "20", "-zZ0q", "--thp", "1", NULL},
};

typedef struct {
    const char *name;
    int p, t;
    char size_flag; /* 'P' or 'T' */
    int mb;
    const char *cpus, *nodes;
    int group;
    bool nothp;
} suite_test;

/* perf 6.1's suite, in its order (names as perf prints them). */
static const suite_test tests[NUMA_SUITE_TESTS] = {
    {"RAM-bw-local,", 1, 1, 'P', 1024, "0", "0", RAM, false},
    {"RAM-bw-local-NOTHP,", 1, 1, 'P', 1024, "0", "0", RAM, true},
    {"RAM-bw-remote,", 1, 1, 'P', 1024, "0", "1", RAM, false},
    {"RAM-bw-local-2x,", 2, 1, 'P', 1024, "0,2", "0x2", RAM, false},
    {"RAM-bw-remote-2x,", 2, 1, 'P', 1024, "0,2", "1x2", RAM, false},
    {"RAM-bw-cross,", 2, 1, 'P', 1024, "0,8", "1,0", RAM, false},
    {" 1x3-convergence,", 1, 3, 'P', 512, NULL, NULL, CONV, false},
    {" 1x4-convergence,", 1, 4, 'P', 512, NULL, NULL, CONV, false},
    {" 1x6-convergence,", 1, 6, 'P', 1020, NULL, NULL, CONV, false},
    {" 2x3-convergence,", 2, 3, 'P', 1020, NULL, NULL, CONV, false},
    {" 3x3-convergence,", 3, 3, 'P', 1020, NULL, NULL, CONV, false},
    {" 4x4-convergence,", 4, 4, 'P', 512, NULL, NULL, CONV, false},
    {" 4x4-convergence-NOTHP,", 4, 4, 'P', 512, NULL, NULL, CONV, true},
    {" 4x6-convergence,", 4, 6, 'P', 1020, NULL, NULL, CONV, false},
    {" 4x8-convergence,", 4, 8, 'P', 512, NULL, NULL, CONV, false},
    {" 8x4-convergence,", 8, 4, 'P', 512, NULL, NULL, CONV, false},
    {" 8x4-convergence-NOTHP,", 8, 4, 'P', 512, NULL, NULL, CONV, true},
    {" 3x1-convergence,", 3, 1, 'P', 512, NULL, NULL, CONV, false},
    {" 4x1-convergence,", 4, 1, 'P', 512, NULL, NULL, CONV, false},
    {" 8x1-convergence,", 8, 1, 'P', 512, NULL, NULL, CONV, false},
    {"16x1-convergence,", 16, 1, 'P', 256, NULL, NULL, CONV, false},
    {"32x1-convergence,", 32, 1, 'P', 128, NULL, NULL, CONV, false},
    {" 2x1-bw-process,", 2, 1, 'P', 1024, NULL, NULL, BW, false},
    {" 3x1-bw-process,", 3, 1, 'P', 1024, NULL, NULL, BW, false},
    {" 4x1-bw-process,", 4, 1, 'P', 1024, NULL, NULL, BW, false},
    {" 8x1-bw-process,", 8, 1, 'P', 512, NULL, NULL, BW, false},
    {" 8x1-bw-process-NOTHP,", 8, 1, 'P', 512, NULL, NULL, BW, true},
    {"16x1-bw-process,", 16, 1, 'P', 256, NULL, NULL, BW, false},
    {" 1x4-bw-thread,", 1, 4, 'T', 256, NULL, NULL, BW, false},
    {" 1x8-bw-thread,", 1, 8, 'T', 256, NULL, NULL, BW, false},
    {"1x16-bw-thread,", 1, 16, 'T', 128, NULL, NULL, BW, false},
    {"1x32-bw-thread,", 1, 32, 'T', 64, NULL, NULL, BW, false},
    {" 2x3-bw-process,", 2, 3, 'P', 512, NULL, NULL, BW, false},
    {" 4x4-bw-process,", 4, 4, 'P', 512, NULL, NULL, BW, false},
    {" 4x6-bw-process,", 4, 6, 'P', 512, NULL, NULL, BW, false},
    {" 4x8-bw-process,", 4, 8, 'P', 512, NULL, NULL, BW, false},
    {" 4x8-bw-process-NOTHP,", 4, 8, 'P', 512, NULL, NULL, BW, true},
    {" 3x3-bw-process,", 3, 3, 'P', 512, NULL, NULL, BW, false},
    {" 5x5-bw-process,", 5, 5, 'P', 512, NULL, NULL, BW, false},
    {"2x16-bw-process,", 2, 16, 'P', 512, NULL, NULL, BW, false},
    {"1x32-bw-process,", 1, 32, 'P', 2048, NULL, NULL, BW, false},
    {"numa02-bw,", 1, 32, 'T', 32, NULL, NULL, BW, false},
    {"numa02-bw-NOTHP,", 1, 32, 'T', 32, NULL, NULL, BW, true},
    {"numa01-bw-thread,", 2, 16, 'T', 192, NULL, NULL, BW, false},
    {"numa01-bw-thread-NOTHP,", 2, 16, 'T', 192, NULL, NULL, BW, true},
};

const char *numa_suite_name(int i)
{
    return i >= 0 && i < NUMA_SUITE_TESTS ? tests[i].name : "";
}

static void arg(numa_suite *u, int i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void arg(numa_suite *u, int i, const char *fmt, ...)
{
    if (u->argc[i] == NUMA_SUITE_MAX_ARGS - 1)
        return; /* cannot happen: the longest test has 19 words */
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    u->argv[i][u->argc[i]++] = strdup(buf);
}

/* Test i's size in MB: perf's, or what the budget leaves for its buffers. */
static int scaled_mb(const suite_test *t, uint64_t budget)
{
    uint64_t buffers = (uint64_t)t->p * (t->size_flag == 'T' ? (uint64_t)t->t : 1);
    /* 90%: the budget moves a little between this plan and the test's own; less the 1 MB global */
    uint64_t room = budget / 10 * 9, fit = (room > (2u << 20) ? room - (2u << 20) : 0) / buffers >> 20;
    return (uint64_t)t->mb <= fit ? t->mb : (int)fit;
}

/* The words after "numa mem" for test i, with -s and the budget applied. */
static void build(numa_suite *u, int i, const numa_options *o, uint64_t budget, session *s)
{
    const suite_test *t = &tests[i];
    int mb = scaled_mb(t, budget);
    if (mb < t->mb)
        session_warn(s, WARN_SIZES_LEFT_OUT, "%s: %d MB per %s scaled to %d MB to fit the memory budget", t->name, t->mb,
                     t->size_flag == 'T' ? "thread" : "process", mb);
    arg(u, i, "numa-mem");
    arg(u, i, "-p");
    arg(u, i, "%d", t->p);
    arg(u, i, "-t");
    arg(u, i, "%d", t->t);
    arg(u, i, "-%c", t->size_flag);
    arg(u, i, "%d", mb > 0 ? mb : 1);
    if (t->cpus) {
        arg(u, i, "-C");
        arg(u, i, "%s", t->cpus);
        arg(u, i, "-M");
        arg(u, i, "%s", t->nodes);
    }
    for (int w = 0; group_words[t->group][w]; w++) {
        bool seconds = w == 1;
        if (seconds && o->secs_given)
            arg(u, i, "%g", o->nr_secs);
        else if (t->nothp && w == 4)
            arg(u, i, "-1");
        else
            arg(u, i, "%s", group_words[t->group][w]);
    }
    arg(u, i, "--if-applicable");
    snprintf(u->command[i], sizeof u->command[i], "membench numa mem");
    for (int a = 1; a < u->argc[i] - 1; a++)
        snprintf(u->command[i] + strlen(u->command[i]), sizeof u->command[i] - strlen(u->command[i]), " %s",
                 u->argv[i][a]);
}

int numa_suite_plan(session *s, numa_suite *u, const numa_options *o)
{
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    u->steps = calloc(NUMA_SUITE_TESTS, sizeof *u->steps);
    if (!u->steps) {
        session_error(s, "out of memory");
        return 1;
    }
    param_table *plan = section_table(&s->info.plan, "tests");
    for (int i = 0; i < NUMA_SUITE_TESTS; i++) {
        build(u, i, o, budget, s);
        param_list *row = table_add_row(plan);
        params_int(row, "test", i);
        params_text(row, "name", tests[i].name);
        params_text(row, "command", u->command[i]);
    }
    params_textf(&s->info.plan.values, "method",
                 "perf bench numa mem's suite of %d tests, each a run of membench numa mem; a test this machine "
                 "cannot bind is not applicable and says why",
                 NUMA_SUITE_TESTS);
    if (s->topo.nnodes < 2)
        session_warn(s, WARN_ONE_NODE, "one NUMA node: the convergence tests have nothing to converge (each ends at its first "
                        "sample)");
    for (int i = 0; i < NUMA_SUITE_TESTS; i++) {
        numa_sink_spec spec = {true, o->details, tests[i].group == CONV, false, tests[i].name, u->command[i],
                               NUMA_SINK_RUN, false, false};
        sink *k = numa_sink_create(s->env.out, &spec);
        u->opened = i + 1;
        int rc = session_open_step(&u->steps[i], s, &numa_mem_mode, u->argc[i], u->argv[i], &k, k ? 1 : 0);
        if (rc < 0)
            rc = session_plan(&u->steps[i]);
        if (rc)
            return rc;
    }
    return 0;
}

void numa_suite_run(session *s, numa_suite *u)
{
    for (int i = 0; i < NUMA_SUITE_TESTS && !session_stopped(s); i++) {
        session_progress(s, "[%d/%d] %s", i + 1, NUMA_SUITE_TESTS, tests[i].name);
        session_measure(&u->steps[i]);
        session_step_done(&u->steps[i], i);
        session_close(&u->steps[i]);
        s->failed = false; /* a failed test does not end the suite: its error stays, and exit status 1 */
    }
}

void numa_suite_free(numa_suite *u)
{
    for (int i = 0; u->steps && i < u->opened; i++)
        if (u->steps[i].mode)
            session_close(&u->steps[i]);
    free(u->steps);
    for (int i = 0; i < NUMA_SUITE_TESTS; i++)
        for (int a = 0; a < u->argc[i]; a++)
            free(u->argv[i][a]);
    memset(u, 0, sizeof *u);
}
