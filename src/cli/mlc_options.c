/* SPDX-License-Identifier: MIT */
#include "cli/mlc_options.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "cli/thread_options.h"
#include "util/parse_number.h"
#include "util/read_file.h"

#define F(field) offsetof(mlc_options, field)
#define MAX_DELAY 100000000ULL
#define MAX_DELAY_FILE 65536 /* bytes of a -g file read: far more than 64 delays need */

static const char *const test_flags[MLC_NTESTS] = {
    [MLC_DEFAULT] = "(no test)",
    [MLC_IDLE_LATENCY] = "--idle_latency",
    [MLC_LATENCY_MATRIX] = "--latency_matrix",
    [MLC_PEAK] = "--peak_injection_bandwidth",
    [MLC_BANDWIDTH_MATRIX] = "--bandwidth_matrix",
    [MLC_LOADED_LATENCY] = "--loaded_latency",
    [MLC_C2C] = "--c2c_latency",
    [MLC_MAX_BANDWIDTH] = "--max_bandwidth",
};

const char *mlc_test_flag(mlc_test t)
{
    return t < MLC_NTESTS ? test_flags[t] : "?";
}

/* MLC runs one test, or its default five with none. */
static parse_result set_test(void *opts, mlc_test t, char *err, size_t errlen)
{
    mlc_options *o = opts;
    if (o->test != MLC_DEFAULT)
        return cli_fail(err, errlen, "%s and %s: one test at a time (none runs MLC's default sequence)",
                        test_flags[o->test], test_flags[t]);
    o->test = t;
    return PARSE_OK;
}

#define TEST_SETTER(fn, t)                                                                                         \
    static parse_result fn(void *opts, const char *arg, char *err, size_t errlen)                                  \
    {                                                                                                              \
        (void)arg;                                                                                                 \
        return set_test(opts, t, err, errlen);                                                                     \
    }
TEST_SETTER(test_idle, MLC_IDLE_LATENCY)
TEST_SETTER(test_latency_matrix, MLC_LATENCY_MATRIX)
TEST_SETTER(test_peak, MLC_PEAK)
TEST_SETTER(test_bandwidth_matrix, MLC_BANDWIDTH_MATRIX)
TEST_SETTER(test_loaded, MLC_LOADED_LATENCY)
TEST_SETTER(test_c2c, MLC_C2C)
TEST_SETTER(test_max, MLC_MAX_BANDWIDTH)

/* -k LIST and -m MASK both choose the traffic CPUs: once. */
static parse_result set_cpus_flag(mlc_options *o, char flag, char *err, size_t errlen)
{
    if (o->cpus_flag)
        return cli_fail(err, errlen, "-%c and -%c: give the traffic CPUs once (a list with -k or a mask with -m)",
                        o->cpus_flag, flag);
    o->cpus_flag = flag;
    o->common.cpus_given = true;
    return PARSE_OK;
}

static parse_result parse_k(void *opts, const char *arg, char *err, size_t errlen)
{
    mlc_options *o = opts;
    if (set_cpus_flag(o, 'k', err, errlen) != PARSE_OK)
        return PARSE_ERROR;
    if (parse_cpus_option(arg, &o->common.cpus, err, errlen) == PARSE_OK)
        return PARSE_OK;
    return cli_fail(err, errlen, "-k '%s': not a CPU list (e.g. 1-4,6)", arg);
}

/* -m: a hexadecimal mask of CPUs, bit i = CPU i ("0x" optional). */
static parse_result parse_m(void *opts, const char *arg, char *err, size_t errlen)
{
    mlc_options *o = opts;
    if (set_cpus_flag(o, 'm', err, errlen) != PARSE_OK)
        return PARSE_ERROR;
    const char *hex = strncmp(arg, "0x", 2) == 0 || strncmp(arg, "0X", 2) == 0 ? arg + 2 : arg;
    size_t n = strlen(hex);
    if (n == 0 || n > (CPU_LIST_MAX_ID + 1) / 4 || strspn(hex, "0123456789abcdefABCDEF") != n)
        return cli_fail(err, errlen, "-m '%s': not a hexadecimal CPU mask (e.g. 0xf0)", arg);
    char list[4096] = "";
    size_t used = 0;
    for (size_t d = 0; d < n; d++) {
        char c = hex[n - 1 - d];
        int v = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        for (int b = 0; b < 4; b++)
            if (v >> b & 1) {
                int w = snprintf(list + used, sizeof list - used, "%s%zu", used ? "," : "", 4 * d + (size_t)b);
                if (w < 0 || (size_t)w >= sizeof list - used)
                    return cli_fail(err, errlen, "-m '%s': too many CPUs in the mask", arg);
                used += (size_t)w;
            }
    }
    if (!used)
        return cli_fail(err, errlen, "-m '%s': the mask names no CPU", arg);
    if (!cpu_list_parse(list, &o->common.cpus))
        return cli_fail(err, errlen, "-m '%s': not a hexadecimal CPU mask (e.g. 0xf0)", arg);
    return PARSE_OK;
}

