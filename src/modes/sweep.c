#include "modes/sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/thread_options.h"
#include "cli/sweep_options.h"
#include "kernels/kernel.h"
#include "measure/bandwidth.h"
#include "measure/clock.h"
#include "measure/latency.h"
#include "measure/stop.h"
#include "memory/memory_budget.h"
#include "output/csv_writer.h"
#include "output/json_report.h"
#include "output/summary.h"
#include "output/table_writer.h"
#include "output/topology_report.h"
#include "plan/placement.h"
#include "plan/sweep_plan.h"
#include "platform/platform.h"
#include "topology/topology.h"

#define LATENCY_MAX_BYTES (2ULL << 30) /* as sc-membench: enough to pass any L3 */
#define LATENCY_MIN_SAMPLES 7
#define LATENCY_MAX_SAMPLES 21
#define LATENCY_CV_TARGET 0.05
#define HUGE_COVERAGE_WARN 0.9
#define MAX_THREAD_COUNTS 32

typedef struct {
    sweep_options opts;
    topology topo;
    placement place;
    size_plan plan;
    run_info info;
    const kernel *kernels[OP_COUNT];     /* for buffers within the last-level cache share */
    const kernel *kernels_ram[OP_COUNT]; /* for buffers beyond it */
    int counts[MAX_THREAD_COUNTS]; /* thread counts to try (-a), else just one */
    int ncounts;
    team *teams[MAX_THREAD_COUNTS];
    team *latency_team;
    result_record *records;
    size_t nrecords, cap;
    bool progress; /* stderr is a terminal */
    int latency_below_target;
    bool wrong_result;
    double start;
} sweep_run;

static const char *getenv_adapter(const char *name)
{
    return getenv(name);
}

