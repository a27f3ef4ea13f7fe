/* SPDX-License-Identifier: MIT */
/* Command lines of the modes that take other tools' options: what a flag would
 * ignore or contradict is refused with one line naming it, and a listing flag
 * does not excuse a bad value. */
#include <stdarg.h>
#include <stdlib.h>

#include "fixtures.h"
#include "modes/mode.h"
#include "test.h"

/* mode's parser and checks on argv = mode args... (NULL-ended); err: 256 bytes. */
static parse_result parse_mode(const char *mode, char *err, ...)
{
    const mode_def *m = mode_find(mode);
    if (!m)
        return PARSE_OK; /* fails the caller's check */
    char *argv[32];
    va_list ap;
    va_start(ap, err);
    int argc = test_argv(argv, 32, (char *)mode, ap);
    va_end(ap);
    void *opts = calloc(1, m->options_size);
    err[0] = '\0';
    parse_result r = mode_parse_options(m, argc, argv, fixture_no_env, opts, err, 256);
    options_free(opts);
    free(opts);
    return r;
}

/* perf runs its suite for -a and ignores the rest: membench says so instead of
 * starting a 15-minute suite that is not what was asked. */
TEST(numa_mem_all_refuses_the_options_it_would_ignore)
{
    char err[256];
    CHECK_INT(parse_mode("numa-mem", err, "-a", "-p", "2", NULL), PARSE_ERROR);
    CHECK_STR(err, "-a runs perf's suite, whose tests set their own options: -p would be ignored (-a takes only -s, "
                   "-d, --json, --openmetrics and -v)");
    CHECK_INT(parse_mode("numa-mem", err, "--all", "-G", "5", "-t", "1", "--no-data_reads", NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, ": -t, -G, -R would be ignored");
    CHECK_INT(parse_mode("numa-mem", err, "-a", "-s", "1", "-d", "-v", "--json", "x.json", NULL), PARSE_OK);
    CHECK_INT(parse_mode("numa-mem", err, "-p", "2", NULL), PARSE_OK);
}

/* A leading blank is refused as every other mode's numbers refuse it. */
TEST(numa_mem_sizes_and_thp_refuse_a_leading_blank)
{
    static const char *const flags[] = {"-G", "-P", "-T", "-L", "-H"};
    char err[256], want[64];
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        CHECK_INT(parse_mode("numa-mem", err, flags[i], " 5", "-P", "8", NULL), PARSE_ERROR);
        snprintf(want, sizeof want, "%s ' 5': ", flags[i]);
        CHECK_CONTAINS(err, want);
    }
    CHECK_INT(parse_mode("numa-mem", err, "-P", "0.5", "-H", "-1", NULL), PARSE_OK);
}

TEST(mlc_idle_latency_every_cpu_or_one_not_both)
{
    char err[256];
    CHECK_INT(parse_mode("mlc", err, "--idle_latency", "-a", "-c", "0", NULL), PARSE_ERROR);
    CHECK_STR(err, "-a and -c 0: -a measures every CPU, -c one; give one of them");
    CHECK_INT(parse_mode("mlc", err, "--idle_latency", "-a", NULL), PARSE_OK);
    CHECK_INT(parse_mode("mlc", err, "--idle_latency", "-c", "0", NULL), PARSE_OK);
}

TEST(listing_flags_do_not_excuse_bad_values)
{
    char err[256];
    CHECK_INT(parse_mode("stream", err, "--list-kernels", "--size", "abc", NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "--size 'abc'");
    CHECK_INT(parse_mode("stream", err, "--size", "abc", "--list-kernels", NULL), PARSE_ERROR);
    CHECK_INT(parse_mode("stream", err, "--list-kernels", "--bogus", NULL), PARSE_ERROR);
    CHECK_INT(parse_mode("stream", err, "--list-kernels", "--size", "64M", NULL), PARSE_EXIT_OK);
    CHECK_INT(parse_mode("stream", err, "--help", "--size", "abc", NULL), PARSE_EXIT_OK); /* help, whatever follows */
}
