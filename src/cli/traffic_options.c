/* SPDX-License-Identifier: MIT */
#include "cli/traffic_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "util/parse_number.h"

#define F(field) offsetof(traffic_options, field)
#define MAX_BUFFER_BYTES (1ULL << 40)
#define MAX_DELAY 100000000ULL

const uint64_t traffic_default_delays[] = {0,   2,   8,    15,   50,   100,  200,  300,   400,  500,
                                           700, 1000, 1300, 1700, 2500, 3500, 5000, 9000, 20000};
const int traffic_default_ndelays = (int)(sizeof traffic_default_delays / sizeof traffic_default_delays[0]);

/* "R,W5,W10": names of traffic_mix.h, no repeats. */
static parse_result parse_mixes(void *opts, const char *arg, char *err, size_t errlen)
{
    traffic_options *o = opts;
    char buf[256];
    if (!*arg || strlen(arg) >= sizeof buf)
        return cli_fail(err, errlen, "--traffic '%s': give one or more of %s, comma-separated", arg,
                        traffic_mix_names());
    strcpy(buf, arg);
    o->nmixes = 0;
    for (char *tok = buf, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        const traffic_mix *m = *tok ? traffic_mix_find(tok) : NULL;
        if (!m)
            return cli_fail(err, errlen, "--traffic '%s': '%s' is not a traffic type (%s)", arg, tok,
                            traffic_mix_names());
        for (int i = 0; i < o->nmixes; i++)
            if (o->mixes[i] == m)
                return cli_fail(err, errlen, "--traffic '%s': %s is given twice", arg, m->name);
        o->mixes[o->nmixes++] = m;
    }
    return PARSE_OK;
}

/* "0,50,1000": ascending or not, each 0..MAX_DELAY, at most TRAFFIC_MAX_DELAYS. */
static parse_result parse_delays(void *opts, const char *arg, char *err, size_t errlen)
{
    traffic_options *o = opts;
    const char *p = arg;
    o->ndelays = 0;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char tok[32];
        uint64_t v;
        if (len == 0 || len >= sizeof tok || o->ndelays == TRAFFIC_MAX_DELAYS)
            goto bad;
        memcpy(tok, p, len);
        tok[len] = 0;
        if (!parse_u64(tok, 0, MAX_DELAY, &v))
            goto bad;
        o->delays[o->ndelays++] = v;
        p += len;
        if (*p == ',' && !*++p)
            goto bad;
    }
    if (o->ndelays > 0)
        return PARSE_OK;
bad:
    return cli_fail(err, errlen, "--delays '%s': give 1 to %d whole numbers from 0 to %llu, comma-separated", arg,
                    TRAFFIC_MAX_DELAYS, (unsigned long long)MAX_DELAY);
}

/* What --traffic completes to: the mix table's names. */
static const char *mix_values(char *buf, size_t len)
{
    size_t n;
    const traffic_mix *m = traffic_mix_table(&n);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++)
        options_add_word(buf, len, m[i].name);
    return buf;
}

#define ROW_TRAFFIC(what)                                                                                          \
    {.long_name = "traffic", .value_name = "LIST", .kind = OPT_CUSTOM, .key = "traffic", .custom = parse_mixes,  \
     .values = mix_values,                                                                                         \
     .help = "Traffic types (MLC's -R and -W n): R = all reads,\nW2..W17 read:write mixes, W6-W10 with "        \
             "non-temporal\nstores (see docs/mlc-class.md); " what}
#define ROW_ONE_PER_CORE                                                                                           \
    {.long_name = "one-per-core", .kind = OPT_FLAG, .key = "one_per_core", .offset = F(one_per_core),              \
     .help = "One traffic thread per physical core, not per CPU\n(MLC -X)"}
#define ROW_BUFFER                                                                                                 \
    {.short_name = 'b', .long_name = "buffer", .value_name = "SIZE", .kind = OPT_SIZE, .key = "buffer_bytes",      \
     .offset = F(buffer_bytes), .min = 1 << 20, .max = (double)MAX_BUFFER_BYTES,                                    \
     .bad = "not a size of at least 1M (e.g. 64M, 1G)",                                                            \
     .help = "Each buffer of a traffic thread (default: the DRAM\nrule shared out over the threads, at least 64 MiB);\n" \
             "SIZE takes K, M or G, a bare number is KiB"}
#define ROW_PER_THREAD                                                                                             \
    {.long_name = "per-thread", .kind = OPT_FLAG, .key = "per_thread", .offset = F(per_thread),                    \
     .help = "Each traffic thread's bandwidth too (MLC -B)"}
#define ROW_RANDOM                                                                                                 \
    {.long_name = "random", .kind = OPT_FLAG, .key = "random", .offset = F(random),                                \
     .help = "Random-access traffic: 256-byte blocks at random places\n(MLC -U), not sequential streams"}
