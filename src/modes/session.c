/* SPDX-License-Identifier: MIT */
#include "modes/session.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels/isa.h"
#include "measure/clock.h"
#include "measure/noise_probe.h"
#include "measure/ref_counter.h"
#include "measure/stop.h"
#include "memory/memory_budget.h"
#include "memory/page_policy.h"
#include "measure/cache_probe.h"
#include "measure/dram_check.h"
#include "output/json_report.h"
#include "output/kernel_list.h"
#include "output/openmetrics_sink.h"
#include "output/plan_text.h"
#include "output/topology_report.h"
#include "output/verbose_sink.h"
#include "output/headline_sink.h"
#include "output/warning_summary.h"
#include "platform/arch.h"
#include "platform/platform.h"
#include "topology/cpuid_source.h"
#include "util/format_bytes.h"
#include "util/one_line.h"
#include "util/read_file.h"

static const char *live_getenv(const char *name)
{
    return getenv(name);
}

session_env session_env_live(void)
{
    return (session_env){"/sys", true, live_getenv, memory_budget, stdout, stderr, NULL, NULL, NULL, NULL};
}

/* "membench: " for the default mode, "membench latency: " for the others. */
static void say_prefix(const session *s)
{
    fprintf(s->env.err, "%s: ", s->who);
}

/* One line on stderr: "membench[ MODE]: KIND: text" (kind NULL: no kind). The text
 * may quote a file's or the machine's strings: it is neutralised (util/one_line.h). */
static void say(const session *s, const char *kind, const char *text)
{
    say_prefix(s);
    fprintf(s->env.err, "%s%s", kind ? kind : "", kind ? ": " : "");
    one_line_put(s->env.err, text);
    fputc('\n', s->env.err);
}

static void say_v(const session *s, const char *kind, const char *fmt, va_list ap)
{
    char small[1024], *text = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    say(s, kind, text ? text : small);
    if (text != small)
        free(text);
}

void session_say(const session *s, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_v(s, kind, fmt, ap);
    va_end(ap);
}

static void clear_progress(session *s)
{
    if (s->progress)
        fputs("\r\033[K", s->env.err);
}

void session_warn(session *s, warn_kind kind, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    run_info_warn(&s->info, kind, buf);
    /* Without -v, the run's end says them grouped by kind (output/warning_summary);
     * -v says each at once, or when the run starts for one given while planning
     * (so a refusal later in the plan stays one line). */
    if (!s->measuring || !session_common(s)->verbose)
        return;
    clear_progress(s);
    say(s, "warning", buf);
}

int session_bad_input(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_v(s, NULL, fmt, ap);
    va_end(ap);
    return 2;
}

/* An error: said, kept for JSON, exit status 1; ends_run also marks the run ended
 * by it (session_fail). */
static void error_v(session *s, bool ends_run, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    clear_progress(s);
    say(s, "error", buf);
    run_info_error(&s->info, buf);
    s->status = 1;
    s->failed = s->failed || ends_run;
}

void session_error(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_v(s, false, fmt, ap);
    va_end(ap);
}

void session_fail(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_v(s, true, fmt, ap);
    va_end(ap);
}

void session_check_huge_pages(session *s, const result_record *r, const char *what)
{
    if (r->huge_coverage < 0) {
        if (!s->said_pages_unverified)
            session_warn(s, WARN_PAGES, "%s: huge pages were asked for but could not be verified (/proc/self/smaps "
                            "unreadable); the results do not say which pages were used", what);
        s->said_pages_unverified = true;
        return;
    }
    if (r->huge_coverage >= HUGE_COVERAGE_WARN)
        return;
    char pages[96];
    result_pages_text(r, pages, sizeof pages);
    session_warn(s, WARN_PAGES, "%s: only %.0f%% of the buffers' bytes are in huge pages (%s); THP is '%s'", what,
                 r->huge_coverage * 100, pages, s->topo.thp_mode);
}

void session_add_sink(session *s, sink *k)
{
    if (k && s->nsinks < SESSION_MAX_SINKS)
        s->sinks[s->nsinks++] = k;
    else if (k)
        sink_destroy(k); /* cannot happen with the modes there are; never leak */
}

/* The probe, at most every NOISE_PROBE_EVERY_S (a c2c matrix emits hundreds of
 * records a second); between measurements, so it disturbs none. */