static parse_result set_delays_flag(mlc_options *o, char flag, char *err, size_t errlen)
{
    if (o->delays_flag)
        return cli_fail(err, errlen, "-%c and -%c: give the injection delays once (one with -d, a file with -g)",
                        o->delays_flag, flag);
    o->delays_flag = flag;
    return PARSE_OK;
}

static parse_result parse_d(void *opts, const char *arg, char *err, size_t errlen)
{
    mlc_options *o = opts;
    if (set_delays_flag(o, 'd', err, errlen) != PARSE_OK)
        return PARSE_ERROR;
    if (!parse_u64(arg, 0, MAX_DELAY, &o->delays[0]))
        return cli_fail(err, errlen, "-d '%s': must be a whole number from 0 to %llu", arg,
                        (unsigned long long)MAX_DELAY);
    o->ndelays = 1;
    return PARSE_OK;
}

/* The delays of a -g file: white space or commas between them. */
static parse_result parse_delays(mlc_options *o, const char *arg, char *text, char *err, size_t errlen)
{
    o->ndelays = 0;
    for (char *tok = strtok(text, " \t\r\n,"); tok; tok = strtok(NULL, " \t\r\n,")) {
        if (o->ndelays == TRAFFIC_MAX_DELAYS)
            return cli_fail(err, errlen, "-g '%s': more than %d delays", arg, TRAFFIC_MAX_DELAYS);
        if (!parse_u64(tok, 0, MAX_DELAY, &o->delays[o->ndelays++]))
            return cli_fail(err, errlen, "-g '%s': '%.32s' is not a delay (a whole number from 0 to %llu)", arg, tok,
                            (unsigned long long)MAX_DELAY);
    }
    if (o->ndelays == 0)
        return cli_fail(err, errlen, "-g '%s': the file holds no delay", arg);
    return PARSE_OK;
}

/* -g FILE: a regular file of at most MAX_DELAY_FILE bytes (util/read_file.c). */
static parse_result parse_g(void *opts, const char *arg, char *err, size_t errlen)
{
    mlc_options *o = opts;
    if (set_delays_flag(o, 'g', err, errlen) != PARSE_OK)
        return PARSE_ERROR;
    char *text, why[128];
    size_t len;
    if (!read_file_limited(arg, MAX_DELAY_FILE, &text, &len, why, sizeof why))
        return cli_fail(err, errlen, "-g '%s': %s", arg, why);
    parse_result r = parse_delays(o, arg, text, err, errlen);
    free(text);
    return r;
}

static parse_result set_mix(mlc_options *o, const char *flag, const char *name, char *err, size_t errlen)
{
    if (o->mix)
        return cli_fail(err, errlen, "%s and %s: one traffic type (-R or one -W)", o->mix_flag, flag);
    o->mix = traffic_mix_find(name);
    snprintf(o->mix_flag, sizeof o->mix_flag, "%s", flag);
    return PARSE_OK;
}

static parse_result parse_r_traffic(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_mix(opts, "-R", "R", err, errlen);
}

static parse_result parse_w(void *opts, const char *arg, char *err, size_t errlen)
{
    uint64_t n;
    char name[8], flag[8];
    if (!parse_u64(arg, 2, 17, &n))
        return cli_fail(err, errlen, "-W '%s': not a traffic type (2 to 17; see membench mlc --help)", arg);
    snprintf(name, sizeof name, "W%llu", (unsigned long long)n);
    snprintf(flag, sizeof flag, "-W%llu", (unsigned long long)n);
    return set_mix(opts, flag, name, err, errlen);
}

