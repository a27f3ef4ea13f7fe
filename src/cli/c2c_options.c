/* SPDX-License-Identifier: MIT */
#include "cli/c2c_options.h"

#include <stddef.h>

#include "cli/cli_errors.h"

#define F(field) offsetof(c2c_options, field)
#define MIN_WINDOW 4096
#define MAX_WINDOW (4ULL << 30)

static parse_result parse_cpus(void *opts, const char *arg, char *err, size_t errlen)
{
    cpu_list l;
    bool ok = cpu_list_parse(arg, &l) && l.count >= 2;
    cpu_list_free(&l); /* the plan parses it again, against the usable CPUs */
    if (!ok)
        return cli_fail(err, errlen, "--cpus '%s': not a list of at least two CPUs (e.g. 0-7,16)", arg);
    ((c2c_options *)opts)->cpus = arg;
    return PARSE_OK;
}

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.long_name = "writer", .value_name = "CPU", .kind = OPT_INT, .key = "writer", .offset = F(writer),
     .given = OPTION_GIVEN(c2c_options, writer_given), .min = 0, .max = CPU_LIST_MAX_ID, .bad = "not a CPU number",
     .help = "One pair: the CPU that writes (or reads, --clean) the lines\nfirst; needs --reader"},
    {.long_name = "reader", .value_name = "CPU", .kind = OPT_INT, .key = "reader", .offset = F(reader),
     .given = OPTION_GIVEN(c2c_options, reader_given), .min = 0, .max = CPU_LIST_MAX_ID, .bad = "not a CPU number",
     .help = "One pair: the CPU that then reads them"},
    {.long_name = "home", .value_name = "NODE", .kind = OPT_INT, .key = "home", .offset = F(home),
     .given = OPTION_GIVEN(c2c_options, home_given), .min = 0, .max = 4095, .bad = "not a NUMA node number",
     .help = "Bind the lines' memory to this node (default: the\nwriter's node, and in the node matrices also the "
             "reader's)"},
    {.long_name = "clean", .kind = OPT_FLAG, .key = "clean", .offset = F(clean),
     .help = "HIT only: the writer only reads the lines, which are\nclean in its cache (default run: HIT and HITM; "
             "one pair\nand --matrix: HITM)"},
    {.long_name = "smt", .kind = OPT_FLAG, .key = "smt", .offset = F(smt),
     .help = "Local pair: two SMT siblings of one core (default: two\ncores)"},
    {.long_name = "matrix", .kind = OPT_FLAG, .key = "matrix", .offset = F(matrix),
     .help = "CPU x CPU matrix (rows writers, columns readers): one-way\ntransfers, not multichase pingpong's round trips"},
    {.long_name = "cpus", .value_name = "LIST", .kind = OPT_CUSTOM, .key = "cpus", .custom = parse_cpus,
     .help = "With --matrix: these CPUs (default: every usable CPU)"},
    {.long_name = "window", .value_name = "SIZE", .kind = OPT_SIZE, .key = "window", .offset = F(window),
     .min = MIN_WINDOW, .max = (double)MAX_WINDOW, .bad = "not a size from 4K to 4G (e.g. 64K, 2M)",
     .help = "Lines per sample (default: half the writer's L2, 16K to\n1M); SIZE takes K, M or G, a bare number is "
             "KiB"},
    {.long_name = "csv", .kind = OPT_FLAG, .key = "csv", .offset = F(csv), .help = "CSV instead of a table"},
    OPTION_COMMON("json"),
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("verbose"),
    OPTION_END,
};

const option_table c2c_option_table = {
    "membench c2c",
    "Usage: membench c2c [options]\n"
    "Cache-to-cache transfer latency: a writer CPU brings fresh lines into its cache,\n"
    "modified (HITM) or clean (HIT), then a reader CPU chases them in random order.\n"
    "Default: a local pair (two cores of one node), HIT then HITM; with several nodes,\n"
    "writer node x reader node matrices with memory homed on each side.\n"
    "\n",
    NULL,
    specs,
};

void c2c_options_defaults(void *opts)
{
    c2c_options *o = opts;
    o->writer = -1;
    o->reader = -1;
    o->home = -1;
}

parse_result c2c_options_check(void *opts, char *err, size_t errlen)
{
    c2c_options *o = opts;
    if (o->writer_given != o->reader_given)
        return cli_fail(err, errlen, "%s needs %s: one pair is a writer and a reader",
                        o->writer_given ? "--writer" : "--reader", o->writer_given ? "--reader" : "--writer");
    if (o->writer_given && o->writer == o->reader)
        return cli_fail(err, errlen, "--writer %d and --reader %d: the same CPU; a transfer needs two", o->writer,
                        o->reader);
    if (o->matrix && o->writer_given)
        return cli_fail(err, errlen, "--matrix and --writer/--reader conflict: choose the matrix or one pair");
    if (o->cpus && !o->matrix)
        return cli_fail(err, errlen, "--cpus needs --matrix: it lists the matrix's CPUs");
    if (o->smt && (o->matrix || o->writer_given))
        return cli_fail(err, errlen, "--smt chooses the default run's local pair: not with %s",
                        o->matrix ? "--matrix" : "--writer/--reader");
    if (o->window % 64)
        return cli_fail(err, errlen, "--window %llu: not a whole number of 64-byte lines",
                        (unsigned long long)o->window);
    return PARSE_OK;
}
