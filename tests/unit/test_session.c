/* SPDX-License-Identifier: MIT */
/* The session and the modes on it: plans computed against recorded sysfs trees of
 * other machines without measuring anything, and modes run twice in one process
 * (no state in statics: what a cluster driver needs). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "memory/memory_budget.h"
#include "modes/session.h"
#include "output/warning_summary.h"
#include "plan/sweep_plan.h"
#include "test.h"


/* What the platform says under ulimit -n 3 (every open fails). */
static bool meminfo_unreadable(uint64_t *bytes, char *why, size_t whylen)
{
    *bytes = 0;
    snprintf(why, whylen, "cannot read /proc/meminfo (Too many open files)");
    return false;
}

/* Reads what was written to f since it was opened; the caller frees it. */
static char *contents(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    char *buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    rewind(f);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = '\0';
    fseek(f, 0, SEEK_END);
    return buf;
}

/* argv = membench [MODE] args... (ap ends with NULL); returns the mode (NULL:
 * the sweep, the default). */
static const mode_def *command_line(char **argv, int *argc, char *mode, va_list ap)
{
    *argc = test_argv(argv, 31, "membench", ap);
    if (!mode)
        return mode_table(NULL)[0];
    memmove(argv + 2, argv + 1, sizeof *argv * (size_t)*argc);
    argv[1] = mode;
    (*argc)++;
    return mode_find(mode);
}

/* The memory budget sessions opened by open_on see, and the recorded machine's
 * other cache sources (none unless a test sets them). */
static bool (*budget_of_open_on)(uint64_t *, char *, size_t) = fixture_four_gib;
static const cpuid_dump *cpuid_of_open_on;
static const cache_measurement *measured_of_open_on;

/* A session opened on a recorded tree (not this machine), with output in files.
 * Returns session_open's status; args end with NULL. */
static int open_on(session *s, const char *root, char *mode, ...)
{
    static char *argv[32];
    int argc;
    va_list ap;
    va_start(ap, mode);
    const mode_def *m = command_line(argv, &argc, mode, ap);
    va_end(ap);
    session_env env = {root,     false,    fixture_no_env,   budget_of_open_on,   tmpfile(),
                       tmpfile(), NULL,    NULL,             cpuid_of_open_on,    measured_of_open_on};
    return session_open(s, m, argc, argv, &env);
}

static void close_session(session *s)
{
    FILE *out = s->env.out, *err = s->env.err;
    session_close(s);
    fclose(out);
    fclose(err);
}

static long long plan_int(const session *s, const char *key)
{
    return (long long)params_get_number(&s->info.plan.values, key, -1);
}

TEST(session_sweep_plan_on_a_two_socket_server_measures_nothing)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), NULL, "-p", "4", "-o", "read", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    /* spread: nodes, then cores: CPUs 0,4,1,5; two threads share each 32 MiB L3 */
    CHECK_INT(s.info.placement.n, 4);
    CHECK_STR(s.info.placement.threads[0].cpus, "0");
    CHECK_STR(s.info.placement.threads[1].cpus, "4");
    CHECK_INT(s.info.placement.threads[1].node, 1);
    CHECK_STR(s.info.placement.threads[2].cpus, "1");
    CHECK_INT(plan_int(&s, "L1_share_bytes"), 48 << 10);
    CHECK_INT(plan_int(&s, "L2_share_bytes"), 2048 << 10);
    CHECK_INT(plan_int(&s, "L3_share_bytes"), 16 << 20);
    CHECK_INT(plan_int(&s, "L3_sharing_threads"), 2);
    const param_table *sizes = section_find_table(&s.info.plan, "sizes");
    CHECK(sizes != NULL && sizes->nrows >= 8);
    /* the L3-share point is in the plan: 16 MiB per thread */
    bool l3 = false;
    for (size_t i = 0; sizes && i < sizes->nrows; i++)
        l3 = l3 || params_get_number(&sizes->rows[i], "size_kb", 0) == 16384;
    CHECK(l3);
    CHECK_INT(s.results.n, 0);
    close_session(&s);
}

TEST(session_latency_plan_binds_to_a_cpu_less_node)
{
    session s;
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "latency", "--cpu", "2", "--mem-node", "2", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "cpu"), 2);
    CHECK_INT(plan_int(&s, "memory_node"), 2);
    CHECK_STR(params_get_text(&s.info.plan.values, "memory_policy"), "bind");
    CHECK_INT(s.info.placement.n, 1);
    CHECK_STR(s.info.placement.threads[0].cpus, "2");
    CHECK_INT(s.info.placement.threads[0].node, 1);
    CHECK_INT(s.info.placement.threads[0].mem_node, 2);
    close_session(&s);

    /* without --mem-node a CPU on the memory-less node 1 gets the nearest node with
     * memory, 2 (distance 12), not node 0 */
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "latency", "--cpu", "3", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "memory_node"), 2);
    CHECK_CONTAINS(params_get_text(&s.info.plan.values, "memory_policy"), "first touch");
    close_session(&s);
}

TEST(session_latency_plan_refuses_a_node_without_memory)
{
    session s;
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "latency", "--mem-node", "1", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    char *err = contents(s.env.err);
    CHECK_STR(err, "membench latency: --mem-node 1: that NUMA node has no memory\n");
    free(err);
    close_session(&s);
}

TEST(session_latency_matrix_plan_cells_buffer_and_chasers)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "latency-matrix", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    /* 4 x the 32 MiB L3, within the 4 GiB budget */
    CHECK_INT(plan_int(&s, "buffer_bytes"), 128LL << 20);
    CHECK_STR(params_get_text(&s.info.plan.values, "memory_policy"), "bind");
    const param_table *cells = section_find_table(&s.info.plan, "cells");
    CHECK(cells != NULL && cells->nrows == 4);
    /* one chaser per row: the first CPU of each node */
    CHECK_INT(s.info.placement.n, 2);
    CHECK_STR(s.info.placement.threads[1].cpus, "4");
    CHECK_INT(s.info.placement.threads[1].node, 1);
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_memoryless_node(), "latency-matrix", "--every-cpu", "-b", "1M", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "buffer_bytes"), 1LL << 20);
    CHECK_INT(s.info.placement.n, 4);
    CHECK_INT(s.info.placement.threads[3].mem_node, 2);
    close_session(&s);
}

