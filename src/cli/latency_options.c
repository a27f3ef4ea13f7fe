/* SPDX-License-Identifier: MIT */
#include "cli/latency_options.h"

#include <stddef.h>
#include <stdio.h>

#include "cli/cli_errors.h"
#include "cli/target_options.h"
#include "util/parse_number.h"

#define F(field) offsetof(latency_options, field)
#define MAX_LATENCY_BYTES (1ULL << 40)

static const char *const policy_choices[] = {"bind", "preferred", NULL};

static parse_result parse_stride(void *opts, const char *arg, char *err, size_t errlen)
{
    latency_options *o = opts;
    uint64_t u;
    if (!parse_u64(arg, 8, 1 << 20, &u) || u % 8 != 0)
        return cli_fail(err, errlen, "--stride '%s': must be a multiple of 8 bytes from 8 to 1048576", arg);
    o->stride = u;
    o->order = CHASE_STRIDED;
    return PARSE_OK;
}

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.long_name = "min", .value_name = "SIZE", .kind = OPT_SIZE, .key = "min_bytes", .offset = F(min_bytes),
     .min = 4096, .max = (double)MAX_LATENCY_BYTES, .bad = "not a size of at least 4K (e.g. 16K, 2M, 1G)",
     .help = "Smallest buffer (default 4K); SIZE takes K, M or G,\na bare number is KiB"},
    {.long_name = "max", .value_name = "SIZE", .kind = OPT_SIZE, .key = "max_bytes", .offset = F(max_bytes),
     .min = 4096, .max = (double)MAX_LATENCY_BYTES, .bad = "not a size of at least 4K (e.g. 64M, 1G)",
     .help = "Largest buffer (default: the DRAM rule, 4x the largest\nlast-level figure any source gives)"},
    {.long_name = "points-per-octave", .value_name = "N", .kind = OPT_INT, .key = "points_per_octave",
     .offset = F(points_per_octave), .given = OPTION_GIVEN(latency_options, points_per_octave_given), .min = 1,
     .max = 64, .bad = "must be a whole number from 1 to 64",
     .help = "Sizes per doubling, everywhere (default: 4 up to the largest\ncache, 2 past it)"},
    {.long_name = "stride", .value_name = "BYTES", .kind = OPT_CUSTOM, .key = "stride", .custom = parse_stride,
     .help = "lmbench-style fixed stride instead of random order"},
    {.long_name = "page-local", .kind = OPT_FLAG, .key = "page_local", .offset = F(page_local),
     .help = "Random within each page, pages in random order\n(separates TLB misses from cache misses)"},
    {.long_name = "full-random", .kind = OPT_FLAG, .key = "full_random", .offset = F(full_random),
     .help = "Every size chased in random order over the whole\nbuffer, page walks included (default: multichase's\n"
             "order, random within 256 KiB groups, one line of\nevery 256 bytes a pass; the largest size is chased\n"
             "fully random too, as the Random column)"},
    OPTION_COMMON("pages"),
    {.long_name = "seed", .value_name = "N", .kind = OPT_UINT, .key = "seed", .offset = F(seed), .min = 0,
     .max = (double)UINT64_MAX, .bad = "must be a whole number >= 0", .help = "Seed of the random order (default 1)"},
    {.long_name = "sample-ms", .value_name = "MS", .kind = OPT_DOUBLE, .key = "sample_ms", .offset = F(sample_ms),
     .given = OPTION_GIVEN(latency_options, sample_ms_given), .min = 0.1, .max = 100000,
     .bad = "must be a number from 0.1 to 100000",
     .help = "Duration of one sample (default 20, down to 5 when the\n--rounds would not end within --time-budget); 7-21\n"
             "samples, until CV < 5%"},
    {.long_name = "rounds", .value_name = "N", .kind = OPT_INT, .key = "rounds", .offset = F(rounds), .min = 1,
     .max = LATENCY_MAX_ROUNDS, .bad = "must be a whole number from 1 to 21",
     .help = "Visit every size N times, in plan order, its samples\nspread over the visits (default 3; more while CV >= 5%\n"
             "and no round slower than all before; 1: each size's\nsamples back to back)"},
    OPTION_TARGET_CI(latency_options, target_ci_pct, "--rounds"),
    OPTION_MAX_TIME(latency_options, max_time_s),
    {.long_name = "time-budget", .value_name = "SECONDS", .kind = OPT_DOUBLE, .key = "time_budget_s",
     .offset = F(time_budget_s), .min = 0, .max = 1e9, .bad = "must be a number of seconds >= 0 (0 = no budget)",
     .help = "The default samples are shortened (to 5 ms at least) so\nthe --rounds end within this many seconds of "
             "measuring,\nby the plan's model and again before each visit of\nrounds 2 on, as the run goes; rounds past "
             "--rounds that\nonly the CV rule wants start only when they end within\nit (default: 15; 0 = no budget; "
             "not with --target-ci)"},
    {.long_name = "cpu", .value_name = "N", .kind = OPT_INT, .key = "cpu", .offset = F(cpu),
     .given = OPTION_GIVEN(latency_options, cpu_given), .min = 0, .max = CPU_LIST_MAX_ID, .bad = "not a CPU number",
     .help = "CPU to run on (default: the first usable)"},
    {.long_name = "mem-node", .value_name = "N", .kind = OPT_INT, .key = "mem_node", .offset = F(mem_node),
     .given = OPTION_GIVEN(latency_options, mem_node_given), .min = 0, .max = 4095, .bad = "not a NUMA node number",
     .help = "Memory on NUMA node N instead of the CPU's own\n(remote latency, as numactl --membind)"},
    {.long_name = "mem-policy", .value_name = "bind|preferred", .kind = OPT_CHOICE, .key = "mem_policy",
     .offset = F(mem_policy), .given = OPTION_GIVEN(latency_options, mem_policy_given), .choices = policy_choices,
     .bad = "use bind or preferred",
     .help = "With --mem-node: bind (default; allocation fails rather\nthan go elsewhere) or preferred (falls back "
             "to other\nnodes when N is full; the node share says where it went)"},
    {.long_name = "csv", .kind = OPT_FLAG, .key = "csv", .offset = F(csv), .help = "CSV instead of a table"},
    OPTION_COMMON("json"),
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("cache-probe"),
    OPTION_COMMON("plan"),
    OPTION_COMMON("sysfs"),
    OPTION_COMMON("cpuid"),
    OPTION_COMMON("verbose"),
    OPTION_END,
};