#define ROW_TIME_LIMIT                                                                                             \
    {.short_name = 't', .long_name = "time-limit", .value_name = "SECONDS", .kind = OPT_DOUBLE,                    \
     .key = "max_runtime_s", .offset = F(max_runtime), .min = 0, .max = 1e9,                                       \
     .bad = "seconds must be a number >= 0 (0 = unlimited)",                                                        \
     .help = "Maximum runtime, 0 = unlimited: the rows measured\nby then are kept"}
#define ROW_CSV {.long_name = "csv", .kind = OPT_FLAG, .key = "csv", .offset = F(csv), .help = "CSV instead of a table"}

#define ROW_DELAY                                                                                                  \
    {.short_name = 'd', .long_name = "delay", .value_name = "N", .kind = OPT_UINT, .key = "delay", .offset = F(delay), \
     .given = OPTION_GIVEN(traffic_options, delay_given), .min = 0, .max = (double)MAX_DELAY,                      \
     .bad = "must be a whole number from 0 to 100000000",                                                          \
     .help = "Injection delay: busy-loop iterations after every\nstep of traffic (default 0; MLC -d)"}
#define ROW_WINDOW                                                                                                 \
    {.long_name = "window-ms", .value_name = "MS", .kind = OPT_DOUBLE, .key = "window_ms", .offset = F(window_ms), \
     .min = 1, .max = 100000, .bad = "must be a number from 1 to 100000",                                          \
     .help = "One bandwidth sample (default 100), after one\ndiscarded warm-up window"}
#define ROW_SAMPLES(text)                                                                                          \
    {.long_name = "samples", .value_name = "N", .kind = OPT_INT, .key = "samples", .offset = F(samples), .min = 1, \
     .max = 1000, .bad = "must be a whole number from 1 to 1000", .help = (text)}
/* The rows every traffic table ends with. */
#define ROWS_END                                                                                                   \
    OPTION_COMMON("kernel"), OPTION_COMMON("list-kernels"), OPTION_COMMON("pages"), ROW_CSV, OPTION_COMMON("json"), \
        OPTION_COMMON("openmetrics"), OPTION_COMMON("cache-probe"), OPTION_COMMON("plan"), OPTION_COMMON("sysfs"),   \
        OPTION_COMMON("cpuid"), OPTION_COMMON("verbose"), OPTION_END

static const option_spec peak_specs[] = {
    OPTION_COMMON("help"),
    ROW_TRAFFIC("default R,W3,W2,W5,W10\n(W11 where there are no non-temporal stores)"),
    {.long_name = "max", .kind = OPT_FLAG, .key = "max", .offset = F(search_max),
     .help = "Best over a search of injection delays, not only\ndelay 0 (MLC --max_bandwidth)"},
    ROW_DELAY,
    OPTION_COMMON("cpus"),
    ROW_ONE_PER_CORE,
    ROW_BUFFER,
    ROW_WINDOW,
    ROW_SAMPLES("Samples per traffic type (default 5)"),
    ROW_PER_THREAD,
    ROW_RANDOM,
    ROW_TIME_LIMIT,
    ROWS_END,
};

static const option_spec loaded_specs[] = {
    OPTION_COMMON("help"),
    ROW_TRAFFIC("default R (one type)"),
    {.long_name = "delays", .value_name = "LIST", .kind = OPT_CUSTOM, .key = "delays", .custom = parse_delays,
     .help = "Injection delays, busy-loop iterations after every\nstep of traffic (default MLC's: 0,2,8,...,20000);"
             "\neach is also reported in ns for this CPU"},
    {.short_name = 'c', .long_name = "latency-cpu", .value_name = "N", .kind = OPT_INT, .key = "latency_cpu",
     .offset = F(latency_cpu), .given = OPTION_GIVEN(traffic_options, latency_cpu_given), .min = 0,
     .max = CPU_LIST_MAX_ID, .bad = "not a CPU number",
     .help = "CPU of the chasing thread (default: the first usable)"},
    OPTION_COMMON("cpus"),
    ROW_ONE_PER_CORE,
    {.long_name = "share-core", .kind = OPT_FLAG, .key = "share_core", .offset = F(share_core),
     .help = "Let traffic run on the chaser's core (its SMT\nsiblings); by default that core is left to the chaser"},
    ROW_BUFFER,
    {.long_name = "chase-buffer", .value_name = "SIZE", .kind = OPT_SIZE, .key = "chase_bytes",
     .offset = F(chase_bytes), .min = 1 << 20, .max = (double)MAX_BUFFER_BYTES,
     .bad = "not a size of at least 1M (e.g. 256M)",
     .help = "Buffer the latency thread chases (default: the DRAM\nrule, 4x the largest last-level figure, at least 64 MiB)"},
    {.long_name = "sample-ms", .value_name = "MS", .kind = OPT_DOUBLE, .key = "sample_ms", .offset = F(sample_ms),
     .min = 0.1, .max = 100000, .bad = "must be a number from 0.1 to 100000",
     .help = "One latency sample with the traffic quiet (default 10;\nlonger under load)"},
    ROW_SAMPLES("Latency samples per delay (default 9)"),
    ROW_PER_THREAD,
    ROW_RANDOM,
    {.long_name = "chase-range", .value_name = "BYTES", .kind = OPT_UINT, .key = "chase_range",
     .offset = F(chase_range), .min = 8, .max = 1 << 30, .bad = "must be a number of bytes from 8 to 1073741824",
     .help = "Random order within each BYTES-long range of the buffer,\nthe ranges in random order (MLC's -D; default: the whole\nbuffer at once)"},
    {.long_name = "seed", .value_name = "N", .kind = OPT_UINT, .key = "seed", .offset = F(seed), .min = 0,
     .max = (double)UINT64_MAX, .bad = "must be a whole number >= 0", .help = "Seed of the random chase (default 1)"},
    ROW_TIME_LIMIT,
    ROWS_END,
};

