/* SPDX-License-Identifier: MIT */
#include "output/numa_sink.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"
typedef struct {
    sink base;
    FILE *f;
    numa_sink_spec spec;
} numa_sink;

/* --tight-loop's keys: perf's with a prefix, so no script reads them as perf's. */
static const char *key_prefix(const numa_sink *n)
{
    return n->spec.tight ? "tight-" : "";
}

static const char *quiet_prefix(const numa_sink *n)
{
    return n->spec.tight ? "tight-loop " : "";
}

/* One result line in perf's default or quiet layout; a run a stop cut short
 * (partial) gets a comment instead, never perf's "value, unit, key" form: perf
 * prints nothing for an interrupted run, and a script that scrapes its keys
 * (mmtests, lkp-tests) must not take the work so far as a result. */
static void line(const numa_sink *n, bool partial, double value, const char *unit, const char *metric,
                 const char *quiet_text)
{
    if (partial)
        fprintf(n->f, " # so far: %s%s = %.3f %.*s\n", key_prefix(n), metric, value, (int)strcspn(unit, ","), unit);
    else if (n->spec.quiet)
        fprintf(n->f, " %14.3f %s%s\n", value, quiet_prefix(n), quiet_text);
    else
        fprintf(n->f, " %-30s %15.3f, %-15s %s%s\n", n->spec.name, value, unit, key_prefix(n), metric);
}

static double plan_num(const run_info *info, const char *key)
{
    return params_get_number(&info->plan.values, key, 0);
}

/* perf's NOTE after a binding list, kept under -q as perf keeps it. */
static void note(FILE *f, const run_info *info, const char *key)
{
    const char *text = params_get_text(&info->plan.values, key);
    if (text)
        fprintf(f, "# NOTE: %s\n", text);
}

/* The binding block: perf's "# binding tasks to CPUs:" lines for -C and -M. */
static void bindings(FILE *f, const run_info *info)
{
    const param_table *t = section_find_table(&info->plan, "bindings");
    const char *cpus = params_get_text(&info->plan.values, "cpus_list");
    const char *nodes = params_get_text(&info->plan.values, "memnodes");
    if (cpus && t) {
        fputs("# binding tasks to CPUs:\n#  ", f);
        bool first = true;
        for (size_t i = 0; i < t->nrows; i++) {
            const char *c = params_get_text(&t->rows[i], "cpus");
            if (c && *c) {
                fprintf(f, "%s%s", first ? "" : ",", c);
                first = false;
            }
        }
        fputc('\n', f);
        note(f, info, "cpus_note");
    }
    if (nodes && t) {
        fputs("# binding tasks to NODEs:\n# ", f);
        bool first = true;
        for (size_t i = 0; i < t->nrows; i++) {
            int node = (int)params_get_number(&t->rows[i], "node", -1);
            if (node >= 0) {
                fprintf(f, first ? " %2d" : ",%2d", node);
                first = false;
            }
        }
        fputc('\n', f);
        note(f, info, "memnodes_note");
    }
}

/* perf's "Running test on:" line is uname -a: the system, host, release, ... and
 * machine; run_info's kernel is "system release machine". */
static void running_on(FILE *f, const run_info *info)
{
    char host[256], kernel[256]; /* the machine's names, shown as text */
    one_line_copy(host, sizeof host, info->hostname);
    one_line_copy(kernel, sizeof kernel, info->os_kernel);
    char *rest = strchr(kernel, ' ');
    if (rest)
        *rest++ = '\0';
    fprintf(f, " # Running test on: %s %s%s%s\n", kernel, host, rest ? " " : "", rest ? rest : "");
}