TEST(session_latency_matrix_refuses_what_cannot_be_measured)
{
    static const char *const cases[][4] = {
        {"--buffer", "8G", "--buffer 8192 MiB: more than can be allocated safely (4096 MiB", NULL},
        {"--mem-node", "1", "membench latency-matrix: --mem-node 1: that NUMA node has no memory\n", NULL},
        {"--cpu-of", "1=1", "membench latency-matrix: --cpu-of 1=1: that CPU is not on that node\n", NULL}};
    const char *root = fixture_memoryless_node();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        session s;
        CHECK_INT(open_on(&s, root, "latency-matrix", cases[i][0], cases[i][1], NULL), -1);
        CHECK_INT(session_plan(&s), 2);
        char *err = contents(s.env.err);
        CHECK_CONTAINS(err, cases[i][2]);
        CHECK(err && strchr(err, '\n') == err + strlen(err) - 1); /* one line */
        free(err);
        close_session(&s);
    }
}

TEST(session_stream_plan_sizes_arrays_from_the_total_llc)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "stream", "-p", "2", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    /* 4 x (2 x 32 MiB of L3) in doubles */
    CHECK_INT(plan_int(&s, "array_elements"), 4 * (64LL << 20) / 8);
    const param_table *cf = section_find_table(&s.info.plan, "configurations");
    CHECK(cf != NULL && cf->nrows == 1);
    CHECK_STR(params_get_text(&cf->rows[0], "cpus"), "0,4");
    close_session(&s);
}

/* A memory budget that cannot be read (ulimit -n 3, a hidden /proc/meminfo) is said
 * as such in one error line, exit status 1, in every mode that allocates: never
 * "needs N MiB but only 0 MiB can be allocated", never a sweep with every size left out. */
TEST(session_unreadable_memory_budget_is_one_error_naming_the_file)
{
    static const char *const cmds[][6] = {
        {NULL, "-s", "64", NULL}, {NULL, "-o", "read", NULL}, {NULL, "-f", NULL}, {"latency", NULL},
        {"latency", "--max", "64K", NULL}, {"stream", NULL}, {"stream", "-n", "100000", NULL},
        {"latency-matrix", NULL}};
    budget_of_open_on = meminfo_unreadable;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const char *const *c = cmds[i];
        session s;
        int rc = open_on(&s, fixture_two_socket_smt(), (char *)c[0], c[1], c[2], c[3], NULL);
        CHECK_INT(rc, -1);
        if (rc != -1)
            continue;
        CHECK_INT(session_plan(&s), 1);
        char *err = contents(s.env.err);
        char want[256];
        snprintf(want, sizeof want,
                 "membench%s%s: error: the memory budget is unknown, so nothing is allocated: cannot read "
                 "/proc/meminfo (Too many open files)\n",
                 c[0] ? " " : "", c[0] ? c[0] : "");
        CHECK_STR(err, want);
        free(err);
        CHECK_INT(s.info.nerrors, 1);
        close_session(&s);
    }
    budget_of_open_on = fixture_four_gib;
}

static bool no_room(uint64_t *bytes, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *bytes = 0;
    return true;
}

/* The budget a 64 MiB cgroup leaves (4 MiB in use), through memory_budget_from. */
static bool cgroup_64_mib(uint64_t *bytes, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *bytes = memory_budget_from(60ULL << 20);
    return true;
}

/* A 64 MiB cgroup gets a small run, not a refusal; a budget nothing fits is an
 * error with real numbers (exit 1), never a run that measured nothing and exits 0,
 * nor "needs 0 MiB ... only 0 MiB". */
TEST(session_small_budgets_get_small_runs_and_none_is_an_error)
{
    session s;
    budget_of_open_on = cgroup_64_mib;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), NULL, "-p", "2", "-o", "read", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK(plan_int(&s, "max_bytes_per_thread") >= 16 << 20);
    close_session(&s);
    budget_of_open_on = no_room;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), NULL, "-p", "2", "-o", "read", NULL), -1);
    CHECK_INT(session_plan(&s), 1);
    char *err = contents(s.env.err);
    CHECK_STR(err, "membench: error: no size fits the memory budget: 0 KiB can be allocated safely (MemAvailable "
                   "and cgroup limit, less a margin), 0 KiB per thread for 2 thread(s) x 1 buffer(s), below the "
                   "smallest size, 4 KiB\n");
    free(err);
    CHECK_INT(s.info.nerrors, 1);
    close_session(&s);
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), NULL, "-p", "2", "-o", "copy", "-s", "64", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    err = contents(s.env.err);
    CHECK_STR(err, "membench: -s 64: needs 256 KiB (2 thread(s) x 2 buffer(s)) but only 0 KiB can be allocated "
                   "safely (MemAvailable and cgroup limit, less a margin)\n");
    free(err);
    close_session(&s);
    budget_of_open_on = fixture_four_gib;
}

TEST(session_options_reach_the_run_information)
{
    session s;
    CHECK_INT(open_on(&s, fixture_arm_no_l3(), NULL, "-s", "64", "-r", "3", "--cpus", "1-2", NULL), -1);
    CHECK_INT((long long)params_get_number(&s.info.options, "single_size_kb", 0), 64);
    CHECK_INT((long long)params_get_number(&s.info.options, "tries", 0), 3);
    CHECK_STR(params_get_text(&s.info.options, "cpus"), "1-2");
    CHECK_STR(s.info.mode, "sweep");
    close_session(&s);
}

/* Runs mode (NULL: the sweep) on this machine with output in files; returns the
 * exit status and the text on stdout. */
static int run_live(char *mode, char **out_text, ...)
{
    static char *argv[32];
    int argc;
    va_list ap;
    va_start(ap, out_text);
    const mode_def *m = command_line(argv, &argc, mode, ap);
    va_end(ap);
    session_env env = session_env_live();
    env.out = tmpfile();
    env.err = tmpfile();
    int rc = session_run(m, argc, argv, &env);
    *out_text = contents(env.out);
    fclose(env.out);
    fclose(env.err);
    return rc;
}

static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        n += strncmp(p, prefix, strlen(prefix)) == 0;
    return n;
}

