#include "modes/latency_mode.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/latency_options.h"
#include "kernels/kernel.h"
#include "measure/cache_estimate.h"
#include "measure/cache_levels.h"
#include "measure/clock.h"
#include "measure/latency.h"
#include "measure/stop.h"
#include "measure/ref_counter.h"
#include "memory/memory_budget.h"
#include "output/json_report.h"
#include "output/latency_writer.h"
#include "output/topology_report.h"
#include "platform/platform.h"
#include "team/team.h"
#include "topology/topology.h"

#define MAX_POINTS 1024
#define MIN_SAMPLES 7
#define MAX_SAMPLES 21
#define CV_TARGET 0.05
#define MAX_CHECKED_LEVELS 4 /* cache levels set against the curve: L1..L4 */

typedef struct {
    latency_options o;
    topology topo;
    run_info info;
    page_request pages;
    uint64_t huge_size;
    uint64_t page_bytes; /* page-local grouping unit */
    chase_layout layout;
    int cpu, node;
    uint64_t sizes[MAX_POINTS];
    size_t nsizes;
    result_record records[MAX_POINTS];
    size_t nrecords;
    latency_step steps[MAX_LATENCY_STEPS];
    size_t nsteps;
    level_check checks[MAX_CHECKED_LEVELS];
    size_t nchecks;
    char description[256];
    double counter_hz;
} latency_run;

static int bad(const char *msg)
{
    fprintf(stderr, "membench latency: %s\n", msg);
    return 2;
}

/* Maps --pages to an allocation request; refuses what this machine cannot give. */
static int choose_pages(latency_run *r, char *err, size_t errlen)
{
    uint64_t thp = topology_huge_page_size(&r->topo);
    bool thp_off = strcmp(r->topo.thp_mode, "never") == 0;
    r->page_bytes = 4096;
    switch (r->o.pages) {
    case LAT_PAGES_DEFAULT:
        r->pages = PAGES_NORMAL;
        r->huge_size = thp;
        return 0;
    case LAT_PAGES_4K:
        r->pages = PAGES_SMALL;
        r->huge_size = thp;
        return 0;
    case LAT_PAGES_THP:
        if (thp_off) {
            snprintf(err, errlen, "--pages thp: transparent huge pages are 'never' on this system");
            return 2;
        }
        r->pages = PAGES_THP;
        r->huge_size = r->page_bytes = thp;
        return 0;
    case LAT_PAGES_2M:
        r->pages = PAGES_HUGE;
        r->huge_size = r->page_bytes = 2ULL << 20;
        if (platform_hugetlb_free_pages(r->huge_size) * r->huge_size < r->o.max_bytes &&
            (thp_off || thp != r->huge_size)) {
            snprintf(err, errlen, "--pages 2m: no room in the 2 MiB huge page pool and THP cannot give 2 MiB pages");
            return 2;
        }
        return 0;
    case LAT_PAGES_1G:
        r->pages = PAGES_HUGETLB;
        r->huge_size = r->page_bytes = 1ULL << 30;
        if (platform_hugetlb_free_pages(r->huge_size) * r->huge_size < r->o.max_bytes) {
            snprintf(err, errlen,
                     "--pages 1g: needs %llu free 1 GiB huge pages, the pool has %llu (reserve them in "
                     "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)",
                     (unsigned long long)((r->o.max_bytes + (1ULL << 30) - 1) >> 30),
                     (unsigned long long)platform_hugetlb_free_pages(r->huge_size));
            return 2;
        }
        return 0;
    }
    return 0;
}

static uint64_t round_size(const latency_run *r, double s)
{
    uint64_t unit = 4096;
    if (r->layout.node_bytes > unit)
        unit = r->layout.node_bytes;
    if (r->o.order == CHASE_PAGE_LOCAL && s >= (double)r->page_bytes)
        unit = r->page_bytes;
    uint64_t v = (uint64_t)llround(s / (double)unit) * unit;
    if (r->layout.node_bytes > 0 && v % r->layout.node_bytes)
        v -= v % r->layout.node_bytes;
    return v < unit ? unit : v;
}

static void plan_sizes(latency_run *r)
{
    r->nsizes = 0;
    for (int k = 0; r->nsizes < MAX_POINTS; k++) {
        double s = (double)r->o.min_bytes * pow(2.0, (double)k / r->o.points_per_octave);
        if (s > (double)r->o.max_bytes * 1.0001)
            break;
        uint64_t v = round_size(r, s);
        if (r->nsizes == 0 || v > r->sizes[r->nsizes - 1])
            r->sizes[r->nsizes++] = v;
    }
    uint64_t last = round_size(r, (double)r->o.max_bytes);
    if (r->nsizes < MAX_POINTS && (r->nsizes == 0 || last > r->sizes[r->nsizes - 1]))
        r->sizes[r->nsizes++] = last;
}