static void probe_host(session *s)
{
    double now = clock_now();
    if (s->nprobes > 0 && now - s->last_probe_at < NOISE_PROBE_EVERY_S)
        return;
    if (s->nprobes == s->probes_cap) {
        size_t cap = s->probes_cap ? 2 * s->probes_cap : 64;
        double *p = cap <= 1u << 20 ? realloc(s->probes, cap * sizeof *p) : NULL;
        if (p)
            s->probes = p;
        double *at = p ? realloc(s->probe_at, cap * sizeof *at) : NULL;
        if (at)
            s->probe_at = at;
        double *m = at ? realloc(s->mem_probes, cap * sizeof *m) : NULL;
        if (!m)
            return; /* a verdict from the probes so far */
        s->mem_probes = m;
        s->probes_cap = cap;
    }
    if (!s->mem_probe_tried) {
        s->mem_probe_tried = true;
        uint64_t llc = s->have_topo ? topology_cache_level(&s->topo, topology_last_level(&s->topo)).size : 0;
        uint64_t budget = 0;
        char why[256];
        if (!s->env.memory_budget || !s->env.memory_budget(&budget, why, sizeof why))
            budget = 0; /* unknown: no memory probe */
        size_t bytes = noise_mem_probe_bytes(llc, budget);
        const cpu_info *first = s->have_topo && s->topo.usable.count ? topology_cpu(&s->topo, s->topo.usable.ids[0]) : NULL;
        int node = first ? topology_memory_node(&s->topo, first->node) : -1;
        s->mem_probe_counts = noise_mem_probe_open(&s->mem_probe, bytes, node) && noise_mem_probe_counts(bytes, llc);
        now = clock_now(); /* after the buffer's first touch */
    }
    s->probe_at[s->nprobes] = now - s->start;
    s->probes[s->nprobes++] = noise_probe_run();
    if (s->mem_probe.buf)
        s->mem_probes[s->nmem_probes++] = noise_mem_probe_run(&s->mem_probe);
    s->last_probe_at = clock_now();
}

void session_between_visits(session *s)
{
    while (s->parent) /* a step's probes are its parent's: the run's verdict */
        s = s->parent;
    if (s->measuring)
        probe_host(s);
}

static void record_host_load(result_record *r, host_load_delta d)
{
    params_number(&r->params, "host_load_s", d.span_s);
    const char *keys[] = {"host_steal_pct", "host_cpu_pressure_pct", "host_memory_pressure_pct"};
    const double v[] = {d.steal_pct, d.cpu_pressure_pct, d.memory_pressure_pct};
    for (int i = 0; i < 3; i++)
        if (v[i] >= 0)
            params_number(&r->params, keys[i], v[i]);
}

void session_record_host_load(result_record *r, const host_load_span *visits)
{
    record_host_load(r, host_load_span_shares(visits));
}

/* Each record: what else the host did since the previous one, unless it says
 * already what the host did over its own visits (the modes in rounds). */
static void note_host_load(session *s, result_record *r)
{
    host_load now = host_load_read();
    host_load_delta d = host_load_between(&s->load_last, &now);
    s->load_last = now;
    if (!params_find(&r->params, "host_load_s"))
        record_host_load(r, d);
}

/* The run's verdict on its host, warned about when it matters. */
static void judge_host(session *s)
{
    host_load end = host_load_read();
    host_load_delta d = host_load_between(&s->load_start, &end);
    noise_verdict cpu = noise_judge(s->probes, s->nprobes);
    noise_verdict mem = noise_judge(s->mem_probes, s->nmem_probes);
    noise_verdict v = s->mem_probe_counts ? noise_combine(cpu, mem) : cpu;
    run_host_noise *n = &s->info.noise;
    *n = (run_host_noise){.measured = true,
                          .probes = v.probes,
                          .probe_times_s = s->probes,
                          .probe_at_s = s->probe_at,
                          .known = v.known,
                          .cpu_known = cpu.known,
                          .probe_median_s = cpu.median_s,
                          .cpu_varied_pct = cpu.varied_pct,
                          .memory_probes = s->nmem_probes,
                          .memory_probe_times_s = s->mem_probes,
                          .memory_probe_bytes = s->mem_probe.words * sizeof(uint64_t),
                          .memory_known = mem.known,
                          .memory_counted = s->mem_probe_counts,
                          .memory_probe_median_s = mem.median_s,
                          .memory_varied_pct = mem.varied_pct,
                          .varied_pct = v.varied_pct,
                          .meaningful_pct = v.meaningful_pct,
                          .flagged = v.flagged,
                          .steal_pct = d.steal_pct,
                          .cpu_pressure_pct = d.cpu_pressure_pct,
                          .memory_pressure_pct = d.memory_pressure_pct};
    if (v.flagged)
        session_warn(s, WARN_HOST_NOISE,
                     "the host varied \xc2\xb1%.0f%% during this run (fixed CPU and memory probes timed %zu times); "
                     "differences below %.0f%% are not meaningful",
                     v.varied_pct, v.probes, v.meaningful_pct);
    if (d.steal_pct > 0)
        session_warn(s, WARN_HOST_STEAL, "the hypervisor took %.1f%% of the CPU time during this run (/proc/stat steal)",
                     d.steal_pct);
    if (d.cpu_pressure_pct >= NOISE_CPU_PRESSURE_WARN_PCT)
        session_warn(s, WARN_CPU_PRESSURE,
                     "tasks waited for a CPU %.0f%% of this run's time (/proc/pressure/cpu; with more threads "
                     "than CPUs, this run's own count too)",
                     d.cpu_pressure_pct);
    if (d.memory_pressure_pct > 0)
        session_warn(s, WARN_MEMORY_PRESSURE, "tasks stalled on memory %.1f%% of this run's time (/proc/pressure/memory)",
                     d.memory_pressure_pct);
}