TEST(session_each_mode_runs_twice_in_one_process)
{
    char *first, *second;
    /* the sweep: same header and one row each time */
    CHECK_INT(run_live(NULL, &first, "-s", "16", "-o", "read", "-r", "1", "--sample-ms", "1", NULL), 0);
    CHECK_INT(run_live(NULL, &second, "-s", "16", "-o", "read", "-r", "1", "--sample-ms", "1", NULL), 0);
    CHECK_INT(count_lines(first, "size_kb,"), 1);
    CHECK_INT(count_lines(first, "16,read,"), 1);
    CHECK_INT(count_lines(second, "16,read,"), 1);
    CHECK_INT(count_lines(second, "size_kb,"), 1);
    free(first);
    free(second);
    /* latency: the same sizes both times (no size list left over from the first run) */
    CHECK_INT(run_live("latency", &first, "--min", "4K", "--max", "8K", "--sample-ms", "1", "--csv", NULL), 0);
    CHECK_INT(run_live("latency", &second, "--min", "4K", "--max", "8K", "--sample-ms", "1", "--csv", NULL), 0);
    CHECK_INT(count_lines(first, "4,"), 1);
    CHECK_INT(count_lines(second, "4,"), 1);
    CHECK_INT(count_lines(first, "8,"), 1);
    CHECK_INT(count_lines(second, "8,"), 1);
    free(first);
    free(second);
    /* stream: one STREAM table each time, validated */
    CHECK_INT(run_live("stream", &first, "-n", "20000", "--ntimes", "2", "--stores", "regular", NULL), 0);
    CHECK_INT(run_live("stream", &second, "-n", "20000", "--ntimes", "2", "--stores", "regular", NULL), 0);
    CHECK_INT(count_lines(first, "Triad:"), 1);
    CHECK_INT(count_lines(second, "Triad:"), 1);
    CHECK_INT(count_lines(second, "Solution Validates"), 1);
    CHECK_INT(count_lines(second, "Side by side"), 0); /* one kind of stores: nothing to compare */
    free(first);
    free(second);
}

static bool three_and_a_half_mib(uint64_t *bytes, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *bytes = 7ULL << 19;
    return true;
}

/* A record's true/false parameter: 1, 0, or -1 when it is not there as one. */
static int flag_of(const result_record *r, const char *key)
{
    const param *p = params_find(&r->params, key);
    return p && p->kind == PARAM_BOOL ? p->flag : -1;
}

/* The record of a run's `op` point at `kb` KiB; NULL when there is none. */
static const result_record *record_at(const session *s, const char *op, uint64_t kb)
{
    for (size_t i = 0; i < s->results.n; i++)
        if (strcmp(s->results.items[i].operation, op) == 0 && s->results.items[i].size_bytes == kb * 1024)
            return &s->results.items[i];
    return NULL;
}

/* The sweep's latency chains beyond the keep limit get homes in the pool's sources,
 * and are linked once there: the 1 GiB chain of a default run took 0.4 s to link at
 * every visit (BENCHMARKS "Speed of the default run"). On a tree with caches small
 * enough (sizes 8 KiB to 1 MiB, the DRAM point 4 x 256 KiB) and a 3.5 MiB budget
 * (keep limit 448 KiB: the 8-128 KiB chains kept), one thread's pool holds one 1 MiB
 * read source and two chains want it, 256 KiB and 1 MiB: the largest, the DRAM
 * point's, gets it (linked once); the 256 KiB one is linked at each of its visits
 * (-r 2, more while its CV is not below 5%). Smallest first, the 1 MiB chain would be linked at every visit (a 4 MiB
 * budget kept the 256 KiB chain, and no order could be told). Measured on this
 * machine, CPU 0. */
TEST(session_sweep_homes_the_largest_chain_first)
{
    session s;
    budget_of_open_on = three_and_a_half_mib;
    CHECK_INT(open_on(&s, fixture_once(fixture_small_caches), NULL, "-p", "1", "-o", "read", "-o", "latency", "-r",
                      "2", "--sample-ms", "1", "--latency-sample-ms", "1", NULL),
              -1);
    budget_of_open_on = fixture_four_gib;
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(session_measure(&s), 0);
    const result_record *read = record_at(&s, "read", 1024), *largest = record_at(&s, "latency", 1024),
                        *homeless = record_at(&s, "latency", 256), *kept = record_at(&s, "latency", 128);
    CHECK(read && largest && homeless && kept);
    if (read && largest && homeless && kept) {
        CHECK_INT(flag_of(read, "pooled"), 1);
        CHECK_INT(flag_of(largest, "pooled"), 1); /* in the read's source */
        CHECK_INT((long long)params_get_number(&largest->params, "chain_builds", -1), 1);
        CHECK_INT(flag_of(homeless, "pooled"), 0); /* the source is the largest's */
        int visits = 0; /* linked again at every visit: one build a round it was sampled in */
        for (int i = 0; homeless->sample_rounds && i < homeless->nsamples; i++)
            visits += i == 0 || homeless->sample_rounds[i] != homeless->sample_rounds[i - 1];
        CHECK(visits >= 2);
        CHECK_INT((long long)params_get_number(&homeless->params, "chain_builds", -1), visits);
        CHECK_INT((long long)params_get_number(&kept->params, "chain_builds", -1), 1); /* kept: its own memory */
    }
    close_session(&s);
}