static void begin(sink *s, const run_info *info)
{
    numa_sink *n = (numa_sink *)s;
    FILE *f = n->f;
    if (n->spec.banner)
        fputs("# Running 'numa/mem' benchmark:\n", f);
    fprintf(f, "\n # Running %s \"%s\"\n", n->spec.name, n->spec.command);
    if (n->spec.role == NUMA_SINK_SUITE) {
        fputs(" #\n", f);
        running_on(f, info);
        fputs(" #\n", f);
        fflush(f);
        return;
    }
    const char *na = params_get_text(&info->plan.values, "not_applicable");
    if (na) { /* --if-applicable: perf's words, then why */
        fprintf(f, "\nTest not applicable, %s\n", na);
        fflush(f);
        return;
    }
    if (n->spec.quiet && n->spec.details == 0) { /* perf's -q keeps its NOTEs */
        note(f, info, "cpus_note");
        note(f, info, "memnodes_note");
        fflush(f);
        return;
    }
    fputs("#\n", f);
    bindings(f, info);
    int tasks = (int)plan_num(info, "tasks");
    double loops = plan_num(info, "loops");
    fprintf(f, "#\n\n ###\n # %d task%s will execute (on %d nodes, %d CPUs):\n", tasks, tasks == 1 ? "" : "s",
            (int)plan_num(info, "nodes"), (int)plan_num(info, "cpus"));
    fprintf(f, " #      %5dx %5ldMB global  shared mem operations\n", loops > 0 ? (int)loops : -1,
            (long)plan_num(info, "global_mb"));
    fprintf(f, " #      %5dx %5ldMB process shared mem operations\n", loops > 0 ? (int)loops : -1,
            (long)plan_num(info, "process_mb"));
    fprintf(f, " #      %5dx %5ldMB thread  local  mem operations\n", loops > 0 ? (int)loops : -1,
            (long)plan_num(info, "thread_mb"));
    fputs(" ###\n\n ###\n", f);
    fflush(f);
}

static double num(const result_record *r, const char *key)
{
    return params_get_number(&r->params, key, 0);
}

/* The rows of a table whose t_s is at: [*from, *to). */
static void rows_at(const param_table *t, double at, size_t *from, size_t *to)
{
    size_t i = 0;
    while (t && i < t->nrows && params_get_number(&t->rows[i], "t_s", 0) != at)
        i++;
    *from = *to = i;
    while (t && *to < t->nrows && params_get_number(&t->rows[*to], "t_s", 0) == at)
        (*to)++;
}

/* perf's -c progress line for one kept sample (analysis.convergence_samples), as
 * " #  %5.1f%%  [%.1f mins]" then per node " %2d/%-2d" (tasks/processes there),
 * " [%2d/%-2d]" (spread of tasks over nodes / process groups), " l:%3d-%-3d (%3d)"
 * (loops), " [%4.1f%%]" (loop skew), " {%d-%d}" (fewest-most nodes a process's
 * threads are on, when any process spans nodes) and " (%6.1fs converged)" at the
 * first converged sample, " (%6.1fs de-converged)" at the first after it that is
 * not: a whole line each, where perf rewrites one line with \r. */
static void perf_progress(FILE *f, const param_list *smp, const param_table *nodes, const param_table *procs,
                          int *was_converged)
{
    double at = params_get_number(smp, "t_s", 0);
    fprintf(f, " #  %5.1f%%  [%.1f mins]", params_get_number(smp, "progress_pct", 0), at / 60.0);
    size_t a, b;
    rows_at(nodes, at, &a, &b);
    int lo = -1, hi = 0, groups = 0;
    for (size_t k = a; k < b; k++) {
        int tasks = (int)params_get_number(&nodes->rows[k], "tasks", 0);
        int procs_here = (int)params_get_number(&nodes->rows[k], "processes", 0);
        fprintf(f, " %2d/%-2d", tasks, procs_here);
        lo = lo < 0 || tasks < lo ? tasks : lo;
        hi = tasks > hi ? tasks : hi;
        groups += procs_here;
    }
    fprintf(f, " [%2d/%-2d]", lo < 0 ? 0 : hi - lo, groups);
    long long lmin = (long long)params_get_number(smp, "loops_min", 0);
    long long lmax = (long long)params_get_number(smp, "loops_max", 0);
    fprintf(f, " l:%3lld-%-3lld (%3lld)", lmin, lmax, lmax - lmin);
    if (lmin > 0 && lmax > 0)
        fprintf(f, " [%4.1f%%]", (1.0 - (double)lmin / (double)lmax) * 100.0);
    rows_at(procs, at, &a, &b);
    int nmin = -1, nmax = 0;
    for (size_t k = a; k < b; k++) {
        int spans = (int)params_get_number(&procs->rows[k], "thread_nodes", 0);
        nmin = nmin < 0 || spans < nmin ? spans : nmin;
        nmax = spans > nmax ? spans : nmax;
    }
    if (a < b && !(nmin == 1 && nmax == 1))
        fprintf(f, " {%d-%d}", nmin, nmax);
    const param *c = params_find(smp, "converged");
    int now = c && c->kind == PARAM_BOOL ? c->flag : -1; /* null: one node, nothing to converge */
    if (now == 1 && *was_converged != 1)
        fprintf(f, " (%6.1fs converged)", at);
    else if (now == 0 && *was_converged == 1)
        fprintf(f, " (%6.1fs de-converged)", at);
    *was_converged = now;
    fputc('\n', f);
}

