/* SPDX-License-Identifier: MIT */
/* Parsing a mode's command line in a test: test_parse_mode(&latency_mode, &o, err,
 * "--max", "64K", NULL) frees and zeroes o, then parses "MODE ARGS..." into it
 * (no environment; err holds 256 bytes). */
#ifndef MEMBENCH_TEST_PARSE_H
#define MEMBENCH_TEST_PARSE_H

#include "modes/mode.h"

parse_result test_parse_mode(const mode_def *mode, void *opts, char *err, ...);

#endif
