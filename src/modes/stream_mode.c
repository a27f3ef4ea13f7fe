#include "modes/stream_mode.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/thread_options.h"
#include "cli/stream_options.h"
#include "kernels/kernel.h"
#include "measure/stop.h"
#include "measure/stream_run.h"
#include "memory/memory_budget.h"
#include "output/json_report.h"
#include "output/stream_writer.h"
#include "output/topology_report.h"
#include "plan/placement.h"
#include "platform/arch.h"
#include "platform/platform.h"
#include "topology/memory_peak.h"
#include "topology/topology.h"

#define MAX_CONFIGS 40

typedef struct {
    char name[96];
    placement place; /* owned */
    stream_result result[2]; /* [0] regular, [1] nt */
    bool have[2];
} stream_config;

typedef struct {
    stream_options o;
    topology topo;
    run_info info;
    uint64_t n;
    const stream_kernel_set *sets[2];
    bool nt_unavailable; /* default --stores both, but this CPU has no NT kernel */
    bool small_arrays;   /* -n/--size below STREAM's 4x last-level cache rule */
    uint64_t llc;        /* total last-level cache, bytes */
    stream_config configs[MAX_CONFIGS];
    int nconfigs;
    memory_peak peak;
    double peak_gbs;
    char peak_note[160];
} stream_run_state;

static const char *getenv_adapter(const char *name)
{
    return getenv(name);
}

static int bad(const char *msg)
{
    fprintf(stderr, "membench stream: %s\n", msg);
    return 2;
}

/* Total last-level cache of the machine: every instance of the highest level. */
static uint64_t total_llc(const topology *t)
{
    int level = topology_max_cache_level(t);
    if (level == 0)
        return topology_cache_level(t, 3).size;
    uint64_t sum = 0;
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level)
            sum += t->caches[i].size;
    return sum;
}

static bool add_config(stream_run_state *s, int threads, const cpu_list *cpus, const char *name, char *err,
                       size_t errlen)
{
    if (s->nconfigs >= MAX_CONFIGS)
        return true;
    stream_config *c = &s->configs[s->nconfigs];
    placement_request rq = {threads, cpus, s->o.omp_bind, s->o.omp_places, s->o.oversubscribe};
    if (!placement_build(&s->topo, &rq, &c->place, err, errlen))
        return false;
    snprintf(c->name, sizeof c->name, "%s", name);
    s->nconfigs++;
    return true;
}

