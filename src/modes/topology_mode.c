/* SPDX-License-Identifier: MIT */
/* `membench topology`: what the tool believes about the machine (or about a
 * recorded sysfs tree), as text or JSON. It measures nothing, so it is a
 * standalone mode: the session parses its options and hands over. */
#include "modes/topology_mode.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_errors.h"
#include "kernels/isa.h"
#include "measure/ref_counter.h"
#include "memory/memory_budget.h"
#include "measure/cache_probe.h"
#include "output/json.h"
#include "output/topology_report.h"
#include "platform/arch.h"
#include "platform/cpuid_dump.h"
#include "platform/platform.h"
#include "topology/cpuid_source.h"
#include "util/read_file.h"

typedef struct {
    common_options common; /* -h */
    bool json;
    const char *root;      /* --sysfs: a recorded tree, for tests and bug reports */
    const char *usable;    /* --usable: the CPUs to treat as usable */
    const char *cpuid;     /* --cpuid: a recorded `cpuid -r` dump instead of this CPU's */
    bool dump_cpuid;       /* --dump-cpuid: print this CPU's dump and stop */
    int probe;             /* --cache-probe: cache_probe_when (auto: only when the last level is unknown) */
} topology_options;

#define F(field) offsetof(topology_options, field)

static const char *const probe_choices[] = {"auto", "always", "never", NULL};

static const option_spec specs[] = {
    OPTION_COMMON("help"),
    {.long_name = "json", .kind = OPT_FLAG, .key = "json", .offset = F(json), .help = "JSON instead of text"},
    {.long_name = "sysfs", .value_name = "DIR", .kind = OPT_TEXT, .key = "sysfs", .offset = F(root),
     .bad = "not a directory", .help = "Read a recorded sysfs tree instead of /sys"},
    {.long_name = "usable", .value_name = "CPULIST", .kind = OPT_TEXT, .key = "usable", .offset = F(usable),
     .bad = "not a CPU list like 0-3,8", .help = "Treat these CPUs as the usable ones (default: the affinity mask)"},
    {.long_name = "cpuid", .value_name = "FILE", .kind = OPT_TEXT, .key = "cpuid", .offset = F(cpuid),
     .bad = "file name is empty",
     .help = "Read CPUID from a recorded dump (the text of `cpuid -r`, or of\n--dump-cpuid) instead of this CPU"},
    {.long_name = "dump-cpuid", .kind = OPT_FLAG, .key = "dump_cpuid", .offset = F(dump_cpuid),
     .help = "Print this CPU's CPUID leaves as `cpuid -r` does, for a bug report"},
    {.long_name = "cache-probe", .value_name = "WHEN", .kind = OPT_CHOICE, .key = "cache-probe", .offset = F(probe),
     .choices = probe_choices, .bad = "must be auto, always or never",
     .help = "Measure the last-level cache's edge and the DRAM plateau (this\nmachine only): auto when no source gives "
             "the last level's size\nfor one instance, always, never (default: never)"},
    OPTION_END,
};

static const option_table table = {
    "membench topology",
    "Usage: membench topology [--json] [--sysfs DIR] [--usable CPULIST] [--cpuid FILE]\n"
    "                         [--cache-probe WHEN] [--dump-cpuid]\n"
    "Prints CPUs, cores, SMT siblings, packages, NUMA nodes, caches (each level as\n"
    "sysfs, CPUID, the device tree and /proc/cpuinfo give it, and what is used),\n"
    "huge page sizes and THP mode, with warnings where sources disagree or defaults\n"
    "apply.\n",
    NULL,
    specs,
};

#define TOPOLOGY_PROBE_BUDGET_S 3.0

static void defaults(void *opts)
{
    ((topology_options *)opts)->root = "/sys";
    ((topology_options *)opts)->probe = CACHE_PROBE_NEVER;
}

/* A recorded dump: a regular file of at most 1 MiB. False: said (exit 2). */
static bool load_cpuid(session *s, const char *path, cpuid_dump *d)
{
    char err[256];
    size_t len = 0;
    char *text = NULL;
    if (!read_file_limited(path, 1 << 20, &text, &len, err, sizeof err)) {
        s->status = session_bad_input(s, "--cpuid '%s': %s", path, err);
        return false;
    }
    bool ok = cpuid_dump_parse(text, d, err, sizeof err);
    free(text);
    if (!ok)
        s->status = session_bad_input(s, "--cpuid '%s': %s", path, err);
    return ok;
}

static bool dump_this_cpu(session *s)
{
    cpuid_dump d = {NULL, 0};
    if (!cpuid_dump_live(&d)) {
        fprintf(s->env.err, "membench topology: this CPU has no CPUID\n");
        s->status = 1;
        return false;
    }
    cpuid_dump_write(s->env.out, &d);
    cpuid_dump_free(&d);
    return true;
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
    if (o->dump_cpuid) {
        dump_this_cpu(s);
        return;
    }
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
    cpuid_dump recorded = {NULL, 0};
    if (o->cpuid && !load_cpuid(s, o->cpuid, &recorded)) {
        cpu_list_free(&usable);
        return;
    }
    topology t;
    bool ok = topology_load(o->root, usable.count ? &usable : NULL, &t);
    cpu_list_free(&usable);
    if (!ok) {
        cpuid_dump_free(&recorded);
        fprintf(s->env.err, "membench topology: no CPU found under %s\n", o->root);
        s->status = 1;
        return;
    }
    if (o->cpuid) {
        topology_add_cpuid(&t, &recorded);
        cpuid_dump_free(&recorded);
    } else if (live) {
        topology_add_live_sources(&t);
    }
    /* The probe describes the machine (auto: where no source gives one instance's
     * last level); DRAM sizes never come from it (plan/dram_size.h). */
    if (live && (o->probe == CACHE_PROBE_ALWAYS || (o->probe == CACHE_PROBE_AUTO && topology_llc_unknown(&t))))
        cache_probe_into(&t, TOPOLOGY_PROBE_BUDGET_S, memory_budget);
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