/* A record of the given samples, as a mode emits it. */
static void emit_samples(session *s, const double *samples, int n)
{
    result_record r;
    result_init(&r, "sweep", "latency", METRIC_LATENCY);
    r.size_bytes = 4 << 20;
    r.threads = 1;
    CHECK(result_set_samples(&r, samples, n));
    session_emit(s, &r);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A point whose samples fell in two levels is named with both, every one in JSON;
 * a point of one level is not named. Without -v the terminal has one line for
 * them at the end with their count (output/warning_summary), not one a point. */
TEST(session_warns_of_points_in_two_levels)
{
    session s;
    CHECK_INT(open_on(&s, fixture_small_caches(), NULL, "-o", "latency", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    s.measuring = true; /* past the plan: warnings said at once under -v */
    const double one_level[] = {140, 150, 145, 160};
    emit_samples(&s, one_level, 4);
    const double two_levels[] = {131.7, 16.3, 129.3, 16.3, 120.5, 15.8, 128.4};
    for (int i = 0; i < 7; i++)
        emit_samples(&s, two_levels, 7);
    CHECK_INT(s.info.nwarnings, 7); /* JSON "warnings": every one, and nothing of the one-level point */
    for (size_t i = 0; i < s.info.nwarnings; i++) {
        CHECK_STR(s.info.warnings[i], "latency 4 MiB, 1 thread: its 7 samples fell in two levels, 3 near 16.3 ns "
                                      "and 4 near 128.9 ns; it moved between cache levels or host phases during the "
                                      "run, and its median is neither");
        CHECK_INT(s.info.warning_kinds[i], WARN_TWO_LEVELS);
    }
    char *err = contents(s.env.err);
    CHECK_INT(count_of(err, "warning"), 0); /* said at the end */
    free(err);
    sink *k = warning_summary_sink_create(s.env.err, s.who);
    sink_end(k, &s.info);
    sink_destroy(k);
    err = contents(s.env.err);
    CHECK_STR(err, "membench: warning: two_levels x7: points whose samples fell in two levels: their medians are "
                   "neither (each: -v, or \"warnings\" in --json; see docs/uncertainty.md)\n");
    free(err);
    close_session(&s);
}

static const param_list *plan_cell(const session *s, size_t i)
{
    const param_table *cells = section_find_table(&s->info.plan, "cells");
    return cells && i < cells->nrows ? &cells->rows[i] : NULL;
}

TEST(session_bandwidth_matrix_plan_rows_columns_and_threads)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "bandwidth-matrix", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    const param_table *cells = section_find_table(&s.info.plan, "cells");
    CHECK(cells != NULL && cells->nrows == 4);
    /* row-major: node 0 to memory 0 and 1, then node 1; all 8 CPUs of a node stream */
    const int expect[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    for (size_t i = 0; cells && i < 4; i++) {
        CHECK_INT(params_get_number(plan_cell(&s, i), "cpu_node", -1), expect[i][0]);
        CHECK_INT(params_get_number(plan_cell(&s, i), "mem_node", -1), expect[i][1]);
        CHECK_INT(params_get_number(plan_cell(&s, i), "threads", -1), 8);
    }
    /* 4 x 64 MiB of L3 over 8 threads is under the 64 MiB floor */
    CHECK_INT(plan_int(&s, "buffer_bytes"), 64LL << 20);
    CHECK_STR(params_get_text(&s.info.plan.values, "memory_policy"), "bind");
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "bandwidth-matrix", "--one-per-core", "--traffic", "W5", NULL),
              -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(params_get_number(plan_cell(&s, 3), "threads", -1), 4);
    CHECK_NEAR(params_get_number(&s.info.plan.values, "dram_factor", 0), 1.5, 1e-12);
    close_session(&s);

    /* node 1 has CPUs and no memory: a row; node 2 has memory and no CPUs: a column */
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "bandwidth-matrix", "-b", "1M", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    const param_table *cols = section_find_table(&s.info.plan, "columns");
    CHECK(cols != NULL && cols->nrows == 2);
    CHECK_INT(params_get_number(&cols->rows[1], "mem_node", -1), 2);
    CHECK_INT(section_find_table(&s.info.plan, "cells")->nrows, 4);
    CHECK_INT(params_get_number(plan_cell(&s, 2), "cpu_node", -1), 1);
    close_session(&s);
}

TEST(session_loaded_latency_plan_keeps_the_chasers_core_free)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "loaded-latency", "-c", "1", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    /* the chaser first, on CPU 1; 14 traffic threads: neither 1 nor its sibling 9 */
    CHECK_INT(s.info.placement.n, 15);
    CHECK_STR(s.info.placement.threads[0].cpus, "1");
    for (int i = 1; i < s.info.placement.n; i++)
        CHECK(strcmp(s.info.placement.threads[i].cpus, "1") != 0 && strcmp(s.info.placement.threads[i].cpus, "9") != 0);
    CHECK_INT(plan_int(&s, "traffic_threads"), 14);
    CHECK_INT(plan_int(&s, "latency_cpu"), 1);
    const param_table *delays = section_find_table(&s.info.plan, "delays");
    CHECK(delays != NULL && delays->nrows == 19); /* MLC's list */
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "loaded-latency", "-c", "1", "--share-core", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "traffic_threads"), 15);
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "peak-bandwidth", "--one-per-core", "--cpus", "0-3,8-11", NULL),
              -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "traffic_threads"), 4); /* node 0's four cores */
    CHECK_INT(s.info.placement.n, 4);
    CHECK_STR(s.info.placement.threads[3].cpus, "3");
    close_session(&s);
}

/* The command line of step i of an mlc plan. */
static const char *mlc_command(const session *s, size_t i)
{
    const param_table *t = section_find_table(&s->info.plan, "commands");
    return t && i < t->nrows ? params_get_text(&t->rows[i], "command") : "";
}

static size_t mlc_steps(const session *s)
{
    const param_table *t = section_find_table(&s->info.plan, "commands");
    return t ? t->nrows : 0;
}

TEST(session_mlc_plans_each_test_as_steps_of_the_native_modes)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", NULL), -1);
    CHECK_INT(session_plan(&s), 0); /* every step opened and planned */
    CHECK_INT(mlc_steps(&s), 5);
    CHECK_STR(mlc_command(&s, 0), "membench latency-matrix");
    CHECK_STR(mlc_command(&s, 1), "membench peak-bandwidth");
    CHECK_STR(mlc_command(&s, 2), "membench bandwidth-matrix --traffic R");
    CHECK_STR(mlc_command(&s, 3), "membench loaded-latency --traffic R");
    CHECK_STR(mlc_command(&s, 4), "membench c2c");
    CHECK_STR(params_get_text(&s.info.plan.values, "test"), "default");
    close_session(&s);

    /* -i: memory on that CPU's node (CPU 12 is on node 1) */
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "--idle_latency", "-c", "5", "-i", "12", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(mlc_steps(&s), 1);
    CHECK_STR(mlc_command(&s, 0), "membench latency-matrix --cpu 5 --mem-node 1");
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "--loaded_latency", "-X", "-W", "5", "-d", "100", NULL),
              -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_STR(mlc_command(&s, 0), "membench loaded-latency --one-per-core --traffic W5 --delays 100");
    close_session(&s);

    /* -T: no latency thread, a peak step per delay */
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "--loaded_latency", "-T", "-d", "100", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(mlc_steps(&s), 1);
    CHECK_STR(mlc_command(&s, 0), "membench peak-bandwidth --traffic R -d 100");
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "--c2c_latency", "-w", "0", "-c", "4", "-H", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_STR(mlc_command(&s, 0), "membench c2c --writer 0 --reader 4 --clean");
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "--max_bandwidth", "-k", "2-3", "-B", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_STR(mlc_command(&s, 0), "membench peak-bandwidth --cpus 2-3 --per-thread --max");
    close_session(&s);
}