static const option_spec matrix_specs[] = {
    OPTION_COMMON("help"),
    ROW_TRAFFIC("one type, default R"),
    ROW_DELAY,
    OPTION_COMMON("cpus"),
    ROW_ONE_PER_CORE,
    ROW_BUFFER,
    ROW_WINDOW,
    ROW_SAMPLES("Samples per cell (default 5)"),
    ROW_PER_THREAD,
    ROW_RANDOM,
    ROW_TIME_LIMIT,
    ROWS_END,
};

const option_table bandwidth_matrix_option_table = {
    "membench bandwidth-matrix",
    "Usage: membench bandwidth-matrix [options]\n"
    "Bandwidth matrix (MLC --bandwidth_matrix): the threads of every NUMA node with\n"
    "CPUs stream from memory bound to every node with memory in turn, CPU-less memory\n"
    "nodes included. MB/s of application bytes and of DRAM traffic with the\n"
    "write-allocate reads of regular stores.\n"
    "\n",
    NULL,
    matrix_specs,
};

const option_table peak_option_table = {
    "membench peak-bandwidth",
    "Usage: membench peak-bandwidth [options]\n"
    "Peak injection bandwidth (MLC --peak_injection_bandwidth): every traffic thread\n"
    "streams from its own node's memory as fast as it can, once per traffic type.\n"
    "Prints the application bytes (what MLC prints) and the DRAM traffic including the\n"
    "write-allocate reads of regular stores. --max searches injection delays for the\n"
    "best bandwidth (MLC --max_bandwidth).\n"
    "\n",
    NULL,
    peak_specs,
};

const option_table loaded_latency_option_table = {
    "membench loaded-latency",
    "Usage: membench loaded-latency [options]\n"
    "Loaded latency (MLC --loaded_latency): one thread chases a random cycle through\n"
    "its node's memory while the other threads make traffic at each injection delay;\n"
    "latency and bandwidth come from the same window. The chaser's core gets no\n"
    "traffic thread. Reports the idle latency, the peak bandwidth and where the curve\n"
    "bends.\n"
    "\n",
    NULL,
    loaded_specs,
};

static void defaults(traffic_options *o)
{
    o->window_ms = 100;
    o->samples = 5;
    o->latency_cpu = -1;
    o->sample_ms = 10;
    o->seed = 1;
}

void peak_options_defaults(void *opts)
{
    defaults(opts);
}

void loaded_latency_options_defaults(void *opts)
{
    traffic_options *o = opts;
    defaults(o);
    o->samples = 9;
}

parse_result peak_options_check(void *opts, char *err, size_t errlen)
{
    traffic_options *o = opts;
    if (o->search_max && o->delay_given)
        return cli_fail(err, errlen, "--max and --delay conflict: --max searches the delays itself");
    return PARSE_OK;
}

parse_result bandwidth_matrix_options_check(void *opts, char *err, size_t errlen)
{
    traffic_options *o = opts;
    if (o->nmixes > 1)
        return cli_fail(err, errlen, "--traffic: the bandwidth matrix takes one traffic type, not %d", o->nmixes);
    return PARSE_OK;
}

parse_result loaded_latency_options_check(void *opts, char *err, size_t errlen)
{
    traffic_options *o = opts;
    if (o->nmixes > 1)
        return cli_fail(err, errlen, "--traffic: loaded latency takes one traffic type, not %d", o->nmixes);
    if (o->latency_cpu_given && o->common.cpus_given && cpu_list_contains(&o->common.cpus, o->latency_cpu) &&
        !o->share_core)
        return cli_fail(err, errlen, "--latency-cpu %d is also in --cpus: the chaser's CPU makes no traffic",
                        o->latency_cpu);
    return PARSE_OK;
}
