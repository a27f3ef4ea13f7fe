/* SPDX-License-Identifier: MIT */
#include "cli/numa_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "cli/omp_env.h"
#include "plan/numa_bind.h"
#include "util/parse_number.h"

#define F(field) offsetof(numa_options, field)
#define MAX_MB (1024.0 * 1024 * 1024) /* 1 PiB in MiB: beyond any machine, below overflow */

/* A size in MB (perf's MB: 2^20 bytes): a number >= 0, fractions allowed. */
static parse_result parse_mb(const char *flag, const char *arg, double *out, char *err, size_t errlen)
{
    if (!parse_double(arg, 0, MAX_MB, out))
        return cli_fail(err, errlen, "%s '%s': must be a size in MB (2^20 bytes) from 0, e.g. 1024 or 0.5", flag,
                        arg);
    return PARSE_OK;
}

#define MB_PARSER(fn, flag, field)                                                                                 \
    static parse_result fn(void *opts, const char *arg, char *err, size_t errlen)                                  \
    {                                                                                                              \
        return parse_mb(flag, arg, &((numa_options *)opts)->field, err, errlen);                                   \
    }
MB_PARSER(parse_global, "-G", mb_global)
MB_PARSER(parse_proc, "-P", mb_proc)
MB_PARSER(parse_thread, "-T", mb_thread)
MB_PARSER(parse_locked, "-L", mb_proc_locked)

static parse_result parse_thp(void *opts, const char *arg, char *err, size_t errlen)
{
    bool negative = *arg == '-';
    uint64_t v;
    if (!parse_u64(arg + negative, 0, 1000000, &v))
        return cli_fail(err, errlen, "-H '%s': must be a whole number (> 0 huge pages, < 0 none, 0 default)", arg);
    ((numa_options *)opts)->thp = negative ? -(int)v : (int)v;
    return PARSE_OK;
}

static parse_result parse_cpus(void *opts, const char *arg, char *err, size_t errlen)
{
    if (!numa_bind_syntax("-C", arg, true, err, errlen))
        return PARSE_ERROR;
    ((numa_options *)opts)->cpus = arg;
    return PARSE_OK;
}

static parse_result parse_nodes(void *opts, const char *arg, char *err, size_t errlen)
{
    if (!numa_bind_syntax("-M", arg, false, err, errlen))
        return PARSE_ERROR;
    ((numa_options *)opts)->memnodes = arg;
    return PARSE_OK;
}

#define FLAG(letter, name, field, text)                                                                           \
    {.short_name = (letter), .long_name = (name), .kind = OPT_FLAG, .key = (name), .offset = F(field),           \
     .negatable = true, .help = (text)}
