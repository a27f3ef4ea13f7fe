#include "cli/omp_env.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/parse_number.h"

parse_result omp_env_parse(env_lookup env, int *threads, const char **bind, const char **places, char *err,
                           size_t errlen)
{
    const char *n = env && threads ? env("OMP_NUM_THREADS") : NULL;
    if (n && *n) {
        /* "8,4" sets nested levels; only the outermost applies to us. */
        char first[32];
        size_t len = strcspn(n, ",");
        uint64_t v;
        if (len >= sizeof first) {
            snprintf(err, errlen, "OMP_NUM_THREADS='%s': not a thread count", n);
            return PARSE_ERROR;
        }
        memcpy(first, n, len);
        first[len] = '\0';
        if (!parse_u64(first, 1, MAX_THREADS, &v)) {
            snprintf(err, errlen, "OMP_NUM_THREADS='%s': not a thread count from 1 to %d", n, MAX_THREADS);
            return PARSE_ERROR;
        }
        *threads = (int)v;
    }
    *bind = env ? env("OMP_PROC_BIND") : NULL;
    *places = env ? env("OMP_PLACES") : NULL;
    return PARSE_OK;
}
