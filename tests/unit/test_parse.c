/* SPDX-License-Identifier: MIT */
#include "test_parse.h"

#include <stdarg.h>
#include <string.h>

#include "cli/options.h"
#include "test.h"

parse_result test_parse_mode(const mode_def *mode, void *opts, char *err, ...)
{
    char *argv[32];
    va_list ap;
    va_start(ap, err);
    int argc = test_argv(argv, 32, (char *)mode->name, ap);
    va_end(ap);
    options_free(opts);
    memset(opts, 0, mode->options_size);
    return mode_parse_options(mode, argc, argv, NULL, opts, err, 256);
}