static int plan(stream_run_state *s)
{
    char err[512];
    stream_options *o = &s->o;
    int threads =
        resolve_thread_count(o->threads, o->threads_from_p, &o->cpus, o->cpus_given, s->topo.usable.count);
    if (o->scan) {
        char name[96];
        for (int k = 1; k <= threads; k = k * 2 > threads && k < threads ? threads : k * 2) {
            snprintf(name, sizeof name, "%d thread%s, spread", k, k > 1 ? "s" : "");
            if (!add_config(s, k, NULL, name, err, sizeof err))
                return bad(err);
        }
        /* Seed 001's best configuration: one thread per L3 domain. */
        int level = topology_max_cache_level(&s->topo);
        cpu_list one_per = {malloc(sizeof(int) * (s->topo.ncaches + 1)), 0};
        for (size_t i = 0; one_per.ids && i < s->topo.ncaches; i++) {
            const cache_instance *ci = &s->topo.caches[i];
            for (size_t k = 0; ci->level == level && k < ci->shared.count; k++)
                if (cpu_list_contains(&s->topo.usable, ci->shared.ids[k])) {
                    one_per.ids[one_per.count++] = ci->shared.ids[k];
                    break;
                }
        }
        if (one_per.count > 1 && (int)one_per.count < threads) {
            snprintf(name, sizeof name, "one thread per L%d domain (%zu)", level, one_per.count);
            if (!add_config(s, (int)one_per.count, &one_per, name, err, sizeof err)) {
                cpu_list_free(&one_per);
                return bad(err);
            }
        }
        cpu_list_free(&one_per);
    } else {
        char name[96];
        snprintf(name, sizeof name, "%d thread%s", threads, threads > 1 ? "s" : "");
        if (!add_config(s, threads, o->cpus_given ? &o->cpus : NULL, name, err, sizeof err))
            return bad(err);
    }

    uint64_t llc = total_llc(&s->topo);
    s->n = o->n_given ? o->n : (4 * llc + sizeof(double) - 1) / sizeof(double);
    uint64_t need = 3 * s->n * sizeof(double), budget = memory_budget();
    if (need / 3 / sizeof(double) != s->n || need > budget) {
        snprintf(err, sizeof err,
                 "%llu elements per array need %llu MiB for three arrays but only %llu MiB can be allocated safely%s",
                 (unsigned long long)s->n, (unsigned long long)(need >> 20), (unsigned long long)(budget >> 20),
                 o->n_given ? "" : " (STREAM's rule: each array at least 4x the last-level cache)");
        return bad(err);
    }
    s->small_arrays = o->n_given && s->n * sizeof(double) < 4 * llc;
    s->llc = llc;
    for (int k = 0; k < 2; k++) {
        if (!(o->stores & (k ? STORES_NT : STORES_REGULAR)))
            continue;
        s->sets[k] = stream_kernels_select(k == 1, o->kernel_isa, 3 * s->n * sizeof(double) > llc);
        if (!s->sets[k] && k == 1 && !o->stores_given) {
            s->nt_unavailable = true; /* said once the run is known to start */
            continue;
        }
        if (!s->sets[k]) {
            snprintf(err, sizeof err, "--stores %s: no non-temporal kernel on this CPU (use --stores regular)",
                     o->stores == STORES_BOTH ? "both" : "nt");
            return bad(err);
        }
    }
    if (o->peak_gbs > 0) {
        s->peak_gbs = o->peak_gbs;
        snprintf(s->peak_note, sizeof s->peak_note, "%.1f GB/s (--peak-gbs)", o->peak_gbs);
    } else if (memory_peak_detect("/sys", &s->peak)) {
        s->peak_gbs = s->peak.gbs;
        snprintf(s->peak_note, sizeof s->peak_note,
                 "%.1f GB/s (SMBIOS: %d devices x %d MT/s x %d bytes; counts each device as a channel)",
                 s->peak.gbs, s->peak.devices, s->peak.mts, s->peak.bus_bytes);
    } else {
        snprintf(s->peak_note, sizeof s->peak_note,
                 "unknown (SMBIOS memory devices not readable here; give --peak-gbs)");
    }
    return 0;
}

static void print_header(const stream_run_state *s)
{
    double mib = (double)(s->n * sizeof(double)) / (1 << 20);
    printf(STREAM_RULE "membench stream %s: STREAM's kernels, byte counting and validation\n" STREAM_RULE,
           MEMBENCH_VERSION);
    printf("Array size = %llu (elements), Offset = 0 (elements)\n", (unsigned long long)s->n);
    printf("Memory per array = %.1f MiB (= %.1f GiB).\n", mib, mib / 1024);
    printf("Total memory required = %.1f MiB (= %.1f GiB).\n", 3 * mib, 3 * mib / 1024);
    printf("Each kernel will be executed %d times.\n", s->o.ntimes);
    printf(" The *best* time for each kernel (excluding the first iteration)\n");
    printf(" will be used to compute the reported bandwidth.\n");
    printf("Theoretical peak: %s\n", s->peak_note);
    printf(STREAM_RULE);
    fflush(stdout);
}

typedef struct {
    const stream_run_state *s;
} stream_doc;