/* Reported levels 1..top (at most MAX_CHECKED_LEVELS) against the measured steps;
 * measure/cache_levels decides. */
static void check_levels(latency_run *r)
{
    int top = topology_max_cache_level(&r->topo);
    if (top < 1)
        top = 3; /* nothing reported: compare with the defaults */
    reported_cache_level levels[MAX_CHECKED_LEVELS];
    size_t nlevels = 0;
    for (int level = 1; level <= top && level <= MAX_CHECKED_LEVELS; level++)
        levels[nlevels++] = (reported_cache_level){level, topology_cache_level(&r->topo, level).size};
    r->nchecks = check_cache_levels(r->sizes, r->nsizes, r->steps, r->nsteps, levels, nlevels, r->checks);
}

static void write_json(latency_run *r)
{
    if (!r->o.json_path)
        return;
    latency_doc d = {&r->info, r->description, r->records, r->nrecords, r->steps, r->nsteps,
                     r->checks, r->nchecks, r->counter_hz};
    if (!json_write_atomic(r->o.json_path, latency_write_json, &d))
        fprintf(stderr, "membench latency: warning: could not write %s\n", r->o.json_path);
}

static int setup(latency_run *r, int argc, char **argv)
{
    char err[512];
    parse_result pr = latency_options_parse(argc, argv, &r->o, err, sizeof err);
    if (pr == PARSE_ERROR)
        return bad(err);
    if (pr == PARSE_EXIT_OK) {
        latency_usage(stdout);
        return -1;
    }
    if (r->o.json_path && !json_path_check(r->o.json_path, err, sizeof err))
        return bad(err);
    cpu_list usable = {NULL, 0};
    platform_usable_cpus(&usable);
    bool loaded = topology_load("/sys", usable.count ? &usable : NULL, &r->topo);
    cpu_list_free(&usable);
    if (!loaded) {
        fprintf(stderr, "membench latency: cannot find any CPU\n");
        return 1;
    }
    topology_crosscheck_cpuid(&r->topo);
    r->cpu = r->o.cpu >= 0 ? r->o.cpu : r->topo.usable.ids[0];
    const cpu_info *ci = topology_cpu(&r->topo, r->cpu);
    if (!ci || !ci->usable) {
        snprintf(err, sizeof err, "--cpu %d: not available to this process", r->cpu);
        return bad(err);
    }
    r->node = topology_memory_node(&r->topo, ci->node);
    if (r->o.mem_node >= 0) {
        const numa_node *n = topology_node(&r->topo, r->o.mem_node);
        if (!n || n->mem_total == 0) {
            snprintf(err, sizeof err, "--mem-node %d: %s", r->o.mem_node,
                     n ? "that NUMA node has no memory" : "no such NUMA node here");
            return bad(err);
        }
        r->node = r->o.mem_node;
    }
    uint64_t budget = memory_budget();
    if (r->o.max_bytes == 0) {
        int top = topology_max_cache_level(&r->topo);
        uint64_t llc = topology_cache_level(&r->topo, top >= 1 ? top : 3).size;
        r->o.max_bytes = 2 * llc;
        if (r->o.max_bytes > budget)
            r->o.max_bytes = budget - budget % 4096;
        if (r->o.max_bytes < r->o.min_bytes)
            r->o.max_bytes = r->o.min_bytes;
    } else if (r->o.max_bytes > budget) {
        snprintf(err, sizeof err,
                 "--max %llu MiB: more than can be allocated safely (%llu MiB: MemAvailable and cgroup limit, "
                 "less a margin)",
                 (unsigned long long)(r->o.max_bytes >> 20), (unsigned long long)(budget >> 20));
        return bad(err);
    }
    if (choose_pages(r, err, sizeof err) != 0)
        return bad(err);
    cache_level l1 = topology_cache_level(&r->topo, 1);
    r->layout.order = r->o.order;
    r->layout.node_bytes = r->o.order == CHASE_STRIDED ? r->o.stride : (size_t)l1.line_size;
    r->layout.page_bytes = r->page_bytes;
    r->layout.seed = r->o.seed;
    plan_sizes(r);
    static const char *orders[] = {"random", "page-local random", "strided"};
    snprintf(r->description, sizeof r->description,
             "%s chase, %zu-byte nodes, seed %llu, 1 thread on CPU %d (node %d), memory on node %d, pages %s",
             orders[r->o.order], r->layout.node_bytes, (unsigned long long)r->o.seed, r->cpu, ci->node, r->node,
             latency_pages_name(r->o.pages));
    r->counter_hz = ref_counter_hz();
    return 0;
}

