/* SPDX-License-Identifier: MIT */
#include "cli/compare_options.h"

#include <stddef.h>
#include <string.h>

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
     .help = "Judge from the runs' own samples only: do not widen each\ninterval by how much each run's host moved, draw no runs\n"
             "(a side's runs pooled as one) and tell a difference of one\nrun a side"},
    {.long_name = "json", .value_name = "FILE", .kind = OPT_TEXT, .key = "json",
     .offset = offsetof(compare_options, common.json_path), .bad = "not a file name",
     .help = "Also write the comparison (every figure, unrounded) as JSON\nto FILE"},
    OPTION_END,
};

const option_table compare_option_table = {
    "membench compare",
    "Usage: membench compare A.json B.json [--threshold PCT] [--force] [--within-run]\n"
    "                        [--json FILE]\n"
    "       membench compare A1.json A2.json ... vs B1.json B2.json ... [options]\n"
    "Compares two runs' JSON (--json of any measuring mode), or several runs a side\n"
    "(the word 'vs' between A's and B's: compare a-*.json vs b-*.json), figure by\n"
    "figure: A, B (medians of the raw samples, a side's runs pooled), B/A, and a\n"
    "verdict - faster, slower, no difference within noise or cannot tell - from a\n"
    "bootstrap 95% interval of the ratio of medians (fixed seed: the same files\n"
    "give the same answer). Several runs a side: each resample draws the runs, then\n"
    "each drawn run's time batches, so the movement between runs counts. One run a\n"
    "side: over each run's time batches (its rounds), widened by how much each\n"
    "run's host moved (host_noise.varied_pct, at most 20% a run); a difference\n"
    "under 2x is 'cannot tell (one run a side: the movement between runs is\n"
    "unknown)' - two runs of one build on a noisy host differ by more than either\n"
    "shows - and 'no difference within noise' is still said. A CI gate takes 5\n"
    "runs a side, A and B interleaved (A1 B1 A2 B2 ...). An interval that holds 1\n"
    "but reaches beyond the threshold on the slow side (5% without --threshold)\n"
    "is 'cannot tell (noise wider than the threshold)'; a median ratio of 2x or\n"
    "more the slow way that the runs' own batches call slower is slower however\n"
    "much the hosts moved. Exit status 0; 1 when --threshold is exceeded or no\n"
    "figure is in both sides (nothing compared);\n"
    "2 for bad input, runs that differ (a side's runs too) or a --json FILE that\n"
    "is one of the runs;\n"
    "3 with --threshold when nothing is beyond it but some figure cannot tell.\n"
    "The files' strings are printed with control and bidi characters as '?'.\n"
    "\n",
    NULL,
    specs,
};

void compare_options_defaults(void *opts)
{
    compare_options *o = opts;
    o->common.max_operands = COMPARE_MAX_RUNS + 1; /* A.json B.json, or A1.json ... vs B1.json ... */
    o->threshold = -1;
}

parse_result compare_options_check(void *opts, char *err, size_t errlen)
{
    compare_options *o = opts;
    int n = o->common.operand_count, at = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(o->common.operands[i], COMPARE_SEPARATOR) == 0) {
            if (at >= 0)
                return cli_fail(err, errlen, "'" COMPARE_SEPARATOR "' twice: it goes once, between A's runs and B's "
                                "(membench compare A1.json A2.json vs B1.json B2.json)");
            at = i;
        }
    if (at < 0 && n != 2)
        return cli_fail(err, errlen, n < 2 ? "needs two run files, A and B (membench compare A.json B.json), not %d"
                                           : "%d run files without '" COMPARE_SEPARATOR "' between A's and B's "
                                             "(membench compare A1.json A2.json vs B1.json B2.json)",
                        n);
    if (at == 0 || at == n - 1)
        return cli_fail(err, errlen, "no run of %s '" COMPARE_SEPARATOR "' (membench compare A1.json A2.json vs "
                        "B1.json B2.json)", at == 0 ? "A before" : "B after");
    int split = at < 0 ? 1 : at;
    o->a_paths = o->common.operands;
    o->a_count = split;
    o->b_paths = o->common.operands + split + (at >= 0);
    o->b_count = n - split - (at >= 0);
    return PARSE_OK;
}