static void write_stream_json(FILE *f, const void *ctx)
{
    const stream_run_state *s = ((const stream_doc *)ctx)->s;
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_write_header(&j, &s->info, "stream");
    json_uint(&j, "array_elements", s->n);
    json_int(&j, "ntimes", s->o.ntimes);
    json_string(&j, "byte_counting", "STREAM: Copy/Scale 16 B, Add/Triad 24 B per element; MB = 10^6 B");
    if (s->peak_gbs > 0)
        json_number(&j, "peak_gbs", s->peak_gbs);
    else
        json_null(&j, "peak_gbs");
    json_string(&j, "peak_source", s->peak_note);
    json_array_begin(&j, "configurations");
    for (int c = 0; c < s->nconfigs; c++) {
        const stream_config *cf = &s->configs[c];
        char cpus[512];
        placement_describe_cpus(&cf->place, cf->place.n, cpus, sizeof cpus);
        json_object_begin(&j, NULL);
        json_string(&j, "name", cf->name);
        json_int(&j, "threads", cf->place.n);
        json_string(&j, "cpus", cpus);
        json_array_begin(&j, "results");
        for (int k = 0; k < 2; k++) {
            if (!cf->have[k])
                continue;
            const stream_result *r = &cf->result[k];
            json_object_begin(&j, NULL);
            json_string(&j, "stores", k ? "non-temporal" : "regular");
            json_string(&j, "isa", s->sets[k]->isa);
            json_int(&j, "iterations", r->iterations_done);
            json_bool(&j, "validated", r->validated);
            json_string(&j, "validation", r->validation);
            json_number(&j, "huge_coverage", r->huge_coverage);
            for (int fn = 0; fn < STREAM_NFUNCS; fn++) {
                static const char *names[] = {"copy", "scale", "add", "triad"};
                json_object_begin(&j, names[fn]);
                json_number(&j, "best_rate_mb_s", r->best_mb_s[fn]);
                json_number(&j, "avg_time_s", r->avg_s[fn]);
                json_number(&j, "min_time_s", r->min_s[fn]);
                json_number(&j, "max_time_s", r->max_s[fn]);
                if (s->peak_gbs > 0)
                    json_number(&j, "percent_of_peak", 100 * r->best_mb_s[fn] / (s->peak_gbs * 1000));
                json_object_end(&j);
            }
            json_object_end(&j);
        }
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
}

static bool write_json(stream_run_state *s)
{
    if (!s->o.json_path)
        return true;
    stream_doc d = {s};
    return json_write_atomic(s->o.json_path, write_stream_json, &d);
}

static int pins_verified(const team *t)
{
    int n = 0;
    for (int i = 0; i < team_size(t); i++)
        n += team_pin_verified(t, i);
    return n;
}

/* Runs every configuration; returns 1 on a failed validation, 0 otherwise. */
static int run_configs(stream_run_state *s)
{
    int rc = 0;
    for (int c = 0; c < s->nconfigs && !stop_requested(); c++) {
        stream_config *cf = &s->configs[c];
        team_place *tp = calloc((size_t)cf->place.n, sizeof *tp);
        for (int i = 0; tp && i < cf->place.n; i++)
            tp[i].cpus = cf->place.pinned ? cf->place.places[i].cpus : (cpu_list){NULL, 0};
        team *t = tp ? team_create(tp, cf->place.n) : NULL;
        free(tp);
        if (!t) {
            fprintf(stderr, "membench stream: cannot start %d threads\n", cf->place.n);
            return 1;
        }
        char cpus[512];
        placement_describe_cpus(&cf->place, cf->place.n, cpus, sizeof cpus);
        printf("Number of Threads counted = %d (%s; CPUs %s)\n", cf->place.n, cf->name, cpus);
        for (int k = 0; k < 2 && !stop_requested(); k++) {
            if (!s->sets[k])
                continue;
            stream_request rq = {s->n, s->o.ntimes, s->sets[k]};
            measure_status st = stream_measure(t, &rq, &cf->result[k]);
            if (st == MEASURE_NO_MEMORY) {
                fprintf(stderr, "membench stream: could not allocate the arrays\n");
                team_destroy(t);
                return 1;
            }
            if (st == MEASURE_STOPPED)
                break;
            cf->have[k] = true;
            if (s->o.verbose)
                fprintf(stderr, "  %s stores, %s kernels: %d iterations, %d/%d threads' pins verified, %.0f%% of "
                                "array a in huge pages\n",
                        k ? "non-temporal" : "regular", s->sets[k]->isa, cf->result[k].iterations_done,
                        pins_verified(t), cf->place.n, cf->result[k].huge_coverage * 100);
            printf("Stores: %s (%s kernels)\n", k ? "non-temporal" : "regular", s->sets[k]->isa);
            stream_write_table(stdout, &cf->result[k]);
            fflush(stdout);
            if (st == MEASURE_WRONG_RESULT)
                rc = 1;
            write_json(s);
        }
        team_destroy(t);
        if (cf->have[0] || cf->have[1]) {
            printf("Side by side, %s:\n", cf->name);
            stream_write_side_by_side(stdout, cf->have[0] ? &cf->result[0] : NULL,
                                      cf->have[1] ? &cf->result[1] : NULL, s->peak_gbs);
            printf(STREAM_RULE);
            fflush(stdout);
        }
    }
    return rc;
}

static void report_best(const stream_run_state *s)
{
    const stream_config *best = NULL;
    int best_k = 0;
    for (int c = 0; c < s->nconfigs; c++)
        for (int k = 0; k < 2; k++)
            if (s->configs[c].have[k] &&
                (!best || s->configs[c].result[k].best_mb_s[STREAM_TRIAD] > best->result[best_k].best_mb_s[STREAM_TRIAD])) {
                best = &s->configs[c];
                best_k = k;
            }
    if (best)
        printf("Best configuration: %s, %s stores: Triad %.1f MB/s\n", best->name, best_k ? "non-temporal" : "regular",
               best->result[best_k].best_mb_s[STREAM_TRIAD]);
}

int stream_main(int argc, char **argv)
{
    static stream_run_state state;
    stream_run_state *s = &state;
    memset(s, 0, sizeof *s);
    char err[512];
    parse_result pr = stream_options_parse(argc, argv, getenv_adapter, &s->o, err, sizeof err);
    if (pr == PARSE_ERROR) {
        stream_options_free(&s->o);
        return bad(err);
    }
    if (pr == PARSE_EXIT_OK) {
        stream_usage(stdout);
        return 0;
    }
    if (s->o.json_path && !json_path_check(s->o.json_path, err, sizeof err)) {
        stream_options_free(&s->o);
        return bad(err);
    }
    cpu_list usable = {NULL, 0};
    platform_usable_cpus(&usable);
    bool loaded = topology_load("/sys", usable.count ? &usable : NULL, &s->topo);
    cpu_list_free(&usable);
    if (!loaded) {
        fprintf(stderr, "membench stream: cannot find any CPU\n");
        return 1;
    }
    int rc = plan(s);
    run_info_start(&s->info, argc + 1, argv - 1 /* main passed argv + 1 */, &s->topo);
    if (rc == 0 && !write_json(s)) {
        snprintf(err, sizeof err, "--json %s: cannot write (%s)", s->o.json_path, strerror(errno));
        rc = bad(err);
    }
    if (rc == 0) {
        topology_report_warnings(stderr, "membench stream: ", &s->topo);
        if (s->small_arrays)
            fprintf(stderr, "membench stream: warning: %llu MiB per array is less than 4x the last-level cache "
                            "(%llu MiB): results include cache hits\n",
                    (unsigned long long)((s->n * sizeof(double)) >> 20), (unsigned long long)((4 * s->llc) >> 20));
        if (s->nt_unavailable)
            fprintf(stderr, "membench stream: note: no non-temporal store kernel for this CPU (%s): regular stores "
                            "only\n", arch_name());
        print_header(s);
        stop_install_signal_handlers();
        rc = run_configs(s);
        if (s->o.scan)
            report_best(s);
        int sig = stop_signal();
        s->info.complete = !stop_requested();
        s->info.stopped_by = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : NULL;
        write_json(s);
        if (sig)
            rc = 128 + sig;
    }
    for (int c = 0; c < s->nconfigs; c++)
        placement_free(&s->configs[c].place);
    topology_free(&s->topo);
    stream_options_free(&s->o);
    return rc;
}
