/* SPDX-License-Identifier: MIT */
/* `membench completions bash|zsh|fish`: the shell's completion script on stdout,
 * written from the mode table and each mode's option table (cli/completion_script.c),
 * so it completes exactly what this binary accepts. Standalone: measures nothing. */
#include "modes/completions_mode.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "cli/completion_script.h"

typedef struct {
    common_options common; /* -h, the shell */
} completions_options;

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    OPTION_END,
};

static const option_table table = {
    "membench completions",
    "Usage: membench completions bash|zsh|fish\n"
    "Prints the shell's completion script for membench on stdout: every mode, each\n"
    "mode's options and the values they take (operations, ISAs, traffic types...),\n"
    "written from the same tables as the parser. The Debian package installs them;\n"
    "or: source <(membench completions bash), membench completions fish | source.\n"
    "\n",
    NULL,
    specs,
};

static void defaults(void *opts)
{
    ((completions_options *)opts)->common.max_operands = 1;
}

static parse_result check(void *opts, char *err, size_t errlen)
{
    const completions_options *o = opts;
    if (o->common.operand_count != 1)
        return cli_fail(err, errlen, "needs the shell: membench completions %s",
                        "bash|zsh|fish");
    if (!completion_shell_known(o->common.operands[0]))
        return cli_fail(err, errlen, "'%s': no completions for this shell (%s)", o->common.operands[0],
                        COMPLETION_SHELLS);
    return PARSE_OK;
}

/* How many operands a mode takes: what its defaults say (compare's two files). */
static int operands_of(const mode_def *m)
{
    common_options *opts = calloc(1, m->options_size);
    if (!opts)
        return 0;
    if (m->defaults)
        m->defaults(opts);
    int n = opts->max_operands;
    options_free(opts);
    free(opts);
    return n;
}

static void run(session *s)
{
    const completions_options *o = s->opts;
    size_t n;
    const mode_def *const *modes = mode_table(&n);
    completion_command *cmds = calloc(n, sizeof *cmds);
    if (!cmds) {
        fprintf(s->env.err, "%s: error: out of memory\n", s->who);
        s->status = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        cmds[i] = (completion_command){.name = i ? modes[i]->name : NULL, /* [0]: no subcommand */
                                       .words = modes[i]->command,
                                       .summary = modes[i]->summary,
                                       .table = modes[i]->options,
                                       .operands = operands_of(modes[i]),
                                       .operand_words = modes[i] == &completions_mode ? COMPLETION_SHELLS : NULL};
    completion_script_write(s->env.out, o->common.operands[0], "membench", MEMBENCH_VERSION, cmds, n);
    free(cmds);
    if (fflush(s->env.out) != 0 || ferror(s->env.out)) {
        fprintf(s->env.err, "%s: error: could not write the script\n", s->who);
        s->status = 1;
    }
}

const mode_def completions_mode = {
    .name = "completions",
    .summary = "the bash, zsh or fish completion script, from these option tables",
    .options = &table,
    .options_size = sizeof(completions_options),
    .defaults = defaults,
    .check = check,
    .flags = MODE_STANDALONE,
    .run = run,
};