/* A point whose samples fell in two levels has a median that is neither: said
 * (every one in JSON; a matrix's hundreds are one line on the terminal). */
static void warn_two_levels(session *s, const result_record *r)
{
    const sample_stats *st = &r->summary;
    if (!st->low_level_n)
        return;
    char size[32];
    const char *unit = result_unit(r);
    session_warn(s, WARN_TWO_LEVELS,
                 "%s %s, %d thread%s: its %zu samples fell in two levels, %zu near %.4g %s and %zu near %.4g %s; "
                 "it moved between cache levels or host phases during the run, and its median is neither",
                 r->operation, format_bytes(r->size_bytes, size, sizeof size), r->threads,
                 r->threads == 1 ? "" : "s", st->n, st->low_level_n, st->low_level_median, unit, st->high_level_n,
                 st->high_level_median, unit);
}

void session_size_basis(session *s, const dram_basis *b, bool may_fit)
{
    s->size_basis = dram_basis_key(b);
    s->dram_intent = true;
    s->may_fit_cache = may_fit;
}

void session_size_given(session *s, bool dram_intent, bool may_fit)
{
    s->size_basis = "user";
    s->dram_intent = dram_intent;
    s->may_fit_cache = may_fit;
}

void session_emit(session *s, result_record *r)
{
    clear_progress(s);
    if (!r->size_basis && s->size_basis) {
        r->size_basis = s->size_basis;
        r->dram_intent = s->dram_intent;
        r->may_fit_cache = s->may_fit_cache;
    }
    if (r->dram_intent && s->dram_check.ran && !r->dram_check.ran)
        r->dram_check = s->dram_check;
    if (!s->parent && s->measuring) /* a step's records reach its parent's session_emit */
        note_host_load(s, r);
    if (!result_list_add(&s->results, r))
        return;
    if (!s->parent && s->measuring)
        probe_host(s);
    const result_record *kept = &s->results.items[s->results.n - 1];
    if (!s->parent) /* a step's records reach its parent's session_emit: said once, there */
        warn_two_levels(s, kept);
    s->info.elapsed_s = clock_now() - s->start;
    for (int i = 0; i < s->nsinks; i++)
        sink_record(s->sinks[i], &s->info, kept);
}

void session_burst(session *s, bool on)
{
    for (session *x = s; x; x = x->parent)
        for (int i = 0; i < x->nsinks; i++)
            sink_burst(x->sinks[i], on, &x->info);
}

bool session_stopped(const session *s)
{
    (void)s;
    return stop_requested();
}

team *session_start_team(session *s, const team_place *places, int n)
{
    team_failure why = {0, 0};
    team *t = team_create(places, n, &why);
    if (t)
        return t;
    /* EAGAIN's text ("Resource temporarily unavailable") does not say which resource */
    const char *limit = why.error == EAGAIN ? " (a limit on processes, ulimit -u, or on memory for thread stacks, "
                                              "ulimit -v)"
                                            : "";
    if (n == 1)
        session_fail(s, "cannot create the worker thread: %s%s", strerror(why.error), limit);
    else
        session_fail(s, "cannot create the worker threads (%d of %d started): %s%s", why.started, n,
                     strerror(why.error), limit);
    return NULL;
}

team *session_team(session *s, const placement *p, int n)
{
    team_place *tp = calloc((size_t)n, sizeof *tp);
    if (!tp) {
        session_fail(s, "cannot create %d worker threads (%s)", n, strerror(ENOMEM));
        return NULL;
    }
    for (int i = 0; i < n; i++)
        tp[i].cpus = p->pinned ? p->places[i].cpus : (cpu_list){NULL, 0};
    team *t = session_start_team(s, tp, n);
    free(tp);
    for (int i = 0; t && p->pinned && i < n; i++)
        if (!team_pin_verified(t, i))
            session_warn(s, WARN_PLACEMENT, "thread %d could not be pinned to CPU(s) of its place; results may vary", i);
    return t;
}