#define MB(letter, name, fn, text)                                                                                 \
    {.short_name = (letter), .long_name = (name), .value_name = "MB", .kind = OPT_CUSTOM, .key = (name),         \
     .custom = (fn), .help = (text)}

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.short_name = 'p', .long_name = "nr_proc", .value_name = "N", .kind = OPT_INT, .key = "nr_proc",
     .offset = F(nr_proc), .min = 1, .max = MAX_THREADS, .bad = "must be a whole number from 1 to 4096",
     .help = "Processes (fork), default 1"},
    {.short_name = 't', .long_name = "nr_threads", .value_name = "N", .kind = OPT_INT, .key = "nr_threads",
     .offset = F(nr_threads), .min = 1, .max = MAX_THREADS, .bad = "must be a whole number from 1 to 4096",
     .help = "Threads per process, default 1"},
    MB('G', "mb_global", parse_global, "Memory shared by all processes (MAP_SHARED), default 1"),
    MB('P', "mb_proc", parse_proc, "Memory of each process, shared by its threads"),
    MB('T', "mb_thread", parse_thread, "Memory of each thread"),
    MB('L', "mb_proc_locked", parse_locked, "The first MB of the process memory, worked on\nunder the process "
                                            "mutex each loop (<= -P)"),
    {.short_name = 'l', .long_name = "nr_loops", .value_name = "N", .kind = OPT_UINT, .key = "nr_loops",
     .offset = F(nr_loops), .min = 1, .max = 1e15, .bad = "must be a whole number of loops from 1",
     .help = "Loops per thread (default: until -s)"},
    {.short_name = 's', .long_name = "nr_secs", .value_name = "SECONDS", .kind = OPT_DOUBLE, .key = "nr_secs",
     .offset = F(nr_secs), .given = OPTION_GIVEN(numa_options, secs_given), .min = 0, .max = 1e7,
     .bad = "must be a number of seconds >= 0 (0: no limit, with -l)",
     .help = "Time limit, kept within milliseconds (default 5;\n0: none, then -l ends the run)"},
    {.short_name = 'u', .long_name = "usleep", .value_name = "US", .kind = OPT_UINT, .key = "usleep",
     .offset = F(usleep_us), .min = 0, .max = 100000000, .bad = "must be a whole number of microseconds",
     .help = "Microseconds slept each loop, holding the process mutex"},
    FLAG('R', "data_reads", reads, "Read the data (default on; --no-data_reads: writes only)"),
    FLAG('W', "data_writes", writes, "Write the data (default on; both: read-modify-write)"),
    FLAG('B', "data_backwards", backwards, "Alternate the direction of sequential passes (default on)"),
    FLAG('Z', "data_zero_memset", zero_memset, "Zero the data (memset) instead of reading or writing it"),
    FLAG('r', "data_rand_walk", rand_walk, "Random walk over 8 KiB blocks (default on; off\n"
                                           "with its --no- form: sequential passes)"),
    FLAG('z', "init_zero", init_zero, "Zero the buffers when they are allocated"),
    FLAG('I', "init_random", init_random, "Fill the buffers with a pattern when allocated (default on)"),
    FLAG('0', "init_cpu0", init_cpu0, "Allocate every buffer on the node of CPU 0"),
    {.short_name = 'H', .long_name = "thp", .value_name = "N", .kind = OPT_CUSTOM, .key = "thp", .custom = parse_thp,
     .help = "> 0: huge pages (MADV_HUGEPAGE), < 0: none\n(MADV_NOHUGEPAGE), on every buffer"},
    {.short_name = 'C', .long_name = "cpus", .value_name = "LIST", .kind = OPT_CUSTOM, .key = "cpus_list",
     .custom = parse_cpus, .help = "Bind task i to the i-th CPU set of LIST, entries\nSTART, _LEN, -END, #STEP, xMUL "
                                   "(see docs/numa-mem.md)"},
    {.short_name = 'M', .long_name = "memnodes", .value_name = "LIST", .kind = OPT_CUSTOM, .key = "memnodes",
     .custom = parse_nodes, .help = "Bind task i's memory to the i-th node of LIST\n(CPU-less nodes too)"},
    FLAG('c', "show_convergence", show_convergence, "Show where each process's threads and memory are"),
    FLAG('m', "measure_convergence", measure_convergence, "Stop when every process sits on one node, and say "
                                                         "when"),
    {.short_name = 'x', .long_name = "perturb_secs", .value_name = "N", .kind = OPT_INT, .key = "perturb_secs",
     .offset = F(perturb_secs), .min = 0, .max = 86400, .bad = "must be a whole number of seconds",
     .help = "Move task 0 to a far CPU every N seconds"},
    {.short_name = 'd', .long_name = "show_details", .kind = OPT_COUNTER, .key = "show_details",
     .offset = F(details), .help = "Details (-d -d: per thread)"},
    FLAG('q', "quiet", quiet, "perf's quiet layout"),
    FLAG('S', "serialize-startup", serialize, "Start every task together (default on)"),
    {.long_name = "if-applicable", .kind = OPT_FLAG, .key = "if_applicable", .offset = F(if_applicable),
     .help = "A -C or -M list this machine cannot give makes the run\n'not applicable' (exit 0), as in perf's "
             "suite, not an error"},
    {.long_name = "tight-loop", .kind = OPT_FLAG, .key = "tight_loop", .offset = F(tight_loop),
     .help = "Sequential passes in membench's loop, not perf's (which\nreads its flags at every word): the machine's "
             "rate,\nprinted under keys of membench's own (tight-total-speed)"},
    {.short_name = 'a', .long_name = "all", .kind = OPT_COUNTER, .key = "all", .offset = F(all),
     .help = "Run perf's suite of 45 tests, scaled to this machine\n(with only -s, -d, --json, --openmetrics, -v; no\noptions at all: the same, as perf)"},
    OPTION_COMMON("json"),
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("verbose"),
    OPTION_END,
};

