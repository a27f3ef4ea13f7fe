/* The one table of modes: adding a mode means adding its line here. */
#include <string.h>

#include "modes/bandwidth_matrix_mode.h"
#include "modes/c2c_mode.h"
#include "modes/latency_matrix_mode.h"
#include "modes/latency_mode.h"
#include "modes/loaded_latency_mode.h"
#include "modes/mode.h"
#include "modes/peak_mode.h"
#include "modes/stream_mode.h"
#include "modes/sweep.h"
#include "modes/topology_mode.h"

static const mode_def *const modes[] = {&sweep_mode,   &latency_mode,        &latency_matrix_mode,  &stream_mode,
                                        &c2c_mode,     &topology_mode,       &peak_mode,            &loaded_latency_mode,
                                        &bandwidth_matrix_mode};

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