TEST(session_mlc_refuses_in_mlcs_terms_before_anything_runs)
{
    session s;
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "-c", "99", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    char *err = contents(s.env.err);
    CHECK_STR(err, "membench mlc: -c 99: that CPU is not available to this process\n");
    free(err);
    CHECK_INT(mlc_steps(&s), 0); /* refused before any step was planned */
    close_session(&s);

    CHECK_INT(open_on(&s, fixture_memoryless_node(), "mlc", "--idle_latency", "-j", "1", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    err = contents(s.env.err);
    CHECK_STR(err, "membench mlc: -j 1: that NUMA node has no memory\n");
    free(err);
    close_session(&s);

    /* a step's own refusal (no 1 GiB pages in the pool) stops the plan, in one line */
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "mlc", "--idle_latency", "-h", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    err = contents(s.env.err);
    CHECK_CONTAINS(err, "membench mlc: ");
    CHECK_CONTAINS(err, "1 GiB");
    free(err);
    close_session(&s);
}

/* The bindings table row of task i: "cpus" text and node. */
static const param_list *numa_task(const session *s, size_t i)
{
    const param_table *t = section_find_table(&s->info.plan, "bindings");
    return t && i < t->nrows ? &t->rows[i] : NULL;
}

TEST(session_numa_mem_plans_tasks_bindings_and_memory_on_a_two_socket_server)
{
    session s;
    /* 2 processes x 2 threads: tasks 0-3; CPUs in perf's list syntax, the last task unbound */
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "numa-mem", "-p", "2", "-t", "2", "-P", "64", "-T", "8", "-C",
                      "0,4_2,1", "-M", "1x2,0", NULL),
              -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "tasks"), 4);
    CHECK_INT(plan_int(&s, "processes"), 2);
    CHECK_STR(params_get_text(numa_task(&s, 0), "cpus"), " 0");
    CHECK_STR(params_get_text(numa_task(&s, 1), "cpus"), " 4/2");
    CHECK_STR(params_get_text(numa_task(&s, 2), "cpus"), " 1");
    CHECK_STR(params_get_text(numa_task(&s, 3), "cpus"), "");
    CHECK_INT((long long)params_get_number(numa_task(&s, 0), "node", -2), 1);
    CHECK_INT((long long)params_get_number(numa_task(&s, 1), "node", -2), 1);
    CHECK_INT((long long)params_get_number(numa_task(&s, 2), "node", -2), 0);
    CHECK_INT((long long)params_get_number(numa_task(&s, 3), "node", -2), -1);
    CHECK_STR(params_get_text(&s.info.plan.values, "binding_note"),
              "3 tasks bound, 1 tasks unbound; 3 tasks mem-bound, 1 tasks unbound");
    CHECK_STR(s.info.placement.threads[1].cpus, "4-5");
    CHECK_INT(s.info.placement.threads[1].node, 1);
    CHECK_INT(s.info.placement.threads[1].mem_node, 1);
    CHECK_STR(s.info.placement.threads[3].cpus, "0-15"); /* unbound: anywhere it may run */
    close_session(&s);

    /* 2 x 3000 MB of process memory: more than the 4 GiB budget */
    CHECK_INT(open_on(&s, fixture_two_socket_smt(), "numa-mem", "-p", "2", "-P", "3000", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    char *err = contents(s.env.err);
    CHECK_CONTAINS(err, "6001 MiB, more than can be allocated safely (4096 MiB");
    free(err);
    close_session(&s);
}

TEST(session_numa_mem_memory_nodes_cpu_less_allowed_memory_less_refused)
{
    session s;
    /* node 2 has memory and no CPUs (CXL-like): a valid -M target, unlike in perf */
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "numa-mem", "-P", "4", "-M", "2", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT((long long)params_get_number(numa_task(&s, 0), "node", -2), 2);
    close_session(&s);
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "numa-mem", "-P", "4", "-M", "1", NULL), -1);
    CHECK_INT(session_plan(&s), 2);
    char *err = contents(s.env.err);
    CHECK_STR(err, "membench numa mem: -M '1': NUMA node 1 has no memory\n");
    free(err);
    close_session(&s);
    /* --if-applicable: the same list is "not applicable", planned, nothing to run */
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "numa-mem", "-P", "4", "-M", "1", "--if-applicable", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_STR(params_get_text(&s.info.plan.values, "not_applicable"), "-M '1': NUMA node 1 has no memory");
    close_session(&s);
}

TEST(session_numa_mem_suite_is_perfs_45_tests_scaled_to_the_machine)
{
    session s;
    CHECK_INT(open_on(&s, fixture_memoryless_node(), "numa-mem", "-a", "-s", "2", NULL), -1);
    CHECK_INT(session_plan(&s), 0); /* every test planned, the not applicable ones too */
    const param_table *t = section_find_table(&s.info.plan, "tests");
    CHECK(t != NULL && t->nrows == 45);
    if (t && t->nrows == 45) {
        CHECK_STR(params_get_text(&t->rows[0], "name"), "RAM-bw-local,");
        CHECK_STR(params_get_text(&t->rows[0], "command"),
                  "membench numa mem -p 1 -t 1 -P 1024 -C 0 -M 0 -s 2 -zZq --thp 1 --no-data_rand_walk");
        CHECK_STR(params_get_text(&t->rows[1], "command"),
                  "membench numa mem -p 1 -t 1 -P 1024 -C 0 -M 0 -s 2 -zZq --thp -1 --no-data_rand_walk");
        /* 2 x 16 threads x 192 MB = 6 GiB: scaled into the 4 GiB budget */
        CHECK_CONTAINS(params_get_text(&t->rows[43], "command"), "membench numa mem -p 2 -t 16 -T 115 -s 2 -zZ0q");
        CHECK_STR(params_get_text(&t->rows[44], "name"), "numa01-bw-thread-NOTHP,");
    }
    close_session(&s);
}

