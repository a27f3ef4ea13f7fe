#include "cli/cli_errors.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

parse_result cli_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return PARSE_ERROR;
}

parse_result cli_getopt_error(int c, char **argv, const char *help_command, char *err, size_t errlen)
{
    if (c == ':')
        return cli_fail(err, errlen, "option '%s' needs a value", argv[optind - 1]);
    if (optopt)
        return cli_fail(err, errlen, "unknown option '-%c' (see %s --help)", (char)optopt, help_command);
    return cli_fail(err, errlen, "unknown option '%s' (see %s --help)", argv[optind - 1], help_command);
}
