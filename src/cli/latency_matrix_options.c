/* SPDX-License-Identifier: MIT */
#include "cli/latency_matrix_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "util/parse_number.h"

#define F(field) offsetof(latency_matrix_options, field)
#define MAX_MATRIX_BYTES (1ULL << 40)

/* --cpu-of NODE=CPU, repeatable: the chaser of NODE's row runs on CPU. */
static parse_result parse_cpu_of(void *opts, const char *arg, char *err, size_t errlen)
{
    latency_matrix_options *o = opts;
    const char *eq = strchr(arg, '=');
    char node[16];
    uint64_t n, c;
    if (!eq || (size_t)(eq - arg) >= sizeof node)
        return cli_fail(err, errlen, "--cpu-of '%s': use NODE=CPU, e.g. 1=8", arg);
    memcpy(node, arg, (size_t)(eq - arg));
    node[eq - arg] = '\0';
    if (!parse_u64(node, 0, 4095, &n) || !parse_u64(eq + 1, 0, CPU_LIST_MAX_ID, &c))
        return cli_fail(err, errlen, "--cpu-of '%s': use NODE=CPU with a node and a CPU number, e.g. 1=8", arg);
    for (size_t i = 0; i < o->ncpu_of; i++)
        if (o->cpu_of[i].node == (int)n)
            return cli_fail(err, errlen, "--cpu-of '%s': node %d was given a CPU already", arg, (int)n);
    if (o->ncpu_of == LATENCY_MATRIX_MAX_CPU_OF)
        return cli_fail(err, errlen, "--cpu-of '%s': at most %d of them", arg, LATENCY_MATRIX_MAX_CPU_OF);
    o->cpu_of[o->ncpu_of++] = (node_cpu_choice){(int)n, (int)c};
    return PARSE_OK;
}

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.short_name = 'b', .long_name = "buffer", .value_name = "SIZE", .kind = OPT_SIZE, .key = "buffer_bytes",
     .offset = F(buffer_bytes), .given = OPTION_GIVEN(latency_matrix_options, buffer_given), .min = 4096,
     .max = (double)MAX_MATRIX_BYTES, .bad = "not a size of at least 4K (e.g. 256M, 1G)",
     .help = "Chased buffer per cell (default: the DRAM rule, 4x the largest\nlast-level figure any source gives, at least 64M, within the\nmemory budget); "
             "SIZE takes\nK, M or G, a bare number is KiB"},
    {.long_name = "every-cpu", .kind = OPT_FLAG, .key = "every_cpu", .offset = F(every_cpu),
     .help = "A row per usable CPU instead of per node (MLC's -a):\nlatency to its own node's memory, to find a slow "
             "core"},
    {.long_name = "cpu", .value_name = "N", .kind = OPT_INT, .key = "cpu", .offset = F(cpu),
     .given = OPTION_GIVEN(latency_matrix_options, cpu_given), .min = 0, .max = CPU_LIST_MAX_ID,
     .bad = "not a CPU number", .help = "One row: CPU N to its own node's memory (or --mem-node's);\nMLC's idle latency"},
    {.long_name = "mem-node", .value_name = "N", .kind = OPT_INT, .key = "mem_node", .offset = F(mem_node),
     .given = OPTION_GIVEN(latency_matrix_options, mem_node_given), .min = 0, .max = 4095,
     .bad = "not a NUMA node number", .help = "Only memory on NUMA node N (one column; with --every-cpu:\nevery CPU "
                                              "to node N)"},
    {.long_name = "cpu-of", .value_name = "NODE=CPU", .kind = OPT_CUSTOM, .key = "cpu_of", .custom = parse_cpu_of,
     .help = "Chase from CPU on NODE's row (default: the node's first\nusable CPU); repeatable"},
    OPTION_COMMON("pages"),
    {.long_name = "stride", .value_name = "BYTES", .kind = OPT_UINT, .key = "stride", .offset = F(stride), .min = 8,
     .max = 1 << 20, .bad = "must be a multiple of 8 bytes from 8 to 1048576",
     .help = "Bytes between chased nodes, visited in random order\n(default: the cache line, one line of every 256 bytes\n"
             "a pass)"},
    {.long_name = "full-random", .kind = OPT_FLAG, .key = "full_random", .offset = F(full_random),
     .help = "Random over the whole buffer, page walks included\n(default: multichase's order, random within 256 KiB\n"
             "groups, the groups in random order: no page walks)"},
    {.long_name = "chase-range", .value_name = "BYTES", .kind = OPT_UINT, .key = "chase_range",
     .offset = F(chase_range), .min = 8, .max = 1 << 30, .bad = "must be a number of bytes from 8 to 1073741824",
     .help = "Random order within each BYTES-long range of the buffer,\nthe ranges in random order (MLC's -D; default: 256 KiB\ngroups, "
             "as multichase)"},
    {.long_name = "seed", .value_name = "N", .kind = OPT_UINT, .key = "seed", .offset = F(seed), .min = 0,
     .max = (double)UINT64_MAX, .bad = "must be a whole number >= 0", .help = "Seed of the random order (default 1)"},
    {.long_name = "sample-ms", .value_name = "MS", .kind = OPT_DOUBLE, .key = "sample_ms", .offset = F(sample_ms),
     .min = 0.1, .max = 100000, .bad = "must be a number from 0.1 to 100000",
     .help = "Duration of one sample (default 20); 7-21 samples per\ncell, until CV < 5%"},
    {.long_name = "csv", .kind = OPT_FLAG, .key = "csv", .offset = F(csv), .help = "CSV, one line per cell, instead "
                                                                                  "of the matrix"},
    OPTION_COMMON("json"),
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("cache-probe"),
    OPTION_COMMON("plan"),
    OPTION_COMMON("sysfs"),
    OPTION_COMMON("cpuid"),
    OPTION_COMMON("verbose"),
    OPTION_END,
};

const option_table latency_matrix_option_table = {
    "membench latency-matrix",
    "Usage: membench latency-matrix [options]\n"
    "Idle latency of dependent loads (random pointer chase) for every pair of a NUMA\n"
    "node with CPUs (rows) and a node with memory (columns, CPU-less memory nodes\n"
    "included): one pinned thread per row, memory bound to the column's node, the\n"
    "CPU and the pages' node verified for every cell. '-' marks a cell whose node\n"
    "could not hold the buffer.\n"
    "\n",
    NULL,
    specs,
};

void latency_matrix_options_defaults(void *opts)
{
    latency_matrix_options *o = opts;
    o->mem_node = -1;
    o->cpu = -1;
    o->seed = 1;
    o->sample_ms = 20;
}

parse_result latency_matrix_options_check(void *opts, char *err, size_t errlen)
{
    latency_matrix_options *o = opts;
    if (o->every_cpu && o->ncpu_of > 0)
        return cli_fail(err, errlen, "--cpu-of and --every-cpu conflict: --every-cpu runs on every CPU");
    if (o->stride % 8)
        return cli_fail(err, errlen, "--stride %llu: must be a multiple of 8 bytes from 8 to 1048576",
                        (unsigned long long)o->stride);
    if (o->cpu_given && (o->every_cpu || o->ncpu_of > 0))
        return cli_fail(err, errlen, "--cpu %d conflicts with %s: --cpu measures one CPU", o->cpu,
                        o->every_cpu ? "--every-cpu" : "--cpu-of");
    if (o->full_random && o->chase_range)
        return cli_fail(err, errlen, "--full-random and --chase-range %llu conflict: choose one order",
                        (unsigned long long)o->chase_range);
    return PARSE_OK;
}
