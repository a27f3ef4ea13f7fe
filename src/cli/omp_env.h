/* SPDX-License-Identifier: MIT */
/* The OpenMP environment variables every multi-threaded mode honours, as
 * sc-membench documents them: OMP_NUM_THREADS, OMP_PROC_BIND, OMP_PLACES. */
#ifndef MEMBENCH_OMP_ENV_H
#define MEMBENCH_OMP_ENV_H

#include <stddef.h>

typedef const char *(*env_lookup)(const char *name);
typedef enum { PARSE_OK, PARSE_EXIT_OK, PARSE_ERROR } parse_result;

#define MAX_THREADS 4096

/* threads: OMP_NUM_THREADS (outermost level of "8,4"; blanks around the numbers
 * and a '+' are allowed, as libgomp allows them), left unchanged when unset; an
 * empty or malformed value is refused, as libgomp rejects it. NULL: not read at all
 * (-p was given and takes precedence).
 * bind/places: the raw strings, NULL when unset (validated later by the placement). */
parse_result omp_env_parse(env_lookup env, int *threads, const char **bind, const char **places, char *err,
                           size_t errlen);

#endif
