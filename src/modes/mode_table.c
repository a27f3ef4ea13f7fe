/* SPDX-License-Identifier: MIT */
/* The one table of modes: adding a mode means adding its line here. */
#include <string.h>

#include "modes/bandwidth_matrix_mode.h"
#include "modes/c2c_mode.h"
#include "modes/compare_mode.h"
#include "modes/completions_mode.h"
#include "modes/latency_matrix_mode.h"
#include "modes/latency_mode.h"
#include "modes/loaded_latency_mode.h"
#include "modes/mlc_mode.h"
#include "modes/numa_mem_mode.h"
#include "modes/mode.h"
#include "modes/peak_mode.h"
#include "modes/report_mode.h"
#include "modes/stream_mode.h"
#include "modes/sweep.h"
#include "modes/topology_mode.h"

static const mode_def *const modes[] = {&sweep_mode,   &latency_mode,        &latency_matrix_mode,  &stream_mode,
                                        &c2c_mode,     &topology_mode,       &peak_mode,            &loaded_latency_mode,
                                        &bandwidth_matrix_mode, &mlc_mode,  &numa_mem_mode,
                                        &compare_mode,
                                        &completions_mode,
                                        &report_mode};

const mode_def *const *mode_table(size_t *count)
{
    if (count)
        *count = sizeof modes / sizeof modes[0];
    return modes;
}

const mode_def *mode_find(const char *subcommand)
{
    for (size_t i = 1; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(modes[i]->name, subcommand) == 0)
            return modes[i];
    return NULL;
}

/* argv[1..] starts with the words of command ("numa mem"): how many, else 0. */
static int command_words(const char *command, int argc, char **argv)
{
    int n = 0;
    for (const char *w = command; *w; n++) {
        size_t len = strcspn(w, " ");
        if (1 + n >= argc || strlen(argv[1 + n]) != len || strncmp(argv[1 + n], w, len) != 0)
            return 0;
        w += len + (w[len] == ' ');
    }
    return n;
}

const mode_def *mode_find_argv(int argc, char **argv, int *words)
{
    *words = 0;
    for (size_t i = 1; i < sizeof modes / sizeof modes[0]; i++) {
        int n = modes[i]->command ? command_words(modes[i]->command, argc, argv) : 0;
        if (n) {
            *words = n;
            return modes[i];
        }
    }
    const mode_def *m = argc > 1 ? mode_find(argv[1]) : NULL;
    *words = m ? 1 : 0;
    return m;
}

parse_result mode_parse_options(const mode_def *m, int argc, char **argv, env_lookup env, void *opts, char *err,
                                size_t errlen)
{
    if (m->defaults)
        m->defaults(opts);
    parse_result pr = options_parse(m->options, argc, argv, env, opts, err, errlen);
    if (pr == PARSE_OK && m->check)
        pr = m->check(opts, err, errlen);
    return pr;
}