/* What the step hook saw: how many records the run had at each call. */
typedef struct {
    session *s;
    size_t calls;
    size_t records_at[16];
} step_log;

static void log_step(void *ctx)
{
    step_log *l = ctx;
    if (l->calls < 16)
        l->records_at[l->calls] = l->s->results.n;
    l->calls++;
}

/* Runs mode live with the step hook logging; returns the exit status. */
static int run_steps(step_log *l, char *mode, ...)
{
    static char *argv[32];
    int argc;
    va_list ap;
    va_start(ap, mode);
    const mode_def *m = command_line(argv, &argc, mode, ap);
    va_end(ap);
    static session s;
    memset(l, 0, sizeof *l);
    l->s = &s;
    session_env env = session_env_live();
    env.out = tmpfile();
    env.err = tmpfile();
    env.step_begin = log_step;
    env.step_ctx = l;
    int rc = session_open(&s, m, argc, argv, &env);
    if (rc < 0)
        rc = session_plan(&s);
    if (rc == 0)
        rc = session_measure(&s);
    /* one step per visit: a record measured in rounds says how many it had */
    size_t visits = 0;
    for (size_t i = 0; i < s.results.n; i++)
        visits += (size_t)params_get_number(&s.results.items[i].params, "rounds", 1);
    if (mode && !strcmp(mode, "stream"))
        visits = s.results.n / 4;
    if (rc == 0 && (visits != l->calls || s.results.n == 0))
        rc = 100; /* a visit without its step, or a step without a visit */
    session_close(&s);
    fclose(env.out);
    fclose(env.err);
    return rc;
}

/* membench-mpi starts each node's steps together through this hook: it must come
 * before every step's measurement, once per step, in every mode. */
TEST(session_step_hook_runs_before_each_measured_step)
{
    step_log l;
    CHECK_INT(run_steps(&l, NULL, "-s", "16", "-o", "read", "-o", "copy", "-o", "latency", "-r", "1", "--sample-ms", "1",
                        "--latency-sample-ms", "1", NULL),
              0);
    /* read, copy, latency in round 1; the latency point alone in any later round its
     * CV rule asks for (run_steps holds calls to the records' rounds) */
    CHECK(l.calls >= 3 && l.calls <= 16);
    for (size_t i = 0; i < l.calls && i < 16; i++) /* before the point's record, after the last one's */
        CHECK_INT((long long)l.records_at[i], (long long)(i < 2 ? i : 2));
    CHECK_INT(run_steps(&l, "latency", "--min", "4K", "--max", "16K", "--sample-ms", "1", "--rounds", "1", "--csv",
                        NULL),
              0);
    CHECK(l.calls >= 3 && l.calls <= 16); /* --rounds 1: one per size (records == calls, checked by run_steps) */
    for (size_t i = 0; i < l.calls && i < 16; i++)
        CHECK_INT((long long)l.records_at[i], (long long)i);
    /* in rounds: one step per visit, every size in round 1 before any record is out */
    CHECK_INT(run_steps(&l, "latency", "--min", "4K", "--max", "16K", "--sample-ms", "1", "--rounds", "2", "--csv",
                        NULL),
              0);
    CHECK(l.calls >= 6);
    for (size_t i = 0; i < 3; i++)
        CHECK_INT((long long)l.records_at[i], 0);
    CHECK_INT(run_steps(&l, "stream", "-n", "20000", "--ntimes", "2", "--stores", "regular", NULL), 0);
    CHECK_INT((long long)l.calls, 1);
    CHECK_INT((long long)l.records_at[0], 0);
}

/* The Zen 5 microVM of tests/fixtures/cpuid/zen5-microvm.txt: no cache sysfs, the
 * legacy leaves only (L3 508 MiB for the whole package), and a cache probe there
 * that finds a small edge (64 MiB, DRAM from 320 MiB, as a noisy one-thread probe
 * did) or a huge one (1 GiB): neither may move a size. */
static const cache_measurement microvm_probe = {.ran = true, .edge_found = true, .dram_found = true, .sure = true,
                                                .llc_bytes = 64ULL << 20, .llc_low_bytes = 48ULL << 20,
                                                .llc_high_bytes = 96ULL << 20, .dram_from_bytes = 320ULL << 20,
                                                .max_bytes = 1ULL << 30, .llc_ns = 40, .dram_ns = 120};
static const cache_measurement microvm_big_probe = {.ran = true, .edge_found = true, .dram_found = true,
                                                    .sure = true, .llc_bytes = 1ULL << 30,
                                                    .dram_from_bytes = 4ULL << 30, .max_bytes = 8ULL << 30};

static bool sixteen_gib(uint64_t *bytes, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    *bytes = 16ULL << 30;
    return true;
}

static int open_microvm_with(session *s, cpuid_dump *d, const cache_measurement *probe, char *mode, const char *a1,
                             const char *a2)
{
    if (!fixture_cpuid("zen5-microvm.txt", d))
        return -2;
    cpuid_of_open_on = d;
    measured_of_open_on = probe;
    budget_of_open_on = sixteen_gib;
    int rc = open_on(s, fixture_microvm_no_caches(), mode, a1, a2, NULL);
    cpuid_of_open_on = NULL;
    measured_of_open_on = NULL;
    budget_of_open_on = fixture_four_gib;
    return rc;
}

static int open_microvm(session *s, cpuid_dump *d, bool probed, char *mode, const char *a1, const char *a2)
{
    return open_microvm_with(s, d, probed ? &microvm_probe : NULL, mode, a1, a2);
}

static bool planned_warning(const session *s, const char *part)
{
    for (size_t i = 0; i < s->info.nwarnings; i++)
        if (strstr(s->info.warnings[i], part))
            return true;
    return false;
}

