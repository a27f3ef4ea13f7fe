#include "modes/topology_mode.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/isa.h"
#include "measure/ref_counter.h"
#include "output/json.h"
#include "output/topology_report.h"
#include "platform/arch.h"
#include "platform/platform.h"
#include "topology/topology.h"

/* What the running binary uses on this CPU (not part of a recorded tree's report). */
static void print_this_cpu(void)
{
    double hz = ref_counter_measured_hz();
    printf("This CPU: %s, kernels %s, cache line %d B if sysfs is silent, ", arch_name(), isa_usable_list(),
           arch_cache_line_bytes());
    if (ref_counter_name() && hz > 0)
        printf("reference counter %s at %.1f MHz%s\n", ref_counter_name(), hz / 1e6,
               ref_counter_hz() > 0 ? "" : " (too slow to count cycles)");
    else
        printf("no constant-rate counter readable\n");
}

int topology_main(int argc, char **argv)
{
    bool json = false;
    const char *root = "/sys";
    const char *cpus_text = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if ((strcmp(argv[i], "--sysfs") == 0 || strcmp(argv[i], "--usable") == 0) && i + 1 == argc) {
            fprintf(stderr, "membench topology: option '%s' needs a value\n", argv[i]);
            return 2;
        } else if (strcmp(argv[i], "--sysfs") == 0) {
            root = argv[++i]; /* a recorded sysfs tree, for tests and bug reports */
        } else if (strcmp(argv[i], "--usable") == 0) {
            cpus_text = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("Usage: membench topology [--json] [--sysfs DIR] [--usable CPULIST]\n"
                   "Prints CPUs, cores, SMT siblings, packages, NUMA nodes, caches, huge page\n"
                   "sizes and THP mode, with warnings where sources disagree or defaults apply.\n");
            return 0;
        } else {
            fprintf(stderr, "membench topology: unknown argument '%s' (see membench topology --help)\n", argv[i]);
            return 2;
        }
    }
    struct stat st;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "membench topology: --sysfs '%s': not a directory\n", root);
        return 2;
    }
    cpu_list usable = {NULL, 0};
    if (cpus_text) {
        if (!cpu_list_parse(cpus_text, &usable) || usable.count == 0) {
            fprintf(stderr, "membench topology: --usable '%s': not a CPU list like 0-3,8\n", cpus_text);
            return 2;
        }
    } else if (strcmp(root, "/sys") == 0) {
        platform_usable_cpus(&usable);
    }
    topology t;
    bool ok = topology_load(root, usable.count ? &usable : NULL, &t);
    cpu_list_free(&usable);
    if (!ok) {
        fprintf(stderr, "membench topology: no CPU found under %s\n", root);
        return 1;
    }
    if (strcmp(root, "/sys") == 0)
        topology_crosscheck_cpuid(&t);
    if (json) {
        json_writer j;
        json_init(&j, stdout);
        topology_report_json(&j, NULL, &t);
    } else {
        topology_report_text(stdout, &t);
        if (strcmp(root, "/sys") == 0)
            print_this_cpu();
    }
    topology_free(&t);
    return 0;
}