int latency_main(int argc, char **argv)
{
    static latency_run run;
    latency_run *r = &run;
    memset(r, 0, sizeof *r);
    int rc = setup(r, argc, argv);
    if (rc != 0) {
        topology_free(&r->topo);
        return rc < 0 ? 0 : rc;
    }
    run_info_start(&r->info, argc + 1, argv - 1 /* main passed argv + 1 */, &r->topo);
    if (r->o.json_path) {
        latency_doc d = {&r->info, r->description, NULL, 0, NULL, 0, NULL, 0, r->counter_hz};
        if (!json_write_atomic(r->o.json_path, latency_write_json, &d)) {
            char err[512];
            snprintf(err, sizeof err, "--json %s: cannot write (%s)", r->o.json_path, strerror(errno));
            topology_free(&r->topo);
            return bad(err);
        }
    }
    topology_report_warnings(stderr, "membench latency: ", &r->topo);
    if (!r->o.csv)
        printf("# membench latency: %s\n", r->description);
    latency_write_header(stdout, r->o.csv, r->counter_hz);
    fflush(stdout);

    team_place tp = {{&r->cpu, 1}};
    team *t = team_create(&tp, 1);
    if (!t) {
        topology_free(&r->topo);
        fprintf(stderr, "membench latency: cannot start the measuring thread\n");
        return 1;
    }
    stop_install_signal_handlers();
    double start = clock_now();
    for (size_t i = 0; i < r->nsizes && !stop_requested(); i++) {
        latency_request rq = {r->sizes[i], r->layout,    r->o.sample_ms / 1000.0, MIN_SAMPLES, MAX_SAMPLES,
                              CV_TARGET,   r->pages,     r->huge_size,            r->node};
        if (r->o.order == CHASE_PAGE_LOCAL && r->sizes[i] < r->page_bytes)
            rq.layout.page_bytes = r->sizes[i]; /* smaller than a page: random within it */
        result_record rec;
        memset(&rec, 0, sizeof rec);
        measure_status st = measure_latency(t, &rq, &rec);
        if (st == MEASURE_NO_MEMORY) {
            fprintf(stderr, "membench latency: warning: %llu KiB: could not allocate; skipped\n",
                    (unsigned long long)(r->sizes[i] >> 10));
            continue;
        }
        if (st != MEASURE_OK)
            break;
        snprintf(rec.cpus, sizeof rec.cpus, "%d", r->cpu);
        r->records[r->nrecords++] = rec;
        latency_write_row(stdout, r->o.csv, &rec);
        fflush(stdout);
        if (r->o.verbose)
            fprintf(stderr, "  %llu KiB: chain built in %.3f s, %.3f s in all\n",
                    (unsigned long long)(rec.size_bytes >> 10), rec.chain_build_s, rec.elapsed_s);
        r->info.elapsed_s = clock_now() - start;
        write_json(r);
    }
    team_destroy(t);

    uint64_t sizes[MAX_POINTS];
    double lat[MAX_POINTS];
    bool huge_asked = r->o.pages == LAT_PAGES_2M || r->o.pages == LAT_PAGES_1G || r->o.pages == LAT_PAGES_THP;
    const result_record *short_of_huge = NULL;
    for (size_t i = 0; i < r->nrecords; i++) {
        sizes[i] = r->records[i].size_bytes;
        lat[i] = r->records[i].latency_ns;
        if (huge_asked && !short_of_huge && r->records[i].huge_coverage < 0.9)
            short_of_huge = &r->records[i];
    }
    r->nsteps = find_latency_steps(sizes, lat, r->nrecords, r->steps);
    check_levels(r);
    latency_write_estimates(r->o.csv ? stderr : stdout, r->steps, r->nsteps, r->checks, r->nchecks,
                            huge_asked && !short_of_huge);
    if (short_of_huge)
        fprintf(stderr, "membench latency: warning: --pages %s: only %.0f%% of the %llu KiB buffer was in huge pages\n",
                latency_pages_name(r->o.pages), short_of_huge->huge_coverage * 100,
                (unsigned long long)(short_of_huge->size_bytes >> 10));
    int sig = stop_signal();
    r->info.complete = !stop_requested();
    r->info.stopped_by = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : NULL;
    r->info.elapsed_s = clock_now() - start;
    write_json(r);
    topology_free(&r->topo);
    return sig ? 128 + sig : 0;
}
