#include "cli/thread_options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "kernels/isa.h"
#include "util/parse_number.h"

parse_result parse_threads_option(const char *arg, int *threads, char *err, size_t errlen)
{
    uint64_t u;
    if (!parse_u64(arg, 1, MAX_THREADS, &u))
        return cli_fail(err, errlen, "-p '%s': threads must be a whole number from 1 to %d", arg, MAX_THREADS);
    *threads = (int)u;
    return PARSE_OK;
}

parse_result parse_cpus_option(const char *arg, cpu_list *cpus, char *err, size_t errlen)
{
    cpu_list_free(cpus);
    if (!cpu_list_parse(arg, cpus) || cpus->count == 0)
        return cli_fail(err, errlen, "--cpus '%s': not a CPU list like 0-3,8 (no repeats)", arg);
    return PARSE_OK;
}

parse_result parse_kernel_option(const char *arg, const char *const *isas, const char **isa, char *err,
                                 size_t errlen)
{
    char names[64] = "";
    bool known = false;
    for (size_t i = 0; isas[i]; i++) {
        known = known || strcmp(arg, isas[i]) == 0;
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", isas[i]);
    }
    if (!known)
        return cli_fail(err, errlen, "--kernel '%s': not a kernel ISA (use %s)", arg, names);
    if (!isa_supported(arg))
        return cli_fail(err, errlen, "--kernel '%s': this CPU cannot run it (usable: %s)", arg, isa_usable_list());
    *isa = arg;
    return PARSE_OK;
}

int resolve_thread_count(int threads, bool threads_from_p, const cpu_list *cpus, bool cpus_given, size_t usable)
{
    if (!threads_from_p && cpus_given)
        return (int)cpus->count;
    return threads > 0 ? threads : (int)usable;
}