const option_table numa_option_table = {
    "membench numa mem",
    "Usage: membench numa-mem [options]   (also typed as perf's: membench numa mem)\n"
    "perf bench numa mem: processes (-p) of threads (-t) work on memory shared by all\n"
    "(-G), by a process's threads (-P) and by one thread (-T), bound to CPUs (-C) and\n"
    "nodes (-M) or left to the kernel; perf's options, defaults and output.\n"
    "\n",
    "Every result key carries perf's amount (data: a word once, whatever the access);\n"
    "beyond perf: every value is checked, runtimes are per thread, a stop or a dead\n"
    "worker ends the run within a second; see docs/numa-mem.md.\n",
    specs,
};

void numa_options_defaults(void *opts)
{
    numa_options *o = opts;
    o->nr_proc = o->nr_threads = 1;
    o->mb_global = 1;
    o->nr_secs = 5;
    o->reads = o->writes = o->backwards = o->rand_walk = o->init_random = o->serialize = true;
}

parse_result numa_options_check(void *opts, char *err, size_t errlen)
{
    numa_options *o = opts;
    static const char *const output_only[] = {"json", "openmetrics", "verbose", NULL};
    char given[256];
    if (!o->all && !options_given_except(&numa_option_table, o, output_only, given, sizeof given))
        o->all = 1; /* no options at all: perf runs its whole suite */
    if (o->all) { /* the suite's tests carry their own options: any other would be ignored */
        static const char *const with_all[] = {"all", "nr_secs", "show_details", "json", "openmetrics", "verbose", NULL};
        char ignored[256];
        if (options_given_except(&numa_option_table, o, with_all, ignored, sizeof ignored))
            return cli_fail(err, errlen,
                            "-a runs perf's suite, whose tests set their own options: %s would be ignored (-a takes "
                            "only -s, -d, --json, --openmetrics and -v)",
                            ignored);
        return PARSE_OK;
    }
    if ((long)o->nr_proc * o->nr_threads > MAX_THREADS)
        return cli_fail(err, errlen, "-p %d x -t %d: more than %d tasks", o->nr_proc, o->nr_threads, MAX_THREADS);
    if (o->mb_proc_locked > o->mb_proc)
        return cli_fail(err, errlen, "-L %g: more than the process memory (-P %g)", o->mb_proc_locked, o->mb_proc);
    if (o->mb_global == 0 && o->mb_proc == 0 && o->mb_thread == 0)
        return cli_fail(err, errlen, "no memory to work on: give -G, -P or -T");
    if (!o->reads && !o->writes && !o->zero_memset)
        return cli_fail(err, errlen, "--no-data_reads and --no-data_writes without -Z: nothing would be done");
    if (o->tight_loop && (o->rand_walk || o->zero_memset))
        return cli_fail(err, errlen, "--tight-loop changes only sequential reads and writes: give --no-data_rand_walk, "
                                     "without -Z (%s)",
                        o->zero_memset ? "-Z zeroes with memset" : "-r is on");
    if (o->nr_secs == 0 && o->nr_loops == 0)
        return cli_fail(err, errlen, "-s 0 without -l: the run would never end");
    if (o->measure_convergence && o->nr_secs == 0)
        return cli_fail(err, errlen, "-m with -s 0: give a time limit for a run that may never converge");
    return PARSE_OK;
}
