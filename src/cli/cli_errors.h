/* SPDX-License-Identifier: MIT */
/* One-line errors for every mode's option parser: bad input is reported as one
 * line naming the bad value (the caller prints it and exits with status 2). */
#ifndef MEMBENCH_CLI_ERRORS_H
#define MEMBENCH_CLI_ERRORS_H

#include <stddef.h>

#include "cli/omp_env.h"

/* Formats the message into err; returns PARSE_ERROR so parsers can `return cli_fail(...)`. */
parse_result cli_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The message for getopt_long's ':' (missing value) or '?' (unknown option) result,
 * pointing to `help_command --help`. Uses getopt's optind/optopt. */
parse_result cli_getopt_error(int c, const char *arg, const char *help_command, char *err, size_t errlen);

#endif