void session_describe_placement(session *s, const placement *p)
{
    snprintf(s->info.placement.policy, sizeof s->info.placement.policy, "%s", p->policy);
    s->info.placement.pinned = p->pinned;
    run_thread *th = run_info_set_threads(&s->info, p->n);
    for (int i = 0; th && i < p->n; i++) {
        th[i].cpus = cpu_list_format_alloc(p->places[i].cpus.ids, p->places[i].cpus.count);
        th[i].node = p->places[i].node;
        th[i].mem_node = p->places[i].mem_node;
    }
}

void session_record_placement(const placement *p, int n, result_record *r)
{
    result_thread *th = calloc((size_t)(n > 0 ? n : 1), sizeof *th);
    if (!th)
        return;
    for (int i = 0; i < n; i++) {
        th[i].cpu = p->pinned ? p->places[i].cpu : -1;
        th[i].node = p->pinned ? p->places[i].node : -1;
        th[i].mem_node = p->pinned ? p->places[i].mem_node : -1;
    }
    result_set_placement(r, th, n);
    free(th);
}

void session_step_begin(session *s)
{
    if (s->env.step_begin) /* a step session has its parent's environment */
        s->env.step_begin(s->env.step_ctx);
}

void session_progress(session *s, const char *fmt, ...)
{
    if (!s->progress)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", s->env.err);
    vfprintf(s->env.err, fmt, ap);
    va_end(ap);
}

/* A recorded machine's budget (--plan --sysfs): its nodes' MemFree, less the
 * margin a run keeps; no cgroup applies. False when no node says. */
static bool recorded_budget(const session *s, uint64_t *bytes, char *why, size_t whylen)
{
    uint64_t free_bytes = 0;
    for (size_t i = 0; i < s->topo.nnodes; i++)
        free_bytes += s->topo.nodes[i].mem_free;
    *bytes = memory_budget_from(free_bytes);
    if (free_bytes == 0)
        snprintf(why, whylen, "%s: no node's meminfo says MemFree", s->env.sysfs_root);
    return free_bytes > 0;
}

bool session_memory_budget(session *s, uint64_t *bytes)
{
    char why[512] = "";
    if (s->env.memory_budget ? s->env.memory_budget(bytes, why, sizeof why)
                             : recorded_budget(s, bytes, why, sizeof why)) {
        if (why[0] && !s->parent) /* a clamped MemAvailable: said once, by the run, not by each step */
            session_warn(s, WARN_MEMORY_BUDGET, "%s", why);
        return true;
    }
    session_error(s, "the memory budget is unknown, so nothing is allocated: %s", why);
    return false;
}

const common_options *session_common(const session *s)
{
    return s->opts;
}

static int act(session *s, option_action a)
{
    switch (a) {
    case ACTION_HELP:
        options_help(s->env.out, s->mode->options);
        if (s->mode == mode_table(NULL)[0]) {
            size_t n;
            const mode_def *const *modes = mode_table(&n);
            int width = 0; /* the longest name sets the column */
            for (size_t i = 1; i < n; i++)
                width = (int)strlen(modes[i]->name) > width ? (int)strlen(modes[i]->name) : width;
            fprintf(s->env.out, "\nModes (membench MODE --help for each):\n");
            for (size_t i = 1; i < n; i++)
                fprintf(s->env.out, "  %-*s  %s\n", width, modes[i]->name, modes[i]->summary);
        }
        break;
    case ACTION_VERSION:
        fprintf(s->env.out, "membench %s\n", MEMBENCH_VERSION);
        break;
    case ACTION_LIST_KERNELS:
        kernel_list_write(s->env.out);
        break;
    case ACTION_NONE:
        break;
    }
    return 0;
}

static bool load_topology(session *s)
{
    cpu_list usable = {NULL, 0};
    if (s->env.live)
        platform_usable_cpus(&usable);
    s->have_topo = topology_load(s->env.sysfs_root, usable.count ? &usable : NULL, &s->topo);
    cpu_list_free(&usable);
    if (s->have_topo && s->env.cpuid)
        topology_add_cpuid(&s->topo, s->env.cpuid);
    else if (s->have_topo && s->env.live)
        topology_add_live_sources(&s->topo);
    if (s->have_topo && s->env.measured)
        topology_set_measured(&s->topo, s->env.measured);
    return s->have_topo;
}

/* The part of opening every session shares: options parsed and checked. who NULL:
 * "membench[ MODE]". Returns -1 to go on, else the exit status. */
