/* SPDX-License-Identifier: MIT */
#include "cli/sweep_options.h"

#include <stddef.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "cli/target_options.h"
#include "kernels/operation.h"

#define F(field) offsetof(sweep_options, field)

static parse_result parse_op(void *opts, const char *arg, char *err, size_t errlen)
{
    sweep_options *o = opts;
    mb_op op;
    if (!op_parse(arg, &op))
        return cli_fail(err, errlen,
                        "-o '%s': unknown operation (use read, write, copy, latency, write-nt, copy-nt, memcpy)", arg);
    if (!o->ops_given)
        o->ops_mask = 0;
    o->ops_given = true;
    o->ops_mask |= OP_MASK(op);
    return PARSE_OK;
}

/* What -o completes to: every operation op_parse accepts. */
static const char *op_values(char *buf, size_t len)
{
    buf[0] = '\0';
    for (int op = 0; op < OP_COUNT; op++)
        options_add_word(buf, len, op_name((mb_op)op));
    return buf;
}

static const char *const csv_column_choices[] = {"sc-membench", "membench", NULL};

static const option_spec specs[] = {
    OPTION_COMMON_UNDER("help", "sc-membench options (same meaning):"),
    OPTION_COMMON("version"),
    OPTION_COMMON("verbose"),
    {.short_name = 's', .value_name = "SIZE_KB", .kind = OPT_SIZE_KB, .key = "single_size_kb", .offset = F(single_size_kb),
     .min = 4, .max = (double)MAX_SIZE_KB,
     .bad = "size must be a whole number of KB (or with K, M or G: 64M), at least 4 KB",
     .help = "Test only this buffer size per thread: KB, or with K, M or G,\ne.g. -s 1024 or -s 1M (the same)"},
    {.short_name = 'r', .value_name = "TRIES", .kind = OPT_INT, .key = "tries", .offset = F(tries), .min = 1,
     .max = MAX_TRIES, .bad = "tries must be a whole number from 1 to 1000",
     .help = "Timed samples per test, best is reported (default: 3)"},
    {.short_name = 'f', .kind = OPT_FLAG, .key = "full_sweep", .offset = F(full),
     .help = "Full sweep: add sizes from 512 MB up to the memory limit"},
    OPTION_COMMON("threads"),
    {.short_name = 'a', .kind = OPT_FLAG, .key = "auto_scale", .offset = F(auto_scale),
     .help = "Auto-scaling: try 1,2,4,...,N threads, report the best per size"},
    {.short_name = 't', .value_name = "SECONDS", .kind = OPT_DOUBLE, .key = "max_runtime_s", .offset = F(max_runtime),
     .min = 0, .max = 1e9, .bad = "seconds must be a number >= 0 (0 = unlimited)",
     .help = "Maximum runtime, 0 = unlimited (honoured within about a second)"},
    {.short_name = 'o', .value_name = "OP", .kind = OPT_CUSTOM, .key = "operations", .custom = parse_op, .values = op_values,
     .help = "Run only this operation; repeatable. read, write, copy, latency\n(default set), and write-nt, copy-nt "
             "(non-temporal stores), memcpy"},
    OPTION_COMMON("huge"),
    {.short_name = 'R', .kind = OPT_FLAG, .key = "human_readable", .offset = F(human),
     .help = "Human-readable table, summary and scores (default: CSV)"},
    OPTION_COMMON_UNDER("json", "membench options:"),
    {.long_name = "max-size", .value_name = "SIZE", .kind = OPT_SIZE_KB, .key = "max_size_kb",
     .offset = F(max_size_kb), .min = 4, .max = (double)MAX_SIZE_KB,
     .bad = "size must be a whole number of KB (or with K, M or G: 64M), at least 4 KB",
     .help = "Sweep only the planned sizes up to SIZE per thread (KB, or with\nK, M or G); larger ones, "
             "the DRAM point among them, are left\nout (JSON plan: sizes_above_max_size)"},
    {.long_name = "csv-columns", .value_name = "SET", .kind = OPT_CHOICE, .key = "csv_columns",
     .offset = F(csv_columns), .given = OPTION_GIVEN(sweep_options, csv_columns_given),
     .choices = csv_column_choices, .bad = "use sc-membench or membench",
     .help = "sc-membench (default): its nine CSV columns, its meanings; membench:\nthen "
             "tlb_local_latency_ns and tlb_local_latency_stddev_ns"},
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("cpus"),
    OPTION_COMMON("oversubscribe"),
    OPTION_COMMON("kernel"),
    OPTION_COMMON("list-kernels"),
    OPTION_COMMON("pages"),
    OPTION_COMMON("cache-probe"),
    OPTION_COMMON("plan"),
    OPTION_COMMON("sysfs"),
    OPTION_COMMON("cpuid"),
    {.long_name = "sample-ms", .value_name = "MS", .kind = OPT_DOUBLE, .key = "min_sample_ms", .offset = F(sample_ms),
     .min = 0.1, .max = 100000, .bad = "must be a number from 0.1 to 100000",
     .help = "Minimum duration of one bandwidth sample (default: 10)"},
    {.long_name = "latency-sample-ms", .value_name = "MS", .kind = OPT_DOUBLE, .key = "latency_sample_ms",
     .offset = F(latency_sample_ms), .min = 0.1, .max = 100000, .bad = "must be a number from 0.1 to 100000",
     .help = "Duration of one latency sample (default: 20); ceil(7 / -r) a visit, more rounds until CV < 5% (21 at most) or a round is slower than all before"},
    {.long_name = "seed", .value_name = "N", .kind = OPT_UINT, .key = "seed", .offset = F(seed), .min = 0,
     .max = (double)UINT64_MAX, .bad = "must be a whole number >= 0", .help = "Seed of the latency chase order (default: 1)"},
    OPTION_TARGET_CI(sweep_options, target_ci_pct, "-r"),
    OPTION_MAX_TIME(sweep_options, max_time_s),
    {.long_name = "time-budget", .value_name = "SECONDS", .kind = OPT_DOUBLE, .key = "time_budget_s",
     .offset = F(time_budget_s), .min = 0, .max = 1e9, .bad = "must be a number of seconds >= 0 (0 = no budget)",
     .help = "Rounds past -r that only latency points' CV rule wants\nstart only when they end within this many "
             "seconds of\nmeasuring (default: 15; 0 = no budget; not with --target-ci)"},
    OPTION_END,
};

