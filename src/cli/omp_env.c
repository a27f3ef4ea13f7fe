/* SPDX-License-Identifier: MIT */
#include "cli/omp_env.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* OMP_NUM_THREADS as libgomp reads it: a comma-separated list of positive numbers
 * (one per nesting level), blanks around each, '+' allowed. The first, the one
 * that applies to our one team, goes to *first. */
static bool thread_counts(const char *text, uint64_t *first)
{
    const char *p = text;
    for (size_t level = 0;; level++) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '+')
            p++;
        if (!isdigit((unsigned char)*p))
            return false;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno == ERANGE || v == 0)
            return false;
        if (level == 0)
            *first = v;
        p = end;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            return true;
        if (*p++ != ',')
            return false;
    }
}

parse_result omp_env_parse(env_lookup env, int *threads, const char **bind, const char **places, char *err,
                           size_t errlen)
{
    const char *n = env && threads ? env("OMP_NUM_THREADS") : NULL;
    if (n) {
        uint64_t v = 0;
        if (!thread_counts(n, &v) || v > MAX_THREADS) {
            snprintf(err, errlen, "OMP_NUM_THREADS='%s': not a thread count from 1 to %d", n, MAX_THREADS);
            return PARSE_ERROR;
        }
        *threads = (int)v;
    }
    *bind = env ? env("OMP_PROC_BIND") : NULL;
    *places = env ? env("OMP_PLACES") : NULL;
    return PARSE_OK;
}