/* Every mode that means DRAM sizes its footprint, all threads together, to 4x the
 * package's 508 MiB (2032 MiB: the largest figure any source gives), whatever the
 * probe found (none, a small edge, a huge one): the same sizes every time. */
TEST(session_dram_sizes_of_every_mode_on_a_guest_without_cache_sysfs)
{
    const long long mib = 1 << 20;
    struct {
        char *mode;
        const char *a1, *a2, *key;
        long long bytes;
    } cases[] = {
        {"stream", NULL, NULL, "array_elements", 2032 * mib / 8}, /* each array: STREAM's rule */
        {"latency", NULL, NULL, "max_bytes", 2032 * mib},        /* one chaser */
        {"latency-matrix", NULL, NULL, "buffer_bytes", 2032 * mib},
        {"bandwidth-matrix", NULL, NULL, "buffer_bytes", 1016 * mib}, /* 2032 MiB over 2 threads */
        {"peak-bandwidth", NULL, NULL, "buffer_bytes", 1016 * mib},
        {"loaded-latency", NULL, NULL, "chase_bytes", 2032 * mib},
        {"loaded-latency", NULL, NULL, "buffer_bytes", 2032 * mib}, /* one traffic thread beside the chaser */
        {"stream", "-p", "1", "array_elements", 2032 * mib / 8},   /* one thread reaches the whole package */
        {"peak-bandwidth", "--cpus", "1", "buffer_bytes", 2032 * mib},
    };
    const cache_measurement *probes[] = {NULL, &microvm_probe, &microvm_big_probe};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
            session s;
            cpuid_dump d = {NULL, 0};
            CHECK_INT(open_microvm_with(&s, &d, probes[k], cases[i].mode, cases[i].a1, cases[i].a2), -1);
            CHECK_INT(session_plan(&s), 0);
            if (plan_int(&s, cases[i].key) != cases[i].bytes)
                test_fail(__FILE__, __LINE__, "%s %s (probe %zu): %s %lld, expected %lld", cases[i].mode,
                          cases[i].a1 ? cases[i].a1 : "", k, cases[i].key, plan_int(&s, cases[i].key), cases[i].bytes);
            CHECK_STR(params_get_text(&s.info.plan.values, "size_basis"), "L3 508 MiB per package (CPUID 0x80000005/6)");
            CHECK_INT(plan_int(&s, "dram_rule_bytes"), 2032 * mib);
            if (strcmp(cases[i].mode, "latency") != 0) /* a curve marks its records itself */
                CHECK_STR(s.size_basis, "cpuid_amd_legacy");
            CHECK(!planned_warning(&s, "below the DRAM rule"));
            CHECK(!planned_warning(&s, "STREAM's rule"));
            const param *fit = params_find(&s.info.plan.values, "may_fit_cache");
            CHECK(fit && fit->kind == PARAM_BOOL && !fit->flag);
            close_session(&s);
            cpuid_dump_free(&d);
        }
}

/* The sweep's DRAM point: 2032 MiB over 2 threads, rounded up to a power of two (1
 * GiB a thread), from the package's total, whatever the probe found; and the rows
 * are the same in every case. */
TEST(session_sweep_dram_point_from_the_package_total)
{
    const cache_measurement *probes[] = {NULL, &microvm_probe, &microvm_big_probe};
    long long first[SWEEP_MAX_POINTS] = {0};
    size_t nfirst = 0;
    for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
        session s;
        cpuid_dump d = {NULL, 0};
        CHECK_INT(open_microvm_with(&s, &d, probes[k], NULL, "-p", "2"), -1);
        CHECK_INT(session_plan(&s), 0);
        const param_table *sizes = section_find_table(&s.info.plan, "sizes");
        CHECK(sizes != NULL && sizes->nrows > 2);
        if (sizes && sizes->nrows > 2) {
            const param_list *last = &sizes->rows[sizes->nrows - 1];
            CHECK_INT((long long)params_get_number(last, "size_kb", -1), 1LL << 20);
            CHECK_STR(params_get_text(last, "size_basis"), "cpuid_amd_legacy");
            const param *fit = params_find(last, "may_fit_cache");
            CHECK(fit && fit->kind == PARAM_BOOL && !fit->flag);
            /* one thread chases: its chain is the rule itself, 2032 MiB (whole TLB groups) */
            CHECK_INT((long long)params_get_number(last, "latency_chain_bytes", -1), 2032LL << 20);
            CHECK_STR(params_get_text(&sizes->rows[0], "size_basis"), "cpuid_amd_legacy"); /* L1/2: the legacy L1d */
            CHECK_INT((long long)params_get_number(&sizes->rows[0], "size_kb", -1), 16); /* 48 KiB / 2, rounded down */
            if (k == 0) {
                nfirst = sizes->nrows;
                for (size_t r = 0; r < sizes->nrows && r < SWEEP_MAX_POINTS; r++)
                    first[r] = (long long)params_get_number(&sizes->rows[r], "size_kb", -1);
            } else {
                CHECK_INT((long long)sizes->nrows, (long long)nfirst);
                for (size_t r = 0; r < sizes->nrows && r < nfirst; r++)
                    CHECK_INT((long long)params_get_number(&sizes->rows[r], "size_kb", -1), first[r]);
            }
        }
        CHECK_INT(plan_int(&s, "dram_footprint_bytes"), 2LL << 30);
        close_session(&s);
        cpuid_dump_free(&d);
    }
}

/* With the 4 GiB budget, STREAM's three arrays of 2032 MiB do not fit: capped, the
 * records say they may fit a cache, and one warning says why. */
TEST(session_stream_from_a_package_total_is_capped_by_the_budget_and_said)
{
    session s;
    cpuid_dump d = {NULL, 0};
    CHECK(fixture_cpuid("zen5-microvm.txt", &d));
    cpuid_of_open_on = &d;
    CHECK_INT(open_on(&s, fixture_microvm_no_caches(), "stream", NULL), -1);
    cpuid_of_open_on = NULL;
    CHECK_INT(session_plan(&s), 0);
    CHECK_INT(plan_int(&s, "array_elements"), (4LL << 30) / 3 / 8);
    CHECK_STR(params_get_text(&s.info.plan.values, "size_basis"), "L3 508 MiB per package (CPUID 0x80000005/6)");
    CHECK_STR(s.size_basis, "cpuid_amd_legacy");
    CHECK(s.may_fit_cache);
    CHECK(planned_warning(&s, "capped by the memory budget"));
    size_t said = 0;
    for (size_t i = 0; i < s.info.nwarnings; i++)
        said += strstr(s.info.warnings[i], "STREAM's rule") != NULL || strstr(s.info.warnings[i], "DRAM rule") != NULL;
    CHECK_INT((long long)said, 1);
    close_session(&s);
    cpuid_dump_free(&d);
}

