/* SPDX-License-Identifier: MIT */
#include "cli/stream_options.h"

#include <stddef.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "util/parse_number.h"
#include "util/parse_size.h"

#define F(field) offsetof(stream_options, field)
#define MAX_ELEMENTS (1ULL << 40)

static const char *const store_choices[] = {"regular", "nt", "both", NULL};

static parse_result parse_elements(void *opts, const char *arg, char *err, size_t errlen)
{
    stream_options *o = opts;
    uint64_t u;
    if (o->n_given)
        return cli_fail(err, errlen, "-n '%s': the array size is already given (-n or --size, once)", arg);
    if (!parse_u64(arg, 1000, MAX_ELEMENTS, &u))
        return cli_fail(err, errlen, "-n '%s': elements per array must be a whole number of at least 1000", arg);
    o->n = u;
    o->n_given = true;
    return PARSE_OK;
}

static parse_result parse_array_size(void *opts, const char *arg, char *err, size_t errlen)
{
    stream_options *o = opts;
    uint64_t u;
    if (o->n_given)
        return cli_fail(err, errlen, "--size '%s': the array size is already given (-n or --size, once)", arg);
    if (!parse_size(arg, 8000, MAX_ELEMENTS * 8, &u))
        return cli_fail(err, errlen, "--size '%s': not a size of at least 8000 bytes (e.g. 64M, 1G)", arg);
    o->n = u / sizeof(double);
    o->n_given = true;
    return PARSE_OK;
}

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.short_name = 'n', .value_name = "N", .kind = OPT_CUSTOM, .key = "elements", .custom = parse_elements,
     .help = "Elements per array (default: each array 4x the largest\nlast-level figure any source gives, STREAM's rule)"},
    {.long_name = "size", .value_name = "SIZE", .kind = OPT_CUSTOM, .key = "size", .custom = parse_array_size,
     .help = "Bytes per array instead (K, M or G; bare number is KiB)"},
    {.long_name = "ntimes", .value_name = "N", .kind = OPT_INT, .key = "ntimes", .offset = F(ntimes), .min = 2,
     .max = 1000, .bad = "must be a whole number from 2 to 1000",
     .help = "Iterations (default 10; the first is not counted)"},
    {.long_name = "stores", .value_name = "KIND", .kind = OPT_CHOICE, .key = "stores", .offset = F(stores_choice),
     .given = OPTION_GIVEN(stream_options, stores_given), .choices = store_choices,
     .bad = "use regular, nt or both",
     .help = "regular, nt (non-temporal) or both (default: both where the\nCPU has non-temporal stores, else regular)"},
    {.long_name = "scan", .kind = OPT_FLAG, .key = "scan", .offset = F(scan),
     .help = "Try 1, 2, 4 ... N threads (and one per L3 domain); report the best"},
    {.long_name = "peak-gbs", .value_name = "X", .kind = OPT_DOUBLE, .key = "peak_gbs", .offset = F(peak_gbs),
     .min = 0.001, .max = 1e7, .bad = "must be a positive number of GB/s",
     .help = "Theoretical peak in GB/s (default: from SMBIOS, if readable)"},
    OPTION_COMMON("threads"),
    OPTION_COMMON("cpus"),
    OPTION_COMMON("oversubscribe"),
    OPTION_COMMON("kernel"),
    OPTION_COMMON("list-kernels"),
    OPTION_COMMON("huge"),
    OPTION_COMMON("pages"),
    OPTION_COMMON("json"),
    OPTION_COMMON("openmetrics"),
    OPTION_COMMON("cache-probe"),
    OPTION_COMMON("plan"),
    OPTION_COMMON("sysfs"),
    OPTION_COMMON("cpuid"),
    OPTION_COMMON("verbose"),
    OPTION_END,
};

const option_table stream_option_table = {
    "membench stream",
    "Usage: membench stream [options]\n"
    "STREAM's Copy, Scale, Add and Triad over three double arrays, with STREAM's byte\n"
    "counting (16 B per element for Copy/Scale, 24 for Add/Triad), table and validation.\n"
    "\n",
    "Environment: OMP_NUM_THREADS, OMP_PROC_BIND, OMP_PLACES as in the sweep.\n"
    "Exit status: 0 validated, 1 validation failed (or no memory budget, no threads) or\n"
    "output lost, 2 bad input, 128+signal when stopped (INT 130, TERM 143, HUP 129,\n"
    "PIPE 141).\n",
    specs,
};

void stream_options_defaults(void *opts)
{
    stream_options *o = opts;
    o->ntimes = 10;
    o->stores_choice = 2; /* both */
}

stream_stores stream_options_stores(const stream_options *o)
{
    static const stream_stores kinds[] = {STORES_REGULAR, STORES_NT, STORES_BOTH};
    return kinds[o->stores_choice];
}

parse_result stream_options_check(void *opts, char *err, size_t errlen)
{
    stream_options *o = opts;
    if (o->scan && (o->common.threads_from_p || o->common.cpus_given))
        return cli_fail(err, errlen, "--scan chooses thread counts itself: drop -p/--cpus");
    if (o->common.kernel_isa && !strcmp(o->common.kernel_isa, "c") && o->stores_given &&
        (stream_options_stores(o) & STORES_NT))
        return cli_fail(err, errlen, "--kernel c has no non-temporal stores: add --stores regular");
    return PARSE_OK;
}