/* -c: per kept sample perf's progress line, then membench's placement of each
 * process (from analysis.convergence, a row per process):
 *  #    2.0 s  threads {0-0} {0-1}  memory {0 100%} {1 53%}  not converged */
static void convergence_lines(FILE *f, const run_info *info)
{
    const param_table *t = section_find_table(&info->analysis, "convergence");
    const param_table *samples = section_find_table(&info->analysis, "convergence_samples");
    const param_table *nodes = section_find_table(&info->analysis, "convergence_nodes");
    int was_converged = -1;
    for (size_t s = 0; samples && s < samples->nrows; s++) {
        perf_progress(f, &samples->rows[s], nodes, t, &was_converged);
        double at = params_get_number(&samples->rows[s], "t_s", 0);
        size_t i, end;
        rows_at(t, at, &i, &end);
        if (i == end)
            continue;
        fprintf(f, " # %6.1f s  threads", at);
        for (size_t k = i; k < end; k++) {
            int lo = (int)params_get_number(&t->rows[k], "thread_node_min", -1);
            int hi = (int)params_get_number(&t->rows[k], "thread_node_max", -1);
            if (lo < 0)
                fputs(" {?}", f);
            else
                fprintf(f, " {%d-%d}", lo, hi);
        }
        fputs("  memory", f);
        for (size_t k = i; k < end; k++) {
            int node = (int)params_get_number(&t->rows[k], "mem_node", -1);
            if (node < 0)
                fputs(" {-}", f);
            else
                fprintf(f, " {%d %.0f%%}", node, params_get_number(&t->rows[k], "mem_share", 0) * 100);
        }
        const param *c = params_find(&t->rows[i], "converged");
        fprintf(f, "  %s\n", !c || c->kind != PARAM_BOOL ? "nothing to converge"
                             : c->flag                  ? "converged"
                                                        : "not converged");
    }
}

/* An address as perf's %p prints it (glibc: 0x... or (nil)). */
static const char *address(char *buf, size_t len, double v)
{
    if (v <= 0)
        snprintf(buf, len, "(nil)");
    else
        snprintf(buf, len, "0x%" PRIxPTR, (uintptr_t)v);
    return buf;
}

/* -d: perf's lines of the start, from analysis.tasks: each process's PID (-d), where
 * its memory is mapped (-d -d -d) and each thread's (-d -d). perf prints them as the
 * tasks start, inside its "Startup synchronization: ..." line; here whole lines,
 * before it. */
