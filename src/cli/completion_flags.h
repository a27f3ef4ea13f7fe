/* SPDX-License-Identifier: MIT */
/* What a completion script needs to know of one command's option table, read off
 * the table once (completion_flags.c), and the three writers that turn it into a
 * shell's script (completion_bash.c, completion_zsh.c, completion_fish.c). */
#ifndef MEMBENCH_COMPLETION_FLAGS_H
#define MEMBENCH_COMPLETION_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/completion_script.h"

#define COMPLETION_MAX_FLAGS 96

typedef enum {
    VALUE_NONE,  /* a flag without a value */
    VALUE_OTHER, /* a number, size, CPU list...: nothing to offer */
    VALUE_WORDS, /* one of words (several, comma-separated, when list) */
    VALUE_FILE,  /* a file name */
    VALUE_DIR    /* a directory */
} completion_value;

typedef struct {
    char short_flag[4];  /* "-s", or "" */
    char long_flag[80];  /* "--min", "--no-data_reads", or "" */
    const char *value_name;
    completion_value value;
    bool list;
    char words[512];     /* VALUE_WORDS: space-separated */
    char help[160];      /* the first line of the help */
} completion_flag;

/* The flags of t in --help's order (a negatable flag's --no- form after it). */
size_t completion_flags(const option_table *t, completion_flag *out, size_t max);
/* "latency", "numa_mem"; "default" for the default mode: a name for shell functions. */
const char *completion_ident(const completion_command *c, char *buf, size_t len);

void completion_write_bash(FILE *f, const char *program, const completion_command *cmds, size_t n);
void completion_write_zsh(FILE *f, const char *program, const completion_command *cmds, size_t n);
void completion_write_fish(FILE *f, const char *program, const completion_command *cmds, size_t n);

#endif
