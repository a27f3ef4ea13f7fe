/* `membench topology`: what the tool believes about the machine (or about a
 * recorded sysfs tree), as text or JSON. It measures nothing, so it is a
 * standalone mode: the session parses its options and hands over. */
#include "modes/topology_mode.h"

#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_errors.h"
#include "kernels/isa.h"
#include "measure/ref_counter.h"
#include "output/json.h"
#include "output/topology_report.h"
#include "platform/arch.h"
#include "platform/platform.h"

typedef struct {
    common_options common; /* -h */
    bool json;
    const char *root;      /* --sysfs: a recorded tree, for tests and bug reports */
    const char *usable;    /* --usable: the CPUs to treat as usable */
} topology_options;

#define F(field) offsetof(topology_options, field)

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.long_name = "json", .kind = OPT_FLAG, .key = "json", .offset = F(json), .help = "JSON instead of text"},
    {.long_name = "sysfs", .value_name = "DIR", .kind = OPT_TEXT, .key = "sysfs", .offset = F(root),
     .bad = "not a directory", .help = "Read a recorded sysfs tree instead of /sys"},
    {.long_name = "usable", .value_name = "CPULIST", .kind = OPT_TEXT, .key = "usable", .offset = F(usable),
     .bad = "not a CPU list like 0-3,8", .help = "Treat these CPUs as the usable ones (default: the affinity mask)"},
    OPTION_END,
};

static const option_table table = {
    "membench topology",
    "Usage: membench topology [--json] [--sysfs DIR] [--usable CPULIST]\n"
    "Prints CPUs, cores, SMT siblings, packages, NUMA nodes, caches, huge page\n"
    "sizes and THP mode, with warnings where sources disagree or defaults apply.\n",
    NULL,
    specs,
};

static void defaults(void *opts)
{
    ((topology_options *)opts)->root = "/sys";
}

/* What the running binary uses on this CPU (not part of a recorded tree's report). */
static void print_this_cpu(FILE *f)
{
    double hz = ref_counter_measured_hz();
    fprintf(f, "This CPU: %s, kernels %s, cache line %d B if sysfs is silent, ", arch_name(), isa_usable_list(),
            arch_cache_line_bytes());
    if (ref_counter_name() && hz > 0)
        fprintf(f, "reference counter %s at %.1f MHz%s\n", ref_counter_name(), hz / 1e6,
                ref_counter_hz() > 0 ? "" : " (too slow to count cycles)");
    else
        fprintf(f, "no constant-rate counter readable\n");
}

static void run(session *s)
{
    const topology_options *o = s->opts;
    struct stat st;
    if (stat(o->root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        s->status = session_bad_input(s, "--sysfs '%s': not a directory", o->root);
        return;
    }
    bool live = strcmp(o->root, "/sys") == 0;
    cpu_list usable = {NULL, 0};
    if (o->usable) {
        if (!cpu_list_parse(o->usable, &usable) || usable.count == 0) {
            s->status = session_bad_input(s, "--usable '%s': not a CPU list like 0-3,8", o->usable);
            return;
        }
    } else if (live) {
        platform_usable_cpus(&usable);
    }
    topology t;
    bool ok = topology_load(o->root, usable.count ? &usable : NULL, &t);
    cpu_list_free(&usable);
    if (!ok) {
        fprintf(s->env.err, "membench topology: no CPU found under %s\n", o->root);
        s->status = 1;
        return;
    }
    if (live) {
        topology_add_live_cpuinfo_caches(&t);
        topology_crosscheck_cpuid(&t);
    }
    /* Warnings go to stderr, as in every mode; stdout is the report (JSON: in it). */
    if (!o->json)
        topology_report_warnings(s->env.err, "membench topology: ", &t);
    if (o->json) {
        json_writer j;
        json_init(&j, s->env.out);
        topology_report_json(&j, NULL, &t);
    } else {
        topology_report_text(s->env.out, &t);
        if (live)
            print_this_cpu(s->env.out);
    }
    topology_free(&t);
}

const mode_def topology_mode = {
    .name = "topology",
    .summary = "what the machine is: CPUs, caches, NUMA nodes, pages",
    .options = &table,
    .options_size = sizeof(topology_options),
    .defaults = defaults,
    .flags = MODE_STANDALONE,
    .run = run,
};