static void start_details(FILE *f, const run_info *info, int details)
{
    const param_table *t = section_find_table(&info->analysis, "tasks");
    char g[32], pr[32], th[32];
    for (size_t i = 0; t && i < t->nrows; i++) {
        const param_list *row = &t->rows[i];
        if (params_get_number(row, "thread", 0) == 0)
            fprintf(f, " # process %2d: PID %d\n", (int)params_get_number(row, "process", 0),
                    (int)params_get_number(row, "pid", 0));
    }
    for (size_t i = 0; details >= 2 && t && i < t->nrows; i++) {
        const param_list *row = &t->rows[i];
        int p = (int)params_get_number(row, "process", 0), k = (int)params_get_number(row, "thread", 0);
        address(g, sizeof g, params_get_number(row, "global_addr", 0));
        address(pr, sizeof pr, params_get_number(row, "process_addr", 0));
        if (details >= 3 && k == 0)
            fprintf(f, " # process %2d global mem: %s, process mem: %s\n", p, g, pr);
        fprintf(f, "#  thread %2d / %2d global mem: %s, process mem: %s, thread mem: %s\n", p, k, g, pr,
                address(th, sizeof th, params_get_number(row, "thread_addr", 0)));
    }
}

/* -d with -x: perf's line for each move of task 0 (analysis.moves), then how many
 * more there were beyond those kept. */
static void move_lines(FILE *f, const run_info *info)
{
    const param_table *m = section_find_table(&info->analysis, "moves");
    const param_table *t = section_find_table(&info->analysis, "tasks");
    for (size_t i = 0; m && i < m->nrows; i++)
        fprintf(f, " (injecting perturbalance, moved to CPU#%d)\n", (int)params_get_number(&m->rows[i], "cpu", -1));
    double all = t && t->nrows ? params_get_number(&t->rows[0], "perturbations", 0) : 0;
    if (all > (double)(m ? m->nrows : 0))
        fprintf(f, " # and %.0f more moves of task 0 (-x)\n", all - (double)(m ? m->nrows : 0));
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    numa_sink *n = (numa_sink *)s;
    FILE *f = n->f;
    if (n->spec.role == NUMA_SINK_SUITE)
        return; /* each test's own sink wrote it */
    bool decorated = !(n->spec.quiet && n->spec.details == 0);
    bool serialized = params_find(&info->plan.values, "serialize") && params_find(&info->plan.values, "serialize")->flag;
    if (decorated && serialized)
        fputs(" #\n", f);
    if (decorated && n->spec.details >= 1)
        start_details(f, info, n->spec.details);
    if (decorated && serialized)
        fprintf(f, " # Startup synchronization: ... threads initialized in %.6f seconds.\n #\n",
                num(r, "startup_s"));
    if (decorated && n->spec.details >= 1)
        move_lines(f, info);
    if (decorated && n->spec.show_convergence)
        convergence_lines(f, info);
    const char *conv = params_get_text(&r->params, "convergence");
    if (conv)
        fprintf(f, " # %s\n", conv);
    if (decorated)
        fputs("\n ###\n\n", f);
    bool partial = !r->complete;
    if (partial)
        fputs(" # stopped: the work so far, not a result (perf prints nothing here)\n", f);
    if (n->spec.convergence)
        line(n, partial, num(r, "convergence_latency_s"), "secs,", "NUMA-convergence-latency",
             "secs latency to NUMA-converge");
    line(n, partial, num(r, "runtime_max_s"), "secs,", "runtime-max/thread", "secs slowest (max) thread-runtime");
    line(n, partial, num(r, "runtime_min_s"), "secs,", "runtime-min/thread", "secs fastest (min) thread-runtime");
    line(n, partial, num(r, "runtime_avg_s"), "secs,", "runtime-avg/thread", "secs average thread-runtime");
    line(n, partial, num(r, "spread_runtime_pct"), "%,", "spread-runtime/thread",
         "% difference between max/avg runtime"); /* perf's text; the amount is (max-min)/2/max */
    line(n, partial, num(r, "data_per_thread_gb"), "GB,", "data/thread", "GB data processed, per thread");
    line(n, partial, num(r, "data_total_gb"), "GB,", "data-total", "GB data processed, total");
    line(n, partial, num(r, "runtime_per_byte_ns"), "nsecs,", "runtime/byte/thread", "nsecs/byte/thread runtime");
    line(n, partial, num(r, "thread_speed_gb_s"), "GB/sec,", "thread-speed", "GB/sec/thread speed");
    line(n, partial, num(r, "total_speed_gb_s"), "GB/sec,", "total-speed", "GB/sec total speed");
    const param_table *t = n->spec.details >= 2 ? section_find_table(&info->analysis, "tasks") : NULL;
    for (size_t i = 0; t && i < t->nrows; i++) {
        const param_list *row = &t->rows[i];
        char who[48];
        snprintf(who, sizeof who, "process%d:thread%d", (int)params_get_number(row, "process", 0),
                 (int)params_get_number(row, "thread", 0));
        static const char *const keys[][4] = {{"gb_s", "GB/sec", "thread-speed", "GB/sec/thread speed"},
                                               {"system_s", "secs", "thread-system-time", "system CPU time/thread"},
                                               {"user_s", "secs", "thread-user-time", "user CPU time/thread"}};
        for (size_t k = 0; k < 3; k++) {
            double v = params_get_number(row, keys[k][0], 0);
            if (partial)
                fprintf(f, " # so far: %s %s%s = %.3f %s\n", who, key_prefix(n), keys[k][2], v, keys[k][1]);
            else if (n->spec.quiet)
                fprintf(f, " %14.3f %s%s\n", v, quiet_prefix(n), keys[k][3]);
            else
                fprintf(f, " %-30s %15.3f, %-15s %s%s\n", who, v, keys[k][1], key_prefix(n), keys[k][2]);
        }
    }
    fflush(f);
}

