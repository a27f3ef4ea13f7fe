/* SPDX-License-Identifier: MIT */
#include "cli/thread_options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "kernels/isa.h"
#include "util/parse_number.h"

parse_result parse_cpus_option(const char *arg, cpu_list *cpus, char *err, size_t errlen)
{
    cpu_list_free(cpus);
    if (!cpu_list_parse(arg, cpus) || cpus->count == 0)
        return cli_fail(err, errlen, "--cpus '%s': not a CPU list like 0-3,8 (no repeats)", arg);
    return PARSE_OK;
}

parse_result parse_kernel_option(const char *arg, const char **isa, char *err, size_t errlen)
{
    const char *const *isas = isa_choice_names(); /* from the ISA table */
    bool known = false;
    for (size_t i = 0; isas[i]; i++)
        known = known || strcmp(arg, isas[i]) == 0;
    char names[128];
    if (!known)
        return cli_fail(err, errlen, "--kernel '%s': not a kernel ISA (use %s)", arg,
                        isa_choices(names, sizeof names));
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