static void run_warn(sweep_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void run_warn(sweep_run *r, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (r->progress)
        fputs("\r\033[K", stderr);
    fprintf(stderr, "membench: warning: %s\n", buf);
    if (r->info.nwarnings < RUN_MAX_WARNINGS) {
        r->info.warnings[r->info.nwarnings] = strdup(buf);
        if (r->info.warnings[r->info.nwarnings])
            r->info.nwarnings++;
    }
}

static int bad_input(const char *msg)
{
    fprintf(stderr, "membench: %s\n", msg);
    return 2;
}

static int buffers_needed(unsigned ops_mask)
{
    int most = 1;
    for (int op = 0; op < OP_COUNT; op++)
        if ((ops_mask & OP_MASK(op)) && op != OP_LATENCY && op_buffers((mb_op)op) > most)
            most = op_buffers((mb_op)op);
    return most;
}

static bool only_latency(unsigned ops_mask)
{
    return ops_mask == OP_MASK(OP_LATENCY);
}

/* Resolves kernels, threads, placement and sizes; prints and returns 2 on bad input. */
static int prepare(sweep_run *r)
{
    sweep_options *o = &r->opts;
    char err[512];
    for (int op = 0; op < OP_COUNT; op++) {
        if (!(o->ops_mask & OP_MASK(op)) || op == OP_LATENCY)
            continue;
        const char *isa = op == OP_MEMCPY ? NULL : o->kernel_isa;
        r->kernels[op] = kernel_choose(KERNEL_SWEEP, op, STORE_ANY, isa, false);
        r->kernels_ram[op] = kernel_choose(KERNEL_SWEEP, op, STORE_ANY, isa, true);
        if (!r->kernels[op] || !r->kernels_ram[op]) {
            snprintf(err, sizeof err, "-o %s: no %s kernel for this CPU%s%s", op_name((mb_op)op),
                     op == OP_WRITE_NT || op == OP_COPY_NT ? "non-temporal store" : "matching",
                     o->kernel_isa ? " with --kernel " : "", o->kernel_isa ? o->kernel_isa : "");
            return bad_input(err);
        }
    }
    int threads =
        resolve_thread_count(o->threads, o->threads_from_p, &o->cpus, o->cpus_given, r->topo.usable.count);
    placement_request prq = {threads, o->cpus_given ? &o->cpus : NULL, o->omp_bind, o->omp_places,
                             o->oversubscribe};
    if (!placement_build(&r->topo, &prq, &r->place, err, sizeof err))
        return bad_input(err);

    r->ncounts = 0;
    if (o->auto_scale) {
        for (int k = 1; k < threads && r->ncounts < MAX_THREAD_COUNTS - 1; k *= 2)
            r->counts[r->ncounts++] = k;
    }
    r->counts[r->ncounts++] = threads;

    uint64_t budget = memory_budget();
    int buffers = buffers_needed(o->ops_mask);
    int size_threads = only_latency(o->ops_mask) ? 1 : threads;
    int *cpus = malloc(sizeof(int) * (size_t)threads);
    if (!cpus)
        return bad_input("out of memory");
    if (r->place.pinned)
        placement_primary_cpus(&r->place, cpus);
    else {
        /* Unpinned: plan cache shares as if the scheduler spread the threads. */
        size_t m = placement_spread_order(&r->topo, cpus, (size_t)threads);
        for (size_t i = m; i < (size_t)threads; i++)
            cpus[i] = cpus[i % (m ? m : 1)];
    }
    sweep_plan_sizes(&r->topo, cpus, threads, o->full, budget, buffers, &r->plan);
    free(cpus);
    if (o->single_size_kb) {
        uint64_t bytes = o->single_size_kb * 1024ULL;
        uint64_t need = bytes * (uint64_t)size_threads * (uint64_t)buffers;
        if (bytes / 1024ULL != o->single_size_kb || need / bytes != (uint64_t)size_threads * (uint64_t)buffers ||
            need > budget) {
            snprintf(err, sizeof err,
                     "-s %llu: needs %llu MiB (%d thread(s) x %d buffer(s)) but only %llu MiB can be allocated "
                     "safely (MemAvailable and cgroup limit, less a margin)",
                     (unsigned long long)o->single_size_kb, (unsigned long long)(need >> 20), size_threads, buffers,
                     (unsigned long long)(budget >> 20));
            return bad_input(err);
        }
        /* keep the cache shares just computed; replace the sizes by the one asked for */
        r->plan.n = 1;
        r->plan.dropped = 0;
        r->plan.max_bytes = budget / ((uint64_t)size_threads * (uint64_t)buffers);
        r->plan.points[0].bytes = bytes;
        snprintf(r->plan.points[0].reason, sizeof r->plan.points[0].reason, "-s %llu",
                 (unsigned long long)o->single_size_kb);
    } else if (r->plan.dropped) {
        run_warn(r, "%zu size(s) left out: more than the memory budget allows (%llu MiB per thread)",
                 r->plan.dropped, (unsigned long long)(r->plan.max_bytes >> 20));
    }
    if (o->full && r->plan.full_points == 0)
        run_warn(r, "-f adds nothing: the memory budget allows %llu MiB per thread, -f starts at %llu MiB "
                    "(MemAvailable and cgroup limit, less a margin)",
                 (unsigned long long)(r->plan.max_bytes >> 20), (unsigned long long)(SWEEP_FULL_START >> 20));
    return 0;
}

static void print_plan(sweep_run *r)
{
    const sweep_options *o = &r->opts;
    char buf[1024];
    fprintf(stderr, "membench %s\n", MEMBENCH_VERSION);
    fprintf(stderr, "CPU: %s; kernel ISAs usable: %s\n", r->info.cpu_model, r->info.isa_list);
    topology_report_text(stderr, &r->topo);
    placement_describe_cpus(&r->place, r->place.n, buf, sizeof buf);
    fprintf(stderr, "Threads: %d, %s; CPUs %s\n", r->place.n, r->place.policy, buf);
    if (o->auto_scale) {
        fprintf(stderr, "Thread mode: auto-scaling (trying");
        for (int i = 0; i < r->ncounts; i++)
            fprintf(stderr, " %d", r->counts[i]);
        fprintf(stderr, ")\n");
    }
    for (int op = 0; op < OP_COUNT; op++) {
        if (!r->kernels[op])
            continue;
        fprintf(stderr, "Kernel %-8s: %s, %s", op_name((mb_op)op), r->kernels[op]->isa, r->kernels[op]->store);
        if (r->kernels_ram[op] != r->kernels[op])
            fprintf(stderr, "; %s beyond the L3 share (%llu KiB per thread)", r->kernels_ram[op]->isa,
                    (unsigned long long)(r->plan.share[3] / 1024));
        fprintf(stderr, "\n");
    }
    if (o->ops_mask & OP_MASK(OP_LATENCY))
        fprintf(stderr, "Kernel latency : random pointer chase, %d-byte nodes, seed %llu, 1 thread on CPU %d\n",
                topology_cache_level(&r->topo, 1).line_size, (unsigned long long)o->seed, r->place.places[0].cpu);
    fprintf(stderr, "Pages: %s; timing: >= %.1f ms per sample, warm-up discarded, best of %d\n",
            o->huge ? "huge pages requested (-H) for buffers >= 2x huge page size" : "normal", o->sample_ms,
            o->tries);
    fprintf(stderr, "Testing %zu buffer sizes (per thread):\n", r->plan.n);
    for (size_t i = 0; i < r->plan.n; i++)
        fprintf(stderr, "  %10llu KB  %s\n", (unsigned long long)(r->plan.points[i].bytes / 1024),
                r->plan.points[i].reason);
}

static void add_record(sweep_run *r, const result_record *rec)
{
    if (r->nrecords == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 64;
        result_record *n = realloc(r->records, ncap * sizeof *n);
        if (!n)
            return;
        r->records = n;
        r->cap = ncap;
    }
    r->records[r->nrecords++] = *rec;
}

static void write_json(sweep_run *r)
{
    if (!r->opts.json_path)
        return;
    r->info.elapsed_s = clock_now() - r->start;
    if (!json_report_write(r->opts.json_path, &r->info, r->records, r->nrecords))
        fprintf(stderr, "membench: warning: could not write %s\n", r->opts.json_path);
}

static team *team_for(sweep_run *r, int ci)
{
    if (r->teams[ci])
        return r->teams[ci];
    team_place *tp = calloc((size_t)r->counts[ci], sizeof *tp);
    if (!tp)
        return NULL;
    for (int i = 0; i < r->counts[ci]; i++)
        tp[i].cpus = r->place.pinned ? r->place.places[i].cpus : (cpu_list){NULL, 0};
    r->teams[ci] = team_create(tp, r->counts[ci]);
    free(tp);
    if (r->teams[ci] && r->place.pinned)
        for (int i = 0; i < r->counts[ci]; i++)
            if (!team_pin_verified(r->teams[ci], i))
                run_warn(r, "thread %d could not be pinned to CPU(s) of its place; results may vary", i);
    return r->teams[ci];
}

static void check_record(sweep_run *r, const result_record *rec)
{
    char what[64];
    snprintf(what, sizeof what, "%llu KB %s", (unsigned long long)(rec->size_bytes / 1024), op_name(rec->op));
    uint64_t huge = topology_huge_page_size(&r->topo);
    uint64_t bytes = rec->op == OP_LATENCY ? rec->latency_bytes : rec->size_bytes;
    if (r->opts.huge && bytes >= 2 * huge && rec->huge_coverage >= 0 && rec->huge_coverage < HUGE_COVERAGE_WARN)
        run_warn(r, "%s: only %.0f%% of the buffer is in huge pages (%s); THP is '%s'", what,
                 rec->huge_coverage * 100, rec->page_method ? rec->page_method : "?", r->topo.thp_mode);
    if (rec->node_local_fraction >= 0 && rec->node_local_fraction < 0.9)
        run_warn(r, "%s: only %.0f%% of sampled pages are on the threads' own NUMA node", what,
                 rec->node_local_fraction * 100);
    if (rec->op == OP_LATENCY && !rec->cv_target_met)
        r->latency_below_target++;
}

static void verbose_record(const sweep_run *r, const result_record *rec)
{
    if (r->opts.verbose < 1)
        return;
    if (r->progress)
        fputs("\r\033[K", stderr);
    if (rec->op == OP_LATENCY)
        fprintf(stderr, "  %llu KB latency: median %.2f ns, stddev %.2f, %d samples, CV target %s; pages %s",
                (unsigned long long)(rec->size_bytes / 1024), rec->latency_ns, rec->latency_stddev_ns,
                rec->latency_samples, rec->cv_target_met ? "met" : "NOT met", rec->page_method);
    else
        fprintf(stderr, "  %llu KB %s: %s %s, %d thr, best %.0f median %.0f MB/s, CV %.2f%%, %llu passes/sample; pages %s",
                (unsigned long long)(rec->size_bytes / 1024), op_name(rec->op), rec->kernel_isa, rec->kernel_store,
                rec->threads, rec->bandwidth_mb_s, rec->bandwidth_median_mb_s, rec->bandwidth_cv * 100,
                (unsigned long long)rec->iterations, rec->page_method);
    if (rec->huge_coverage >= 0)
        fprintf(stderr, " (%.0f%% huge)", rec->huge_coverage * 100);
    if (rec->op == OP_LATENCY && rec->huge_coverage < 0.9)
        fprintf(stderr, ", TLB misses included");
    fprintf(stderr, "\n");
    if (r->opts.verbose >= 2 && rec->op != OP_LATENCY)
        fprintf(stderr, "      best sample: thread times %.6f..%.6f s, CPUs %s, %d/%d pins verified\n",
                rec->thread_time_min_s, rec->thread_time_max_s, rec->cpus, rec->pins_verified, rec->threads);
}

/* Measures one operation at one size; false when the run must stop. */
static bool measure_point(sweep_run *r, uint64_t bytes, mb_op op, result_record *best)
{
    const sweep_options *o = &r->opts;
    page_request pages = o->huge ? PAGES_HUGE_AUTO : PAGES_NORMAL;
    uint64_t huge = topology_huge_page_size(&r->topo);
    memset(best, 0, sizeof *best);
    if (op == OP_LATENCY) {
        if (!r->latency_team) {
            int cpu = r->place.places[0].cpu;
            team_place tp = {{&cpu, 1}};
            r->latency_team = team_create(&tp, 1);
            if (!r->latency_team)
                return false;
        }
        uint64_t cap = r->plan.max_bytes * (uint64_t)r->place.n;
        uint64_t chase = bytes < LATENCY_MAX_BYTES ? bytes : LATENCY_MAX_BYTES;
        if (chase > cap)
            chase = cap - cap % 4096;
        chase_layout layout = {CHASE_RANDOM, (size_t)topology_cache_level(&r->topo, 1).line_size, 0, o->seed};
        latency_request lr = {chase,          layout,         o->latency_sample_ms / 1000.0,
                              LATENCY_MIN_SAMPLES, LATENCY_MAX_SAMPLES, LATENCY_CV_TARGET,
                              pages,          huge,           r->place.places[0].mem_node};
        measure_status st = measure_latency(r->latency_team, &lr, best);
        best->size_bytes = bytes;
        snprintf(best->cpus, sizeof best->cpus, "%d", r->place.places[0].cpu);
        if (st == MEASURE_NO_MEMORY)
            run_warn(r, "%llu KB latency: could not allocate; skipped", (unsigned long long)(bytes / 1024));
        return st != MEASURE_STOPPED; /* an allocation failure skips this point only */
    }
    bool have = false;
    for (int ci = 0; ci < r->ncounts; ci++) {
        team *t = team_for(r, ci);
        if (!t)
            return false;
        int nodes[MAX_THREADS];
        for (int i = 0; i < r->counts[ci]; i++)
            nodes[i] = r->place.pinned ? r->place.places[i].mem_node : -1;
        const kernel *k = bytes > r->plan.share[3] ? r->kernels_ram[op] : r->kernels[op];
        bandwidth_request rq = {k, bytes, o->tries, o->sample_ms / 1000.0, pages, huge, nodes};
        result_record rec;
        memset(&rec, 0, sizeof rec);
        measure_status st = measure_bandwidth(t, &rq, &rec);
        if (st == MEASURE_STOPPED)
            return have;
        if (st == MEASURE_NO_MEMORY) {
            run_warn(r, "%llu KB %s with %d threads: could not allocate; skipped",
                     (unsigned long long)(bytes / 1024), op_name(op), r->counts[ci]);
            continue;
        }
        if (st == MEASURE_WRONG_RESULT) {
            fprintf(stderr, "membench: error: %s kernel (%s) produced wrong data at %llu KB; not reported\n",
                    op_name(op), k->isa, (unsigned long long)(bytes / 1024));
            r->wrong_result = true;
            continue;
        }
        placement_describe_cpus(&r->place, r->counts[ci], rec.cpus, sizeof rec.cpus);
        if (!have || rec.bandwidth_mb_s > best->bandwidth_mb_s)
            *best = rec;
        have = true;
    }
    return true;
}

static void show_progress(const sweep_run *r, size_t done, size_t total, uint64_t bytes, mb_op op)
{
    if (r->progress)
        fprintf(stderr, "\r\033[K[%zu/%zu] %llu KB %s ...", done + 1, total, (unsigned long long)(bytes / 1024),
                op_name(op));
}

static void run_points(sweep_run *r)
{
    size_t total = 0, done = 0;
    for (int op = 0; op < OP_COUNT; op++)
        if (r->opts.ops_mask & OP_MASK(op))
            total += r->plan.n;
    for (size_t s = 0; s < r->plan.n && !stop_requested(); s++) {
        for (int op = 0; op < OP_COUNT && !stop_requested(); op++) {
            if (!(r->opts.ops_mask & OP_MASK(op)))
                continue;
            uint64_t bytes = r->plan.points[s].bytes;
            show_progress(r, done++, total, bytes, (mb_op)op);
            result_record rec;
            bool go_on = measure_point(r, bytes, (mb_op)op, &rec);
            if (rec.samples > 0) {
                if (r->progress)
                    fputs("\r\033[K", stderr);
                if (r->opts.human)
                    table_write_record(stdout, &rec);
                else
                    csv_write_record(stdout, &rec);
                fflush(stdout);
                add_record(r, &rec);
                check_record(r, &rec);
                verbose_record(r, &rec);
                write_json(r);
            }
            if (!go_on)
                return;
        }
    }
}

static void cleanup(sweep_run *r)
{
    for (int i = 0; i < MAX_THREAD_COUNTS; i++)
        team_destroy(r->teams[i]);
    team_destroy(r->latency_team);
    for (size_t i = 0; i < r->info.nwarnings; i++)
        free(r->info.warnings[i]);
    free(r->records);
    placement_free(&r->place);
    topology_free(&r->topo);
    sweep_options_free(&r->opts);
}

int sweep_main(int argc, char **argv)
{
    static sweep_run run;
    sweep_run *r = &run;
    memset(r, 0, sizeof *r);
    char err[512];
    parse_result pr = sweep_options_parse(argc, argv, getenv_adapter, &r->opts, err, sizeof err);
    if (pr == PARSE_ERROR) {
        sweep_options_free(&r->opts);
        return bad_input(err);
    }
    if (r->opts.help) {
        sweep_usage(stdout);
        return 0;
    }
    if (r->opts.version) {
        printf("membench %s\n", MEMBENCH_VERSION);
        return 0;
    }
    if (r->opts.json_path && !json_path_check(r->opts.json_path, err, sizeof err)) {
        sweep_options_free(&r->opts);
        return bad_input(err);
    }
    cpu_list usable = {NULL, 0};
    platform_usable_cpus(&usable);
    bool loaded = topology_load("/sys", usable.count ? &usable : NULL, &r->topo);
    cpu_list_free(&usable);
    if (!loaded) {
        fprintf(stderr, "membench: cannot find any CPU (sysfs and affinity unreadable)\n");
        return 1;
    }
    topology_crosscheck_cpuid(&r->topo);
    r->progress = isatty(STDERR_FILENO) && !r->opts.verbose;
    int rc = prepare(r);
    if (rc != 0) {
        cleanup(r);
        return rc;
    }
    run_info_start(&r->info, argc, argv, &r->topo);
    r->info.opts = &r->opts;
    r->info.place = &r->place;
    r->info.plan = &r->plan;
    if (r->opts.verbose)
        print_plan(r); /* includes the topology's warnings */
    else
        topology_report_warnings(stderr, "membench: ", &r->topo); /* JSON has them under topology */
    if (!r->place.pinned)
        run_warn(r, "threads are not pinned (OMP_PROC_BIND=false): results will vary between runs");

    stop_install_signal_handlers();
    r->start = clock_now();
    if (r->opts.max_runtime > 0)
        stop_set_deadline(r->start + r->opts.max_runtime);
    if (r->opts.json_path && !json_report_write(r->opts.json_path, &r->info, NULL, 0)) {
        /* Found out before measuring, not after an hour of results. */
        snprintf(err, sizeof err, "--json %s: cannot write (%s)", r->opts.json_path, strerror(errno));
        cleanup(r);
        return bad_input(err);
    }
    if (r->opts.human)
        table_write_header(stdout);
    else
        csv_write_header(stdout);
    fflush(stdout);

    run_points(r);

    if (r->progress)
        fputs("\r\033[K", stderr);
    int sig = stop_signal();
    r->info.complete = !stop_requested();
    r->info.stopped_by = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : stop_deadline_passed() ? "time limit" : NULL;
    if (r->opts.verbose && r->info.stopped_by)
        fprintf(stderr, "Stopped early (%s) after %.1f s\n", r->info.stopped_by, clock_now() - r->start);
    write_json(r);
    if (r->opts.human) {
        run_summary s = summary_compute(r->records, r->nrecords);
        comparability c = {r->opts.max_runtime, 0, NULL, (int)r->topo.usable.count,
                           (unsigned long long)r->opts.single_size_kb, r->info.stopped_by, r->latency_below_target};
        if (r->opts.threads_from_p || (r->opts.threads > 0 && !r->opts.cpus_given)) {
            c.fixed_threads = r->opts.threads;
            c.fixed_threads_source = r->opts.threads_from_p ? "-p" : "OMP_NUM_THREADS";
        }
        table_write_summary(stderr, &s, &c);
    }
    if (r->opts.verbose)
        fprintf(stderr, "Total runtime: %.1f seconds\n", clock_now() - r->start);
    rc = sig ? 128 + sig : r->wrong_result ? 1 : 0;
    cleanup(r);
    return rc;
}
