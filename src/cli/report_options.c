/* SPDX-License-Identifier: MIT */
#include "cli/report_options.h"

#include <stddef.h>

#include "cli/cli_errors.h"
#include "core/report_model.h"

#define F(field) offsetof(report_options, field)

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.short_name = 'o', .value_name = "FILE", .kind = OPT_TEXT, .key = "output", .offset = F(output),
     .bad = "not a file name", .help = "Write the report to FILE (one self-contained HTML page;\nrequired unless --csv)"},
    {.long_name = "csv", .value_name = "FILE", .kind = OPT_TEXT, .key = "csv", .offset = F(csv),
     .bad = "not a file name",
     .help = "Also (or only) write the fleet table to FILE as CSV: a row\nper run, columns with units in their "
             "names, empty where\nthe run measured nothing"},
    {.long_name = "svg", .value_name = "DIR", .kind = OPT_TEXT, .key = "svg", .offset = F(svg_dir),
     .bad = "not a directory name",
     .help = "Also write each chart as a standalone SVG file into DIR\n(an existing directory)"},
    {.long_name = "baseline", .value_name = "FILE", .kind = OPT_TEXT, .key = "baseline", .offset = F(baseline),
     .bad = "not a file name",
     .help = "Judge every run against the run in FILE as compare does:\neach figure as B/A with its interval and "
             "verdict (faster,\nslower, no difference, cannot tell), drawn and tabled"},
    OPTION_END,
};

const option_table report_option_table = {
    "membench report",
    "Usage: membench report [--baseline A.json] RUN.json [RUN2.json ...] -o report.html\n"
    "       [--svg DIR] [--csv FILE]\n"
    "Writes one self-contained HTML page (inline SVG, CSS and one small script\n"
    "that sorts the fleet table; nothing fetched) from runs' JSON (--json of any\n"
    "measuring mode). It leads with each run's headline: DRAM read/write/copy\n"
    "(GB/s), idle latency, the LLC and its source, STREAM Triad, the noise verdict\n"
    "('not measured' where the run has none). Then charts drawn by membench itself:\n"
    "bandwidth (GB/s) and latency against buffer size (log2, cache sizes marked with\n"
    "their source), loaded latency against bandwidth, matrices as heatmaps, STREAM;\n"
    "each point the median with its 95% interval, the best sample a dash. Then each\n"
    "run's host, CPU, kernel, date, topology, warnings (grouped by kind) and options.\n"
    "Up to 8 runs are overlaid, each named by its file. Two runs or more also get\n"
    "the fleet table: a row per run (host, CPU, vCPUs, NUMA nodes, the headline\n"
    "figures, DRAM read per thread: the DRAM read figure over its threads), sorted\n"
    "by a click on a column; past 8 runs (a fleet: hundreds or thousands of\n"
    "machines' runs) the page is that table and the warnings, without charts.\n"
    "Exit status 0, 1 when the report could not be written, 2 for bad input.\n"
    "\n",
    NULL,
    specs,
};

void report_options_defaults(void *opts)
{
    report_options *o = opts;
    o->common.max_operands = REPORT_MAX_RUNS;
}

parse_result report_options_check(void *opts, char *err, size_t errlen)
{
    const report_options *o = opts;
    if (o->baseline && (!*o->baseline || *o->baseline == '-'))
        return cli_fail(err, errlen, "--baseline needs a run file, not '%s' (membench report --baseline A.json B.json -o "
                                     "report.html)", o->baseline);
    if (o->common.operand_count < 1 && o->baseline)
        return cli_fail(err, errlen, "--baseline %s needs at least one run to judge against it", o->baseline);
    if (o->common.operand_count < 1)
        return cli_fail(err, errlen, "needs at least one run file (membench report RUN.json -o report.html)");
    if (o->baseline && o->common.operand_count >= REPORT_MAX_BASELINE_RUNS)
        return cli_fail(err, errlen, "--baseline judges at most %d runs besides itself, not %d", REPORT_MAX_BASELINE_RUNS - 1,
                        o->common.operand_count);
    if (!o->output && !o->csv)
        return cli_fail(err, errlen, "needs -o FILE, where the report goes, or --csv FILE (membench report RUN.json -o "
                                     "report.html)");
    if (o->svg_dir && o->common.operand_count + (o->baseline != NULL) > REPORT_CHART_RUNS)
        return cli_fail(err, errlen, "--svg %s: a report of %d runs draws no charts (at most %d are overlaid)", o->svg_dir,
                        o->common.operand_count + (o->baseline != NULL), REPORT_CHART_RUNS);
    if (o->svg_dir && !o->output)
        return cli_fail(err, errlen, "--svg %s draws the page's charts: it needs -o FILE too", o->svg_dir);
    return PARSE_OK;
}