/* What -W completes to: the numbers of the mix table's W mixes. */
static const char *w_values(char *buf, size_t len)
{
    size_t n;
    const traffic_mix *m = traffic_mix_table(&n);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++)
        if (m[i].name[0] == 'W')
            options_add_word(buf, len, m[i].name + 1);
    return buf;
}

static parse_result set_pages(mlc_options *o, const char *pages, char *err, size_t errlen)
{
    if (o->pages)
        return cli_fail(err, errlen, "-L and -h: one page size (2 MiB with -L, 1 GiB with -h)");
    o->pages = pages;
    return PARSE_OK;
}

static parse_result parse_l_pages(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_pages(opts, "2m", err, errlen);
}

static parse_result parse_h_pages(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_pages(opts, "1g", err, errlen);
}

static parse_result set_isa(mlc_options *o, const char *isa, char *err, size_t errlen)
{
    if (o->isa)
        return cli_fail(err, errlen, "-Y and -Z: one instruction set (AVX2 with -Y, AVX-512 with -Z)");
    o->isa = isa;
    return PARSE_OK;
}

static parse_result parse_y(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_isa(opts, "avx2", err, errlen);
}

static parse_result parse_z(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_isa(opts, "avx512", err, errlen);
}

/* MLC options membench does not do: refused by name, with what MLC means by them
 * and why, never ignored. */
static parse_result refuse_x(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)opts;
    (void)arg;
    return cli_fail(err, errlen, "-x (MLC: the latency measurement's length, in millions of loads) is not supported: "
                                 "membench times each sample and repeats until the median is steady; -t sets how "
                                 "long");
}

static parse_result refuse_p(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)opts;
    (void)arg;
    return cli_fail(err, errlen, "-p (MLC: CPUs that each run a spinning thread so their packages stay out of package "
                                 "sleep states) is not supported: membench runs no threads but the measuring ones");
}

static parse_result refuse_scan(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)opts;
    (void)arg;
    return cli_fail(err, errlen, "--memory_bandwidth_scan (MLC: the bandwidth of every 1 GB physical address range "
                                 "of a node) is not supported: membench cannot tell which physical range a page is "
                                 "in (that needs root: /proc/self/pagemap hides frame numbers from others)");
}