const option_table sweep_option_table = {
    "membench",
    "membench - memory bandwidth and latency benchmark (sc-membench compatible)\n"
    "\n"
    "Usage: membench [options]            bandwidth/latency sweep (CSV on stdout)\n"
    "       membench MODE [options]       another mode (membench MODE --help); modes below\n",
    "Environment, read as GNU libgomp reads it: OMP_NUM_THREADS (thread count; 8,4:\n"
    "the first), OMP_PROC_BIND (spread, close, master/primary, true, false; a list\n"
    "such as spread,close: the first), OMP_PLACES (threads, cores, sockets,\n"
    "numa_domains, ll_caches, optionally cores(4); or places such as {0,1},{2:2},\n"
    "{0:4}:2:4, {0:8,!3}, {0},{1},!{0}). --cpus and -p take precedence.\n"
    "\n"
    "CSV columns, sc-membench's: size_kb (per thread), operation, bandwidth_mb_s\n"
    "(10^6 bytes/s, all threads; copy counts the buffer size once), latency_ns\n"
    "(median of a chase random over the whole buffer, page walks included, as\n"
    "sc-membench chases), latency_stddev_ns, latency_samples, threads, iterations\n"
    "(kernel passes per sample; latency: samples), elapsed_s (best sample; latency:\n"
    "whole test). --csv-columns membench adds tlb_local_latency_ns and its stddev:\n"
    "multichase's order, random within 256 KiB groups, no page walks (the -R table's\n"
    "and JSON's latency).\n"
    "The run's headline (DRAM figures, latency, caches, host noise) ends every text\n"
    "run on stderr, so stdout stays sc-membench's CSV or table.\n"
    "Exit status: 0 done, 1 measurement failed (or no memory budget, no threads) or\n"
    "output lost, 2 bad input, 128+signal when stopped (INT 130, TERM 143, HUP 129,\n"
    "PIPE 141).\n",
    specs,
};

void sweep_options_defaults(void *opts)
{
    sweep_options *o = opts;
    o->tries = 3;
    o->ops_mask = OP_MASK_DEFAULT;
    o->sample_ms = 10;
    o->latency_sample_ms = 20;
    o->seed = 1;
    o->time_budget_s = SWEEP_TIME_BUDGET_S;
}

parse_result sweep_options_check(void *opts, char *err, size_t errlen)
{
    sweep_options *o = opts;
    if (o->auto_scale && o->common.threads_from_p)
        return cli_fail(err, errlen, "-a and -p conflict: -a tries thread counts itself");
    if (o->full && o->single_size_kb)
        return cli_fail(err, errlen, "-f and -s conflict: -s tests one size, -f adds sizes up to the memory limit");
    if (o->max_size_kb && o->single_size_kb)
        return cli_fail(err, errlen, "--max-size and -s conflict: -s tests one size, --max-size caps a sweep's sizes");
    target_options_check(o->target_ci_pct, &o->max_time_s);
    return PARSE_OK;
}
