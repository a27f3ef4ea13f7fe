/* SPDX-License-Identifier: MIT */
#include "cli/report_options.h"

#include <stddef.h>

#include "cli/cli_errors.h"

#define F(field) offsetof(report_options, field)

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.short_name = 'o', .value_name = "FILE", .kind = OPT_TEXT, .key = "output", .offset = F(output),
     .bad = "not a file name", .help = "Write the report to FILE (one self-contained HTML page;\nrequired)"},
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
    "       [--svg DIR]\n"
    "Writes one self-contained HTML page (inline SVG and CSS, no script, nothing\n"
    "fetched) from runs' JSON (--json of any measuring mode). It leads with each\n"
    "run's headline: DRAM read/write/copy (GB/s), idle latency, the LLC and its\n"
    "source, STREAM Triad, the noise verdict ('not measured' where the run has\n"
    "none). Then charts drawn by membench itself: bandwidth (GB/s) and latency\n"
    "against buffer size (log2, cache sizes marked with their source), loaded\n"
    "latency against bandwidth, matrices as heatmaps, STREAM; each point the\n"
    "median with its 95% interval, the best sample a dash. Then each run's host,\n"
    "CPU, kernel, date, topology, warnings (grouped by kind) and options.\n"
    "Several runs (at most 16) are overlaid, each named by its file. Exit status 0,\n"
    "1 when the report could not be written, 2 for bad input.\n"
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
    if (o->baseline && o->common.operand_count >= REPORT_MAX_RUNS)
        return cli_fail(err, errlen, "at most %d runs besides --baseline", REPORT_MAX_RUNS - 1);
    if (!o->output)
        return cli_fail(err, errlen, "needs -o FILE, where the report goes (membench report RUN.json -o report.html)");
    return PARSE_OK;
}
