/* SPDX-License-Identifier: MIT */
#include "cli/cli_errors.h"

#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

parse_result cli_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return PARSE_ERROR;
}

parse_result cli_getopt_error(int c, const char *arg, const char *help_command, char *err, size_t errlen)
{
    if (!arg)
        arg = "";
    bool is_long = strncmp(arg, "--", 2) == 0;
    if (c == ':') {
        if (!is_long && optopt > 0 && optopt < 128)
            return cli_fail(err, errlen, "option '-%c' needs a value", (char)optopt);
        return cli_fail(err, errlen, "option '%s' needs a value", arg);
    }
    if (is_long) {
        /* getopt_long: optopt is the option's value when the name matched but an
         * "=value" was given to a flag that takes none; 0 when no name matched. */
        const char *eq = strchr(arg, '=');
        if (optopt && eq)
            return cli_fail(err, errlen, "option '%.*s' takes no value ('%s')", (int)(eq - arg), arg, arg);
        return cli_fail(err, errlen, "unknown or ambiguous option '%s' (see %s --help)", arg, help_command);
    }
    if (optopt > 0 && optopt < 128 && isgraph(optopt))
        return cli_fail(err, errlen, "unknown option '-%c' (see %s --help)", (char)optopt, help_command);
    return cli_fail(err, errlen, "unknown option '%s' (see %s --help)", arg, help_command);
}
