/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep_options.h"
#include "kernels/operation.h"
#include "modes/sweep.h"
#include "memory/page_policy.h"
#include "test.h"

static const char *env_values[8][2];

static const char *fake_env(const char *name)
{
    for (int i = 0; i < 8 && env_values[i][0]; i++)
        if (strcmp(env_values[i][0], name) == 0)
            return env_values[i][1];
    return NULL;
}

static parse_result parse(char *err, sweep_options *o, ...)
{
    char *argv[32];
    va_list ap;
    va_start(ap, o);
    int argc = test_argv(argv, 32, "membench", ap);
    va_end(ap);
    options_free(o);
    memset(o, 0, sizeof *o);
    return mode_parse_options(&sweep_mode, argc, argv, fake_env, o, err, 256);
}

#define PARSE(...) parse(err, &o, __VA_ARGS__, (char *)NULL)

TEST(options_defaults)
{
    sweep_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    memset(env_values, 0, sizeof env_values);
    CHECK_INT(parse(err, &o, (char *)NULL), PARSE_OK);
    CHECK_INT(o.tries, 3);
    CHECK_INT(o.common.threads, 0);
    CHECK_INT(o.ops_mask, OP_MASK_DEFAULT);
    CHECK_NEAR(o.max_runtime, 0, 0);
    CHECK(!o.human && !o.full && !o.auto_scale);
    CHECK_INT(o.common.pages, PAGE_CHOICE_DEFAULT);
    CHECK_NEAR(o.sample_ms, 10, 0);
    options_free(&o);
}

TEST(options_sc_membench_flags)
{
    sweep_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    memset(env_values, 0, sizeof env_values);
    CHECK_INT(PARSE("-vv", "-s", "1024", "-r", "5", "-p", "2", "-t", "1.5", "-o", "read", "-o", "copy-nt", "-H",
                    "-R"),
              PARSE_OK);
    CHECK_INT(o.common.verbose, 2);
    CHECK_INT(o.single_size_kb, 1024);
    CHECK_INT(o.tries, 5);
    CHECK(!o.full && o.human);
    CHECK_INT(o.common.pages, PAGE_CHOICE_AUTO);
    CHECK_INT(o.common.threads, 2);
    CHECK(o.common.threads_from_p);
    CHECK_NEAR(o.max_runtime, 1.5, 1e-12);
    CHECK_INT(o.ops_mask, OP_MASK(OP_READ) | OP_MASK(OP_COPY_NT));
    options_free(&o);
    /* -s with a unit, as every other mode's sizes; a plain number stays KB */
    CHECK_INT(PARSE("-s", "64M"), PARSE_OK);
    CHECK_INT(o.single_size_kb, 65536);
    options_free(&o);
    CHECK_INT(PARSE("-s", "2g"), PARSE_OK);
    CHECK_INT(o.single_size_kb, 2097152);
    options_free(&o);
    CHECK_INT(PARSE("-s", "4K"), PARSE_OK);
    CHECK_INT(o.single_size_kb, 4);
    options_free(&o);
    CHECK_INT(PARSE("-f", "-a", "--cpus", "0", "--json", "/tmp/x.json", "--seed", "9", "--sample-ms", "2.5"), PARSE_OK);
    CHECK(o.full && o.auto_scale && o.common.cpus_given);
    CHECK_INT(o.common.cpus.count, 1);
    CHECK_STR(o.common.json_path, "/tmp/x.json");
    CHECK_INT(o.seed, 9);
    options_free(&o);
    CHECK_INT(PARSE("-h"), PARSE_EXIT_OK);
    CHECK_INT(o.common.action, ACTION_HELP);
    CHECK_INT(PARSE("--version"), PARSE_EXIT_OK);
    CHECK_INT(o.common.action, ACTION_VERSION);
    CHECK_INT(PARSE("-V"), PARSE_EXIT_OK);
    CHECK_INT(o.common.action, ACTION_VERSION);
    CHECK_INT(PARSE("--list-kernels"), PARSE_EXIT_OK);
    CHECK_INT(o.common.action, ACTION_LIST_KERNELS);
    options_free(&o);
}

static void expect_error(const char *a, const char *b, const char *needle)
{
    sweep_options o;
    memset(&o, 0, sizeof o);
    char err[256] = "";
    parse_result r = b ? parse(err, &o, a, b, (char *)NULL) : parse(err, &o, a, (char *)NULL);
    if (r != PARSE_ERROR)
        test_fail(__FILE__, __LINE__, "'%s %s' was accepted", a, b ? b : "");
    else if (!strstr(err, needle))
        test_fail(__FILE__, __LINE__, "'%s %s': message \"%s\" does not name \"%s\"", a, b ? b : "", err, needle);
    CHECK(strchr(err, '\n') == NULL); /* one line */
    options_free(&o);
}

