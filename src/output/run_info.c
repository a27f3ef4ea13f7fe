#include "output/run_info.h"

#include <time.h>

#include "kernels/isa.h"
#include "platform/platform.h"

void run_info_start(run_info *info, int argc, char **argv, const topology *t)
{
    info->argc = argc;
    info->argv = argv;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(info->started_at, sizeof info->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    platform_hostname(info->hostname, sizeof info->hostname);
    platform_cpu_model(info->cpu_model, sizeof info->cpu_model);
    platform_kernel(info->kernel, sizeof info->kernel);
    info->isa_list = isa_usable_list();
    info->topo = t;
}