static int open_options(session *s, const mode_def *m, int argc, char **argv, const session_env *env, int skip,
                        const char *who)
{
    s->mode = m;
    if (who)
        snprintf(s->who, sizeof s->who, "%s", who);
    else
        snprintf(s->who, sizeof s->who, "membench%s%s", m == mode_table(NULL)[0] ? "" : " ",
                 m == mode_table(NULL)[0] ? "" : m->command ? m->command : m->name);
    s->env = *env;
    s->argc = argc;
    s->argv = argv;
    s->opts = calloc(1, m->options_size);
    s->state = calloc(1, m->state_size ? m->state_size : 1);
    if (!s->opts || !s->state) {
        say(s, "error", "out of memory");
        return 1;
    }
    char err[512];
    parse_result pr = mode_parse_options(m, argc - skip, argv + skip, env->getenv, s->opts, err, sizeof err);
    if (pr == PARSE_ERROR)
        return session_bad_input(s, "%s", err);
    if (pr == PARSE_EXIT_OK)
        return act(s, session_common(s)->action);
    return -1;
}

/* The run's description, once the topology is there. */
static void open_info(session *s)
{
    const common_options *c = session_common(s);
    run_info_start(&s->info, s->mode->name, s->argc, s->argv, &s->topo);
    s->info.isa_list = isa_usable_list();
    s->info.arch = arch_name();
    s->info.ref_counter = ref_counter_name();
    s->info.results = &s->results;
    options_to_params(s->mode->options, s->opts, &s->info.options);
    s->progress = s->env.live && isatty(fileno(s->env.err)) && !c->verbose;
}

/* --sysfs DIR: the plan is for the recorded machine there (its topology and its
 * nodes' free memory), not for this one. -1 to go on, else the exit status. */
static int plan_machine(session *s, const common_options *c)
{
    struct stat st;
    if (!c->plan)
        return session_bad_input(s, "--sysfs %s: only with --plan (a recorded machine can be planned for, not measured)",
                                 c->plan_sysfs);
    if (stat(c->plan_sysfs, &st) != 0 || !S_ISDIR(st.st_mode))
        return session_bad_input(s, "--sysfs '%s': not a directory", c->plan_sysfs);
    s->env.sysfs_root = c->plan_sysfs;
    s->env.live = false;
    s->env.cpuid = NULL;
    s->env.measured = NULL;
    s->env.memory_budget = NULL; /* recorded_budget */
    if (c->plan_cpuid) { /* a regular file of at most 1 MiB */
        char err[256], *text = NULL;
        size_t len = 0;
        if (!read_file_limited(c->plan_cpuid, 1 << 20, &text, &len, err, sizeof err))
            return session_bad_input(s, "--cpuid '%s': %s", c->plan_cpuid, err);
        bool ok = cpuid_dump_parse(text, &s->recorded_cpuid, err, sizeof err);
        free(text);
        if (!ok)
            return session_bad_input(s, "--cpuid '%s': %s", c->plan_cpuid, err);
        s->env.cpuid = &s->recorded_cpuid;
    }
    return -1;
}

int session_open(session *s, const mode_def *m, int argc, char **argv, const session_env *env)
{
    memset(s, 0, sizeof *s);
    /* A subcommand's parser sees the subcommand (its last word) as its argv[0]. */
    int words = 0;
    if (m != mode_table(NULL)[0] && mode_find_argv(argc, argv, &words) != m)
        words = 1;
    int rc = open_options(s, m, argc, argv, env, words, NULL);
    if (rc >= 0 || (m->flags & MODE_STANDALONE))
        return rc;
    const common_options *c = session_common(s);
    char err[512];
    if (c->json_path && !json_path_check(c->json_path, err, sizeof err))
        return session_bad_input(s, "%s", err); /* before anything else is said */
    if (c->openmetrics_path && !openmetrics_path_check(c->openmetrics_path, err, sizeof err))
        return session_bad_input(s, "%s", err);
    if (c->openmetrics_path && c->json_path && strcmp(c->openmetrics_path, c->json_path) == 0)
        return session_bad_input(s, "--openmetrics %s: the same file as --json", c->openmetrics_path);
    if (c->plan_cpuid && !c->plan_sysfs)
        return session_bad_input(s, "--cpuid %s: only with --plan --sysfs (a recorded machine's CPUID)", c->plan_cpuid);
    if (c->plan_sysfs && (rc = plan_machine(s, c)) >= 0)
        return rc;
    if (!load_topology(s)) {
        say(s, NULL, "cannot find any CPU (sysfs and affinity unreadable)");
        return 1;
    }
    open_info(s);
    return -1;
}

/* A step's records go to its parent too. */
typedef struct {
    sink base;
    session *parent;
} forward_sink;

static void forward_record(sink *k, const run_info *info, const result_record *r)
{
    (void)info;
    result_record copy;
    if (result_copy(&copy, r))
        session_emit(((forward_sink *)k)->parent, &copy);
}

static void forward_destroy(sink *k)
{
    free(k);
}

static const sink_ops forward_ops = {NULL, forward_record, NULL, forward_destroy, NULL};

