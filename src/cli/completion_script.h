/* SPDX-License-Identifier: MIT */
/* Shell completion scripts (bash, zsh, fish) written from the option tables, so
 * they cannot drift from what the parser accepts: every command's words, each
 * option's short, long and --no- forms, and the values a table knows (choices,
 * option_spec.values, "a|b|c" value names; file names for FILE, directories for
 * DIR). The mode layer hands over the commands (modes/completions_mode.c). */
#ifndef MEMBENCH_COMPLETION_SCRIPT_H
#define MEMBENCH_COMPLETION_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"

/* The shells there is a script for, as `membench completions SHELL` names them. */
#define COMPLETION_SHELLS "bash zsh fish"

typedef struct {
    const char *name;          /* a subcommand ("latency", "numa-mem"); NULL: the default mode */
    const char *words;         /* the subcommand as words when not the name ("numa mem"), else NULL */
    const char *summary;       /* one line */
    const option_table *table;
    int operands;              /* arguments that are not options (compare's two files), 0: none */
    const char *operand_words; /* what the operands complete to, space-separated; NULL: file names */
} completion_command;

bool completion_shell_known(const char *shell);
/* The script for shell (one of COMPLETION_SHELLS) completing program. */
void completion_script_write(FILE *f, const char *shell, const char *program, const char *version,
                             const completion_command *cmds, size_t n);

#endif