/* Nothing known at all: the 1 GiB floor; a buffer that fits the budget meets it,
 * and the basis is said as the floor. */
TEST(session_no_cache_source_takes_the_floor)
{
    session s;
    CHECK_INT(open_on(&s, fixture_microvm_no_caches(), "latency-matrix", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK_STR(s.size_basis, "floor");
    CHECK_INT(plan_int(&s, "buffer_bytes"), 1LL << 30);
    CHECK(!s.may_fit_cache);
    CHECK(!planned_warning(&s, "below the DRAM rule"));
    close_session(&s);
    /* below the floor by the command line: said, and the records say it */
    CHECK_INT(open_on(&s, fixture_microvm_no_caches(), "latency-matrix", "-b", "512M", NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    CHECK(s.may_fit_cache);
    CHECK(planned_warning(&s, "below the DRAM rule (no source describes L3: the 1 GiB floor)"));
    close_session(&s);
}

/* The DRAM check's verdict: a figure better at the footprint than at twice it (by
 * more than 5%) was still a cache's; bandwidth higher, latency lower. */
TEST(dram_check_verdict_by_metric)
{
    CHECK_STR(dram_check_verdict(false, 60000, 59000), "dram");
    CHECK_STR(dram_check_verdict(false, 70000, 60000), "not_dram");
    CHECK_STR(dram_check_verdict(false, 50000, 60000), "dram"); /* slower at the footprint: no cache helped */
    CHECK_STR(dram_check_verdict(true, 120, 125), "dram");
    CHECK_STR(dram_check_verdict(true, 80, 120), "not_dram");
    CHECK_STR(dram_check_verdict(true, 130, 120), "dram");
}

/* The run's DRAM check goes to every record meant to be DRAM's, and to no other. */
TEST(dram_check_given_to_dram_records)
{
    session s;
    cpuid_dump d = {NULL, 0};
    CHECK_INT(open_microvm(&s, &d, false, "stream", NULL, NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    s.dram_check = (result_dram_check){true, "read", "MB/s", 1ULL << 30, 70000, 60000, "not_dram"};
    result_record r, other;
    result_init(&r, "stream", "triad", METRIC_BANDWIDTH);
    session_emit(&s, &r);
    result_init(&other, "stream", "copy", METRIC_BANDWIDTH);
    other.size_basis = "user"; /* a record with a basis of its own, not DRAM-intended */
    session_emit(&s, &other);
    CHECK_INT(s.results.n, 2);
    if (s.results.n == 2) {
        CHECK(s.results.items[0].dram_check.ran);
        CHECK_STR(s.results.items[0].dram_check.verdict, "not_dram");
        CHECK(!s.results.items[1].dram_check.ran);
    }
    close_session(&s);
    cpuid_dump_free(&d);
}

/* A record the mode emits without a basis of its own gets the mode's: where the
 * size came from, that it was meant for DRAM, and whether it may fit a cache. */
TEST(session_records_carry_the_modes_size_basis)
{
    session s;
    cpuid_dump d = {NULL, 0};
    CHECK_INT(open_microvm(&s, &d, true, "stream", NULL, NULL), -1);
    CHECK_INT(session_plan(&s), 0);
    result_record r;
    result_init(&r, "stream", "triad", METRIC_BANDWIDTH);
    session_emit(&s, &r);
    CHECK_INT(s.results.n, 1);
    if (s.results.n == 1) {
        CHECK_STR(s.results.items[0].size_basis, "cpuid_amd_legacy");
        CHECK(s.results.items[0].dram_intent);
        CHECK(!s.results.items[0].may_fit_cache);
    }
    close_session(&s);
    cpuid_dump_free(&d);
}

/* sysfs that understates the L3 (8 MiB; CPUID leaf 4: 105 MiB): the sweep's RAM
 * points pass the larger view, and say it is CPUID's. */
TEST(session_sweep_sizes_pass_the_largest_view_of_the_last_level)
{
    session s;
    cpuid_dump d = {NULL, 0};
    CHECK(fixture_cpuid("spr-guest.txt", &d));
    cpuid_of_open_on = &d;
    CHECK_INT(open_on(&s, fixture_wrong_sysfs(), NULL, "-o", "read", NULL), -1);
    cpuid_of_open_on = NULL;
    CHECK_INT(session_plan(&s), 0);
    const param_table *sizes = section_find_table(&s.info.plan, "sizes");
    CHECK(sizes != NULL && sizes->nrows > 2);
    if (sizes && sizes->nrows > 2) {
        const param_list *last = &sizes->rows[sizes->nrows - 1];
        CHECK_INT((long long)params_get_number(last, "size_kb", -1), 256LL << 10); /* 4 x 105 MiB / 2 threads, up */
        CHECK_INT(plan_int(&s, "dram_rule_bytes"), 420LL << 20);
        CHECK_STR(params_get_text(last, "size_basis"), "cpuid_leaf4");
        /* the L3 points too: 105 MiB shared by the 2 threads, 32 MiB when it fills */
        const param_list *fills = NULL;
        for (size_t i = 0; i < sizes->nrows; i++) {
            const char *why = params_get_text(&sizes->rows[i], "reason");
            if (why && strstr(why, "L3: fills L3"))
                fills = &sizes->rows[i];
        }
        CHECK(fills != NULL);
        if (fills) {
            CHECK_INT((long long)params_get_number(fills, "size_kb", -1), 32LL << 10);
            CHECK_STR(params_get_text(fills, "size_basis"), "cpuid_leaf4");
        }
        const param *fit = params_find(last, "may_fit_cache");
        CHECK(fit && fit->kind == PARAM_BOOL && !fit->flag);
    }
    close_session(&s);
    cpuid_dump_free(&d);
}