int session_open_step(session *step, session *parent, const mode_def *m, int argc, char **argv, sink **sinks,
                      int nsinks)
{
    memset(step, 0, sizeof *step);
    for (int i = 0; i < nsinks; i++)
        session_add_sink(step, sinks[i]);
    forward_sink *f = calloc(1, sizeof *f);
    if (f) {
        f->base.ops = &forward_ops;
        f->parent = parent;
        session_add_sink(step, &f->base);
    }
    int rc = open_options(step, m, argc, argv, &parent->env, 0, parent->who);
    if (rc >= 0)
        return rc;
    if (!f) {
        say(step, "error", "out of memory");
        return 1;
    }
    step->parent = parent;
    step->topo = parent->topo; /* borrowed: have_topo stays false, so it is not freed twice */
    open_info(step);
    return -1;
}

/* The step's section as a row of the parent's "steps" table, its tables as
 * "MODE/TABLE" with the step's index in every row. */
static void merge_section(param_section *dst, const param_section *src, int index, const char *mode)
{
    param_list *row = table_add_row(section_table(dst, "steps"));
    params_int(row, "step", index);
    params_text(row, "mode", mode);
    params_merge(row, &src->values);
    for (size_t t = 0; t < src->ntables; t++) {
        char name[128];
        snprintf(name, sizeof name, "%s/%s", mode, src->tables[t].name);
        param_table *dt = section_table(dst, name);
        for (size_t i = 0; i < src->tables[t].nrows; i++) {
            param_list *r = table_add_row(dt);
            params_int(r, "step", index);
            params_merge(r, &src->tables[t].rows[i]);
        }
    }
}

void session_step_done(session *step, int index)
{
    session *p = step->parent;
    for (size_t i = 0; i < step->info.nwarnings; i++)
        run_info_warn(&p->info, step->info.warning_kinds[i], step->info.warnings[i]);
    for (size_t i = 0; i < step->info.nerrors; i++)
        run_info_error(&p->info, step->info.errors[i]);
    p->status = step->status > p->status ? step->status : p->status;
    p->failed = p->failed || step->failed;
    merge_section(&p->info.plan, &step->info.plan, index, step->mode->name);
    merge_section(&p->info.analysis, &step->info.analysis, index, step->mode->name);
}

/* The signals, and stdout's reader: a pipe whose reader went away stops the run as
 * SIGPIPE does, noticed between samples, not only at the next write. */
static void arm_stop(session *s)
{
    stop_reset();
    stop_install_signal_handlers();
    stop_watch_output(fileno(s->env.out));
}

/* --cache-probe always: the probe as a diagnostic before the plan (its findings go
 * to the topology's measured view; nothing is sized from them). It takes seconds,
 * so a signal during it stops the run as one during the measurement does, and -t
 * bounds it (a quarter of -t, which it may pass by twice; at most PROBE_BUDGET_S). */
#define PROBE_BUDGET_S 3.0
int session_plan(session *s)
{
    const common_options *c = session_common(s);
    bool probe = (s->mode->flags & MODE_DRAM_SIZES) && c->cache_probe == CACHE_PROBE_ALWAYS && s->env.live;
    if (c->plan && probe)
        params_text(&s->info.plan.values, "cache_probe",
                    "not run (--plan measures nothing): the run probes the last level first (about 1-3 s), a "
                    "diagnostic that sizes nothing");
    if (probe && !s->parent && !c->plan) {
        arm_stop(s);
        s->signals_armed = true;
        s->probe_start = clock_now();
        double budget = PROBE_BUDGET_S, limit = params_get_number(&s->info.options, "max_runtime_s", 0);
        if (limit > 0 && limit / 4 < budget) /* the probe may run to twice its budget */
            budget = limit / 4;
        cache_probe_into(&s->topo, budget, s->env.memory_budget);
    }
    return s->mode->plan ? s->mode->plan(s) : 0;
}

const char *session_stop_reason(const session *s)
{
    (void)s;
    int sig = stop_signal();
    if (sig)
        return stop_signal_name(sig);
    return stop_deadline_passed() ? "time limit" : NULL;
}

/* --json and --openmetrics. False when one cannot be opened now (its path changed
 * since it was checked): the sink said why, and the run ends before it measures. */
static bool open_documents(session *s, const common_options *c)
{
    sink *k;
    if (c->json_path) {
        if (!(k = json_sink_create(c->json_path, s->env.err, s->who)))
            return false;
        session_add_sink(s, k);
    }
    if (c->openmetrics_path) {
        if (!(k = openmetrics_sink_create(c->openmetrics_path, s->env.err, s->who)))
            return false;
        session_add_sink(s, k);
    }
    return true;
}

/* The plateau check a mode asked for (modes/dram_sizing.h), before the mode runs:
 * every usable CPU for bandwidth, the first for a chase. Its figures go to every
 * DRAM record and to the plan; a failure is said and leaves the records without. */