/* The suite's steps that say key (in their plan or analysis): listed with why. */
static size_t count_steps(const param_table *steps, const char *key)
{
    size_t k = 0;
    for (size_t i = 0; steps && i < steps->nrows; i++)
        k += params_get_text(&steps->rows[i], key) != NULL;
    return k;
}

static void list_steps(FILE *f, const param_table *steps, const char *key, const param_table *tests)
{
    for (size_t i = 0; steps && i < steps->nrows; i++) {
        const char *why = params_get_text(&steps->rows[i], key);
        int t = (int)params_get_number(&steps->rows[i], "step", -1);
        if (why && tests && t >= 0 && (size_t)t < tests->nrows)
            fprintf(f, " #   %s %s\n", params_get_text(&tests->rows[t], "name"), why);
    }
}

/* One run: a stop that cut it short, after its figures or instead of them (perf
 * prints none for an interrupted run; zeros would read as results). -a: which
 * tests ran, which could not and which the stop cut short, after the last. */
static void end(sink *s, const run_info *info)
{
    numa_sink *n = (numa_sink *)s;
    if (n->spec.role != NUMA_SINK_SUITE) {
        const char *unfinished = params_get_text(&info->analysis.values, "unfinished");
        if (unfinished)
            fprintf(n->f, " # %s\n", unfinished);
        fflush(n->f);
        return;
    }
    const param_table *tests = section_find_table(&info->plan, "tests");
    const param_table *steps = section_find_table(&info->plan, "steps");
    const param_table *done_steps = section_find_table(&info->analysis, "steps");
    size_t planned = tests ? tests->nrows : 0, done = steps ? steps->nrows : 0;
    size_t na = count_steps(steps, "not_applicable"), cut = count_steps(done_steps, "unfinished");
    fprintf(n->f, "\n # Suite: %zu of %zu tests ran, %zu not applicable", done - na - cut, planned, na);
    if (cut)
        fprintf(n->f, ", %zu stopped unfinished", cut);
    fprintf(n->f, "%s\n", done < planned ? ", the rest not reached (stopped)" : "");
    list_steps(n->f, steps, "not_applicable", tests);
    list_steps(n->f, done_steps, "unfinished", tests);
    fflush(n->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *numa_sink_create(FILE *f, const numa_sink_spec *spec)
{
    numa_sink *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->base.ops = &ops;
    n->f = f;
    n->spec = *spec;
    return &n->base;
}