TEST(options_bad_values_name_the_value)
{
    memset(env_values, 0, sizeof env_values);
    expect_error("-s", "-5", "'-5'");
    expect_error("-s", "abc", "'abc'");
    expect_error("-s", "12abc", "'12abc'");
    expect_error("-s", "0", "'0'");
    expect_error("-s", "3K", "'3K'");
    expect_error("-s", "64MB", "'64MB'");
    expect_error("-s", "99999999999999999999", "'99999999999999999999'");
    expect_error("-p", "0", "'0'");
    expect_error("-p", "100000", "'100000'");
    expect_error("-p", "4294967297", "'4294967297'");
    expect_error("-p", "-1", "'-1'");
    expect_error("-r", "0", "'0'");
    expect_error("-r", "x", "'x'");
    expect_error("-o", "bogus", "'bogus'");
    expect_error("-t", "-1", "'-1'");
    expect_error("-t", "abc", "'abc'");
    expect_error("-t", "nan", "'nan'");
    expect_error("--cpus", "1-", "'1-'");
    expect_error("--cpus", "", "''");
    expect_error("--kernel", "neon9", "'neon9'");
    expect_error("--sample-ms", "0", "'0'");
    expect_error("--seed", "-3", "'-3'");
    expect_error("--json", "", "--json");
}

TEST(options_unknown_stray_and_missing)
{
    memset(env_values, 0, sizeof env_values);
    expect_error("-x", NULL, "'-x'");
    expect_error("--bogus", NULL, "'--bogus'");
    expect_error("stray", NULL, "'stray'");
    expect_error("-s", NULL, "'-s' needs a value");
    expect_error("--json", NULL, "'--json' needs a value");
    expect_error("-a", "-p2", "-a and -p conflict");
}

TEST(options_environment)
{
    sweep_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    memset(env_values, 0, sizeof env_values);
    env_values[0][0] = "OMP_NUM_THREADS";
    env_values[0][1] = "3,2";
    env_values[1][0] = "OMP_PROC_BIND";
    env_values[1][1] = "close";
    CHECK_INT(parse(err, &o, (char *)NULL), PARSE_OK);
    CHECK_INT(o.common.threads, 3);
    CHECK(!o.common.threads_from_p);
    CHECK_STR(o.common.omp_bind, "close");
    CHECK_INT(PARSE("-p", "1"), PARSE_OK); /* -p wins */
    CHECK_INT(o.common.threads, 1);
    env_values[0][1] = "lots";
    CHECK_INT(parse(err, &o, (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "OMP_NUM_THREADS='lots'");
    env_values[0][1] = "0";
    CHECK_INT(parse(err, &o, (char *)NULL), PARSE_ERROR);
    memset(env_values, 0, sizeof env_values);
}

/* OMP_NUM_THREADS as libgomp reads it (checked against gcc 12's libgomp): blanks
 * around the numbers, '+', leading zeros and nested levels are taken, the first
 * level applying; what libgomp rejects is refused, naming the value. */
TEST(options_omp_num_threads_spellings)
{
    static const struct {
        const char *text;
        int threads;
    } good[] = {{" 2", 2}, {"2 ", 2}, {" 2 ", 2}, {"\t3", 3}, {"3,2", 3}, {" 3 , 2 ", 3}, {"3 ,2", 3},
                {"+3", 3}, {"03", 3},   {"4096", 4096}, {"1,99999", 1}};
    static const char *const bad[] = {"",   " ",  "0",   "abc", "3x",   "3,",   ",3",   "-1",
                                      "0x10", "3,,2", "3 2", "1,0", "1,abc", "3,-1", "4097", "99999999999999999999"};
    sweep_options o;
    char err[256];
    memset(env_values, 0, sizeof env_values);
    env_values[0][0] = "OMP_NUM_THREADS";
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        memset(&o, 0, sizeof o);
        env_values[0][1] = good[i].text;
        CHECK_INT(parse(err, &o, (char *)NULL), PARSE_OK);
        if (o.common.threads != good[i].threads)
            test_fail(__FILE__, __LINE__, "OMP_NUM_THREADS='%s' gave %d threads, expected %d", good[i].text,
                      o.common.threads, good[i].threads);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&o, 0, sizeof o);
        env_values[0][1] = bad[i];
        CHECK_INT(parse(err, &o, (char *)NULL), PARSE_ERROR);
        char want[128];
        snprintf(want, sizeof want, "OMP_NUM_THREADS='%s': not a thread count from 1 to 4096", bad[i]);
        CHECK_STR(err, want);
    }
    memset(env_values, 0, sizeof env_values);
}

TEST(options_p_larger_than_cpus_list)
{
    sweep_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    memset(env_values, 0, sizeof env_values);
    CHECK_INT(PARSE("--cpus", "0", "-p", "2"), PARSE_ERROR);
    CHECK_CONTAINS(err, "-p 2 is more than the 1 CPUs given in --cpus");
    options_free(&o);
    CHECK_INT(PARSE("--cpus", "0", "-p", "2", "--oversubscribe"), PARSE_OK);
    options_free(&o);
}