static void session_run_dram_check(session *s)
{
    size_t n = s->dram_check_kind == DRAM_FIGURE_LATENCY ? 1 : s->topo.usable.count;
    team_place *places = calloc(n ? n : 1, sizeof *places);
    int *cpus = calloc(n ? n : 1, sizeof *cpus);
    team *t = NULL;
    if (places && cpus) {
        for (size_t i = 0; i < n; i++) {
            cpus[i] = s->topo.usable.ids[i];
            places[i].cpus = (cpu_list){&cpus[i], 1};
        }
        t = n ? session_start_team(s, places, (int)n) : NULL;
    }
    measure_status ms = MEASURE_NO_MEMORY;
    if (t) {
        ms = dram_check_run(t, s->dram_check_kind, s->dram_check_footprint, &s->dram_check);
        team_destroy(t);
    }
    free(places);
    free(cpus);
    param_list *p = &s->info.plan.values;
    if (ms == MEASURE_OK) {
        params_text(p, "dram_check_verdict", s->dram_check.verdict);
        params_number(p, "dram_check_at_footprint", s->dram_check.at_footprint);
        params_number(p, "dram_check_at_twice", s->dram_check.at_twice);
        if (strcmp(s->dram_check.verdict, "dram") != 0)
            session_warn(s, WARN_MAY_FIT_CACHE,
                         "DRAM check: no source describes the last level, and the same kernel at twice the footprint "
                         "measured %.4g %s against %.4g at it: the DRAM figures may be a cache's",
                         s->dram_check.at_twice, s->dram_check.unit, s->dram_check.at_footprint);
    } else if (ms != MEASURE_STOPPED) {
        session_warn(s, WARN_NOT_MEASURED, "DRAM check: not run (%s)",
                     ms == MEASURE_NO_MEMORY ? "no memory or threads for it" : "a kernel failed");
    }
}

/* A topology warning's kind: a whole package's cache size used where no instance's
 * is known is a note (the headline says it); every other one changes the reading. */
static warn_kind topology_warning_kind(const topology *t, const char *w)
{
    return topology_warning_is_package_note(t, w) ? WARN_PACKAGE_CACHE : WARN_TOPOLOGY;
}

int session_measure(session *s)
{
    const common_options *c = session_common(s);
    /* Once the run is known to start: the topology's warnings, then the plan's;
     * JSON "warnings" lists every warning of the run in that order. -v says the
     * topology's with the topology, the plan's below; without -v, the end says
     * them all by kind. */
    run_info planned = {.warnings = s->info.warnings, .warning_kinds = s->info.warning_kinds,
                        .nwarnings = s->info.nwarnings};
    s->info.warnings = NULL;
    s->info.warning_kinds = NULL;
    s->info.nwarnings = 0;
    for (size_t i = 0; !s->parent && i < s->topo.nwarnings; i++) /* a step's parent has them */
        run_info_warn(&s->info, topology_warning_kind(&s->topo, s->topo.warnings[i]), s->topo.warnings[i]);
    for (size_t i = 0; i < planned.nwarnings; i++)
        run_info_warn(&s->info, planned.warning_kinds[i], planned.warnings[i]);
    if (c->verbose)
        session_add_sink(s, s->parent ? verbose_step_sink_create(s->env.err, c->verbose)
                                      : verbose_sink_create(s->env.err, c->verbose));
    if (s->mode->open_sinks && !s->parent) /* a step writes through its parent's sinks */
        s->mode->open_sinks(s);
    if (!s->parent && !open_documents(s, c)) {
        run_info_free(&planned);
        return s->info.exit_status = 2;
    }
    if (!s->parent && !c->verbose && !s->quiet_end) /* a step's warnings are its parent's to say */
        session_add_sink(s, warning_summary_sink_create(s->env.err, s->who));
    /* last, so the headline ends the run's text; on stderr, so stdout stays the peer's */
    if (!s->parent && !s->quiet_end)
        session_add_sink(s, headline_sink_create(s->env.err, s->who));
    if (!s->parent && !s->signals_armed) { /* a step runs under its parent's signals and deadline */
        arm_stop(s);
    }
    s->start = clock_now();
    if (!s->parent) {
        s->load_start = s->load_last = host_load_read();
        probe_host(s);
    }
    double max_runtime = params_get_number(&s->info.options, "max_runtime_s", 0);
    if (max_runtime > 0 && !s->parent) /* -t counts the probe before the plan too */
        stop_set_deadline((s->probe_start > 0 ? s->probe_start : s->start) + max_runtime);
    for (int i = 0; i < s->nsinks; i++)
        sink_begin(s->sinks[i], &s->info);
    /* the plan's warnings, after -v's account of the plan they are about */
    s->measuring = true;
    for (size_t i = 0; c->verbose && i < planned.nwarnings; i++)
        say(s, "warning", planned.warnings[i]);
    run_info_free(&planned);

    if (s->dram_check_kind && !session_stopped(s))
        session_run_dram_check(s);
    s->mode->run(s);
    if (!s->parent) {
        stop_disarm(); /* a deadline reached from here on cut nothing */
        if (!stop_signal()) /* a reader gone since the last look: what is left to write is lost */
            stop_check_output();
    }

    clear_progress(s);
    if (s->results.n == 0 && stop_deadline_passed())
        session_warn(s, WARN_ROUNDS_CUT, "the time limit (-t %g) ended the run before its first result", max_runtime);
    if (s->mode->analyse)
        s->mode->analyse(s);
    if (!s->parent)
        judge_host(s);
    int sig = stop_signal();
    /* the flag, not a poll: a deadline that passed after the last point cut nothing */
    s->info.complete = !stop_flagged() && !s->failed;
    s->info.stopped_by = session_stop_reason(s);
    if (!s->info.stopped_by && s->failed)
        s->info.stopped_by = "error";
    s->info.elapsed_s = clock_now() - s->start;
    s->info.exit_status = sig ? 128 + sig : s->status;
    for (int i = 0; i < s->nsinks; i++)
        sink_end(s->sinks[i], &s->info);
    return s->info.exit_status;
}