const option_table latency_option_table = {
    "membench latency",
    "Usage: membench latency [options]\n"
    "Latency curve of dependent loads (pointer chasing) from --min to --max, one pinned\n"
    "thread, memory on its node. Estimates the cache sizes from where latency steps up\n"
    "and compares them with the sizes the system reports.\n"
    "\n",
    NULL,
    specs,
};

void latency_options_defaults(void *opts)
{
    latency_options *o = opts;
    o->min_bytes = 4096;
    o->points_per_octave = 4;
    o->order = CHASE_TLB_LOCAL;
    o->seed = 1;
    o->sample_ms = 20;
    o->cpu = -1;
    o->mem_node = -1;
    o->rounds = 3;
    o->time_budget_s = LATENCY_TIME_BUDGET_S;
}

parse_result latency_options_check(void *opts, char *err, size_t errlen)
{
    latency_options *o = opts;
    if (o->page_local + o->full_random + (o->order == CHASE_STRIDED) > 1)
        return cli_fail(err, errlen, "%s: choose one order",
                        o->order != CHASE_STRIDED ? "--page-local and --full-random conflict"
                        : o->page_local       ? "--page-local and --stride conflict"
                                              : "--full-random and --stride conflict");
    if (o->page_local)
        o->order = CHASE_PAGE_LOCAL;
    if (o->full_random)
        o->order = CHASE_RANDOM;
    if (o->max_bytes && o->max_bytes < o->min_bytes)
        return cli_fail(err, errlen, "--max (%llu KiB) is smaller than --min (%llu KiB)",
                        (unsigned long long)(o->max_bytes >> 10), (unsigned long long)(o->min_bytes >> 10));
    /* sizes are whole strides: a --max below two of them would silently measure more */
    if (o->order == CHASE_STRIDED && o->max_bytes && o->max_bytes < 2 * o->stride)
        return cli_fail(err, errlen, "--stride %llu: --max (%llu KiB) must hold at least two strides",
                        (unsigned long long)o->stride, (unsigned long long)(o->max_bytes >> 10));
    if (o->mem_policy_given && !o->mem_node_given)
        return cli_fail(err, errlen, "--mem-policy needs --mem-node: without it memory is the CPU's own node");
    target_options_check(o->target_ci_pct, &o->max_time_s);
    return PARSE_OK;
}
