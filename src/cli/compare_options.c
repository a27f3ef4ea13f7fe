/* SPDX-License-Identifier: MIT */
#include "cli/compare_options.h"

#include <stddef.h>

#include "cli/cli_errors.h"

#define F(field) offsetof(compare_options, field)

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.long_name = "threshold", .value_name = "PCT", .kind = OPT_DOUBLE, .key = "threshold", .offset = F(threshold),
     .min = 0, .max = 1000, .bad = "not a percentage from 0 to 1000",
     .help = "Exit status 1 when any figure of B is slower than A's by\nmore than PCT percent (a CI regression gate); 3 when none\n"
             "is but some figure cannot tell (its interval holds 1 and\nreaches beyond PCT slower, or under 3 samples): never 0"},
    {.long_name = "force", .kind = OPT_FLAG, .key = "force", .offset = F(force),
     .help = "Compare runs of different hosts, CPU models, kernels,\nmodes or options (refused without it)"},
    {.long_name = "within-run", .kind = OPT_FLAG, .key = "within_run", .offset = F(within_run),
     .help = "Judge from the runs' own samples only: do not widen each\ninterval by how much each run's host moved"},
    {.long_name = "json", .value_name = "FILE", .kind = OPT_TEXT, .key = "json",
     .offset = offsetof(compare_options, common.json_path), .bad = "not a file name",
     .help = "Also write the comparison (every figure, unrounded) as JSON\nto FILE"},
    OPTION_END,
};

const option_table compare_option_table = {
    "membench compare",
    "Usage: membench compare A.json B.json [--threshold PCT] [--force] [--within-run]\n"
    "                        [--json FILE]\n"
    "Compares two runs' JSON (--json of any measuring mode), figure by figure:\n"
    "A, B (medians of the raw samples), B/A, and a verdict - faster, slower,\n"
    "no difference within noise or cannot tell - from a bootstrap 95% interval of\n"
    "the ratio of medians over each run's time batches (its rounds; fixed seed:\n"
    "the same files give the same answer), widened by how much each run's host\n"
    "moved (host_noise.varied_pct, at most 20% a run). An interval that holds 1\n"
    "but reaches beyond the threshold on the slow side (5% without --threshold)\n"
    "is 'cannot tell (noise wider than the threshold)'; a median ratio of 2x or\n"
    "more the slow way that the runs' own batches call slower is slower however\n"
    "much the hosts moved. Exit status 0; 1 when\n"
    "--threshold is exceeded or no figure is in both runs (nothing compared);\n"
    "2 for bad input, runs that differ or a --json FILE that is one of the runs;\n"
    "3 with --threshold when nothing is beyond it but some figure cannot tell.\n"
    "The files' strings are printed with control and bidi characters as '?'.\n"
    "\n",
    NULL,
    specs,
};

void compare_options_defaults(void *opts)
{
    compare_options *o = opts;
    o->common.max_operands = 2; /* A.json B.json */
    o->threshold = -1;
}

parse_result compare_options_check(void *opts, char *err, size_t errlen)
{
    const compare_options *o = opts;
    if (o->common.operand_count != 2)
        return cli_fail(err, errlen, "needs two run files, A and B (membench compare A.json B.json), not %d",
                        o->common.operand_count);
    return PARSE_OK;
}