void session_close(session *s)
{
    for (int i = 0; i < s->nsinks; i++)
        sink_destroy(s->sinks[i]);
    if (s->mode && s->mode->release && s->state)
        s->mode->release(s);
    result_list_free(&s->results);
    cpuid_dump_free(&s->recorded_cpuid);
    free(s->probes);
    free(s->probe_at);
    free(s->mem_probes);
    noise_mem_probe_close(&s->mem_probe);
    run_info_free(&s->info);
    if (s->have_topo)
        topology_free(&s->topo);
    if (s->opts)
        options_free(s->opts);
    free(s->opts);
    free(s->state);
    memset(s, 0, sizeof *s);
}

/* Output that did not reach its file (a full disk, /dev/full, a sink's lost JSON)
 * is a failed run: said on stderr while it can be, and never exit status 0. */
static int check_output(session *s, int rc)
{
    bool lost = false;
    for (int i = 0; i < s->nsinks; i++)
        lost = lost || s->sinks[i]->failed;
    errno = 0;
    if ((fflush(s->env.out) != 0 || ferror(s->env.out)) && stop_signal() == SIGPIPE) {
        /* stdout's reader went away: the stop's doing (exit 141, also when it came
         * during the last lines), not an error to report */
        rc = rc ? rc : 128 + SIGPIPE;
    } else if (ferror(s->env.out)) {
        int e = errno;
        char msg[256];
        snprintf(msg, sizeof msg, "could not write the output (%s)", e ? strerror(e) : "write error");
        say(s, "error", msg);
        lost = true;
    }
    if (fflush(s->env.err) != 0 || ferror(s->env.err))
        lost = true; /* nowhere left to say it */
    return lost && rc == 0 ? 1 : rc;
}

/* --plan: the plan on stdout, and with --json a document of it (no results, plan
 * "plan_only" true); nothing measured, no buffer allocated. The exit status. */
static int session_say_plan(session *s)
{
    const common_options *c = session_common(s);
    for (size_t i = 0; i < s->topo.nwarnings; i++)
        run_info_warn(&s->info, topology_warning_kind(&s->topo, s->topo.warnings[i]), s->topo.warnings[i]);
    params_bool(&s->info.plan.values, "plan_only", true);
    params_text(&s->info.plan.values, "machine", s->env.live ? "this machine" : s->env.sysfs_root);
    plan_text_write(s->env.out, s->who, &s->info, &s->topo, s->env.live ? NULL : s->env.sysfs_root);
    if (!c->json_path)
        return 0;
    sink *k = json_sink_create(c->json_path, s->env.err, s->who);
    if (!k)
        return 1;
    session_add_sink(s, k);
    s->info.complete = true;
    sink_begin(k, &s->info);
    sink_end(k, &s->info);
    return k->failed ? 1 : 0;
}

int session_run(const mode_def *m, int argc, char **argv, const session_env *env)
{
    session s;
    int rc = session_open(&s, m, argc, argv, env);
    if (rc < 0 && (m->flags & MODE_STANDALONE)) {
        m->run(&s);
        rc = s.status;
    } else if (rc < 0) {
        rc = session_plan(&s);
        if (rc == 0 && session_common(&s)->plan)
            rc = session_say_plan(&s);
        else if (rc == 0)
            rc = session_measure(&s);
    }
    rc = check_output(&s, rc);
    session_close(&s);
    return rc;
}
