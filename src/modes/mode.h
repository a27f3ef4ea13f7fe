/* SPDX-License-Identifier: MIT */
/* What a mode is: its option table and a few functions on a shared session. The
 * session does everything modes have in common (options, topology, signals and the
 * -t deadline, sinks, warnings, exit status, pinned teams); a mode only plans what
 * to measure, adds the sinks of its own formats, measures, and reads conclusions
 * off its results. Its state lives in the session (no statics), so a mode can run
 * any number of times in one process. main.c finds modes in one table. */
#ifndef MEMBENCH_MODE_H
#define MEMBENCH_MODE_H

#include <stddef.h>

#include "cli/options.h"

typedef struct session session;

enum {
    MODE_STANDALONE = 1, /* run() is all there is: no topology, sinks or results (topology) */
    MODE_DRAM_SIZES = 2  /* sizes buffers to be DRAM's: takes --cache-probe (always: the probe, a diagnostic, before its plan) */
};

typedef struct mode_def {
    const char *name;            /* JSON "mode" and the subcommand */
    const char *command;         /* the subcommand's words when not the name ("numa mem"); NULL: the name */
    const char *summary;         /* one line for the top-level help */
    const option_table *options;
    size_t options_size;         /* the options struct; it starts with a common_options */
    void (*defaults)(void *opts);
    /* Rules between options, before anything else: PARSE_ERROR with one line in err. */
    parse_result (*check)(void *opts, char *err, size_t errlen);
    unsigned flags;
    size_t state_size;           /* the mode's state, zeroed, at session->state */
    /* Decides what to measure and why (session->info.plan); no timing. Returns 0,
     * or an exit status after saying why (session_bad_input: 2). */
    int (*plan)(session *s);
    /* Adds the sinks of the mode's own formats (JSON and -v are the session's). */
    void (*open_sinks)(session *s);
    /* Measures, handing each result to session_emit as it is produced. */
    void (*run)(session *s);
    /* Conclusions from the results into session->info.analysis (may be NULL). */
    void (*analyse)(session *s);
    void (*release)(session *s); /* frees the state's own allocations (may be NULL) */
} mode_def;

/* Defaults, the table's parser and the mode's own checks: what a mode's command
 * line means. argv[0] is the program or the subcommand. opts: options_size bytes,
 * zeroed; free with options_free. */
parse_result mode_parse_options(const mode_def *m, int argc, char **argv, env_lookup env, void *opts, char *err,
                                size_t errlen);

/* Every mode, the default (no subcommand) first. */
const mode_def *const *mode_table(size_t *count);
/* The mode named by a subcommand, or NULL. */
const mode_def *mode_find(const char *subcommand);
/* The mode argv names after the program: its name, or its command's words ("numa
 * mem"); *words says how many argv entries that took. NULL: none (the default). */
const mode_def *mode_find_argv(int argc, char **argv, int *words);

#endif