#define TEST(name, fn, text) {.long_name = (name), .kind = OPT_CUSTOM, .key = (name), .custom = (fn), .help = (text)}
#define CPU_ROW(letter, field, text)                                                                               \
    {.short_name = (letter), .value_name = "CPU", .kind = OPT_INT, .key = #field, .offset = F(field),              \
     .given = OPTION_GIVEN(mlc_options, field##_given), .min = 0, .max = CPU_LIST_MAX_ID, .bad = "not a CPU number", \
     .help = (text)}

static const option_spec specs[] = {
    {.long_name = "help", .kind = OPT_ACTION, .key = "help", .action = ACTION_HELP,
     .help = "Show this help (MLC's -h is its 1 GiB pages)"},
    OPTION_COMMON("version"),
    TEST("idle_latency", test_idle, "Idle latency of one CPU (-c) to one node's memory (-j, -i)"),
    TEST("latency_matrix", test_latency_matrix, "Idle latency for every CPU node x memory node"),
    TEST("bandwidth_matrix", test_bandwidth_matrix, "Bandwidth for every CPU node x memory node (-R, -W)"),
    TEST("peak_injection_bandwidth", test_peak, "Bandwidth of all CPUs for five read:write mixes"),
    TEST("max_bandwidth", test_max, "The same, each the best over a search of injection delays"),
    TEST("loaded_latency", test_loaded, "Latency of CPU -c while the others make traffic, per delay"),
    TEST("c2c_latency", test_c2c, "Cache-to-cache transfer latency (-w writer, -c reader)"),
    TEST("memory_bandwidth_scan", refuse_scan, "Refused: MLC's bandwidth per 1 GB physical range (needs root)"),
    {.short_name = 'a', .kind = OPT_FLAG, .key = "every_cpu", .offset = F(every_cpu),
     .help = "Idle latency of every usable CPU, a row each (not with -c)"},
    {.short_name = 'b', .value_name = "SIZE", .kind = OPT_SIZE, .key = "buffer_bytes", .offset = F(buffer_bytes),
     .given = OPTION_GIVEN(mlc_options, buffer_given), .min = 4096, .max = (double)(1ULL << 40),
     .bad = "not a size of at least 4K (a bare number is KiB, as in MLC)",
     .help = "Buffer per thread (default: the DRAM rule over the threads);\nK, M or G, a bare number is KiB"},
    {.short_name = 't', .value_name = "SECONDS", .kind = OPT_DOUBLE, .key = "seconds", .offset = F(seconds),
     .given = OPTION_GIVEN(mlc_options, seconds_given), .min = 0.01, .max = 3600,
     .bad = "must be a number of seconds from 0.01 to 3600", .help = "Time of each measurement (default: membench's)"},
    CPU_ROW('c', latency_cpu, "CPU of the latency thread (c2c: the reader)"),
    CPU_ROW('i', touch_cpu, "Idle latency: memory on this CPU's node"),
    {.short_name = 'j', .value_name = "NODE", .kind = OPT_INT, .key = "mem_node", .offset = F(mem_node),
     .given = OPTION_GIVEN(mlc_options, mem_node_given), .min = 0, .max = 4095, .bad = "not a NUMA node number",
     .help = "Latency: memory on this node (CPU-less nodes too)"},
    {.short_name = 'k', .value_name = "LIST", .kind = OPT_CUSTOM, .key = "k", .custom = parse_k,
     .help = "Traffic threads on these CPUs, e.g. 1-4,6"},
    {.short_name = 'm', .value_name = "MASK", .kind = OPT_CUSTOM, .key = "m", .custom = parse_m,
     .help = "Traffic threads on the CPUs of this hexadecimal mask"},
    {.short_name = 'X', .kind = OPT_FLAG, .key = "one_per_core", .offset = F(one_per_core),
     .help = "One traffic thread per core, not per SMT thread"},
    {.short_name = 'T', .kind = OPT_FLAG, .key = "traffic_only", .offset = F(traffic_only),
     .help = "Loaded latency: bandwidth only, no latency thread"},
    {.short_name = 'B', .kind = OPT_FLAG, .key = "per_thread", .offset = F(per_thread),
     .help = "Each traffic thread's bandwidth too"},
    {.short_name = 'd', .value_name = "N", .kind = OPT_CUSTOM, .key = "d", .custom = parse_d,
     .help = "One injection delay (busy-loop iterations)"},
    {.short_name = 'g', .value_name = "FILE", .kind = OPT_CUSTOM, .key = "g", .custom = parse_g,
     .help = "Injection delays from FILE (white space or commas;\na regular file of at most 64 KiB)"},
    {.short_name = 'R', .kind = OPT_CUSTOM, .key = "R", .custom = parse_r_traffic, .help = "All-read traffic"},
    {.short_name = 'W', .value_name = "N", .kind = OPT_CUSTOM, .key = "W", .custom = parse_w, .values = w_values,
     .help = "Read:write mix N: 2 2:1, 3 3:1, 4 3:2, 5 1:1, 6 NT writes,\n7 2:1 NT, 8 1:1 NT, 9 3:1 NT, 10 triad NT,\n"
             "11 triad, 12-17 4:1..9:1"},
    {.short_name = 'U', .kind = OPT_FLAG, .key = "random_traffic", .offset = F(random_traffic),
     .help = "Random-access traffic (256-byte blocks at random places)"},
    {.short_name = 'l', .value_name = "BYTES", .kind = OPT_UINT, .key = "stride", .offset = F(stride),
     .given = OPTION_GIVEN(mlc_options, stride_given), .min = 8, .max = 1 << 20,
     .bad = "must be a multiple of 8 bytes from 8 to 1048576", .help = "Latency: bytes between chased lines"},
    {.short_name = 'r', .kind = OPT_FLAG, .key = "random_chase", .offset = F(random_chase),
     .help = "Random latency chase (membench's only kind)"},
    {.short_name = 'D', .value_name = "BYTES", .kind = OPT_UINT, .key = "chase_range", .offset = F(chase_range),
     .given = OPTION_GIVEN(mlc_options, chase_range_given), .min = 8, .max = 1 << 30,
     .bad = "must be a number of bytes from 8 to 1073741824",
     .help = "Latency: random order within each BYTES-long range, the\nranges in random order (--chase-range)"},
    {.short_name = 'x', .value_name = "N", .kind = OPT_CUSTOM, .key = "x", .custom = refuse_x,
     .help = "Refused: MLC's latency length in millions of loads (use -t)"},
    {.short_name = 'p', .value_name = "LIST", .kind = OPT_CUSTOM, .key = "p", .custom = refuse_p,
     .help = "Refused: MLC's CPUs kept out of package sleep states"},
    {.short_name = 'e', .kind = OPT_FLAG, .key = "prefetchers_alone", .offset = F(prefetchers_alone),
     .help = "Leave the prefetchers alone (membench never touches them)"},
    {.short_name = 'L', .kind = OPT_CUSTOM, .key = "L", .custom = parse_l_pages, .help = "2 MiB pages"},
    {.short_name = 'h', .kind = OPT_CUSTOM, .key = "h", .custom = parse_h_pages, .help = "1 GiB pages"},
    {.short_name = 'Y', .kind = OPT_CUSTOM, .key = "Y", .custom = parse_y, .help = "AVX2 loads and stores"},
    {.short_name = 'Z', .kind = OPT_CUSTOM, .key = "Z", .custom = parse_z, .help = "AVX-512 loads and stores"},
    CPU_ROW('w', writer, "c2c: the writer CPU"),
    {.short_name = 'H', .kind = OPT_FLAG, .key = "clean", .offset = F(clean),
     .help = "c2c: clean lines (HIT) instead of modified (HITM)"},
    {.short_name = 'C', .value_name = "SIZE", .kind = OPT_SIZE, .key = "window", .offset = F(window),
     .given = OPTION_GIVEN(mlc_options, window_given), .min = 4096, .max = (double)(4ULL << 30),
     .bad = "not a size from 4K to 4G (a bare number is KiB)", .help = "c2c: bytes of lines per sample"},
    OPTION_COMMON("json"),
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("cache-probe"),
    OPTION_COMMON("verbose"),
    OPTION_END,
};

const option_table mlc_option_table = {
    "membench mlc",
    "Usage: membench mlc [--TEST] [MLC options]\n"
    "Intel Memory Latency Checker's command line and text layout, on any CPU, in VMs and\n"
    "without root: each test runs membench's own mode (shown with -v) and prints what\n"
    "MLC prints. With no test, MLC's default sequence: latency matrix, peak injection\n"
    "bandwidth, bandwidth matrix, loaded latency, cache-to-cache latency.\n"
    "\n",
    "membench never writes the prefetcher MSRs (no root): latency is always a random\n"
    "chase with the prefetchers on, which is what MLC falls back to where it cannot.\n",
    specs,
};

void mlc_options_defaults(void *opts)
{
    mlc_options *o = opts;
    o->latency_cpu = o->touch_cpu = o->mem_node = o->writer = -1;
}

parse_result mlc_options_check(void *opts, char *err, size_t errlen)
{
    mlc_options *o = opts;
    if (o->one_per_core && o->cpus_flag)
        return cli_fail(err, errlen, "-X and -%c: MLC refuses them together (-X picks the traffic threads itself)",
                        o->cpus_flag);
    if (o->cpus_flag == 'm' && o->mem_node_given)
        return cli_fail(err, errlen, "-m and -j: MLC refuses them together");
    if (o->every_cpu && o->latency_cpu_given && o->test == MLC_IDLE_LATENCY)
        return cli_fail(err, errlen, "-a and -c %d: -a measures every CPU, -c one; give one of them", o->latency_cpu);
    if (o->touch_cpu_given && o->mem_node_given)
        return cli_fail(err, errlen, "-i and -j: both choose the latency buffer's node; give one");
    if (o->delays_flag && o->test == MLC_MAX_BANDWIDTH)
        return cli_fail(err, errlen, "--max_bandwidth and -%c: --max_bandwidth searches the delays itself",
                        o->delays_flag);
    if (o->window_given && o->window % 64)
        return cli_fail(err, errlen, "-C %llu: not a whole number of 64-byte lines", (unsigned long long)o->window);
    if (o->stride_given && o->stride % 8)
        return cli_fail(err, errlen, "-l %llu: must be a multiple of 8 bytes from 8 to 1048576",
                        (unsigned long long)o->stride);
    return PARSE_OK;
}
