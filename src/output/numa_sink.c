#include "output/numa_sink.h"

#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"
typedef struct {
    sink base;
    FILE *f;
    numa_sink_spec spec;
} numa_sink;

/* One result line in perf's default or quiet layout. */
static void line(const numa_sink *n, double value, const char *unit, const char *metric, const char *quiet_text)
{
    if (n->spec.quiet)
        fprintf(n->f, " %14.3f %s\n", value, quiet_text);
    else
        fprintf(n->f, " %-30s %15.3f, %-15s %s\n", n->spec.name, value, unit, metric);
}

static double plan_num(const run_info *info, const char *key)
{
    return params_get_number(&info->plan.values, key, 0);
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
    }
    const char *note = params_get_text(&info->plan.values, "binding_note");
    if (note)
        fprintf(f, "# NOTE: %s\n", note);
}

static void begin(sink *s, const run_info *info)
{
    numa_sink *n = (numa_sink *)s;
    FILE *f = n->f;
    fprintf(f, "\n # Running %s \"%s\"\n", n->spec.name, n->spec.command);
    if (n->spec.role == NUMA_SINK_SUITE) {
        char host[256], kernel[256]; /* the machine's names, shown as text */
        fprintf(f, " #\n # Running test on: %s %s\n #\n", one_line_copy(host, sizeof host, info->hostname),
                one_line_copy(kernel, sizeof kernel, info->os_kernel));
        fflush(f);
        return;
    }
    const char *na = params_get_text(&info->plan.values, "not_applicable");
    if (na) { /* --if-applicable: perf's words, then why */
        fprintf(f, "\nTest not applicable, %s\n", na);
        fflush(f);
        return;
    }
    if (n->spec.quiet && n->spec.details == 0) {
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

/* -c: one line per kept sample, from analysis.convergence (a row per process):
 *  #    2.0 s  threads {0-0} {0-1}  memory {0 100%} {1 53%}  not converged */
static void convergence_lines(FILE *f, const run_info *info)
{
    const param_table *t = section_find_table(&info->analysis, "convergence");
    for (size_t i = 0; t && i < t->nrows;) {
        double at = params_get_number(&t->rows[i], "t_s", 0);
        size_t end = i;
        while (end < t->nrows && params_get_number(&t->rows[end], "t_s", 0) == at)
            end++;
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
        fprintf(f, "  %s\n", c && c->flag ? "converged" : "not converged");
        i = end;
    }
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    numa_sink *n = (numa_sink *)s;
    FILE *f = n->f;
    if (n->spec.role == NUMA_SINK_SUITE)
        return; /* each test's own sink wrote it */
    bool decorated = !(n->spec.quiet && n->spec.details == 0);
    if (decorated && params_find(&info->plan.values, "serialize") &&
        params_find(&info->plan.values, "serialize")->flag)
        fprintf(f, " #\n # Startup synchronization: ... threads initialized in %.6f seconds.\n #\n",
                num(r, "startup_s"));
    if (n->spec.show_convergence)
        convergence_lines(f, info);
    const char *conv = params_get_text(&r->params, "convergence");
    if (conv)
        fprintf(f, " # %s\n", conv);
    if (decorated)
        fputs("\n ###\n\n", f);
    if (n->spec.convergence)
        line(n, num(r, "convergence_latency_s"), "secs,", "NUMA-convergence-latency", "secs latency to NUMA-converge");
    line(n, num(r, "runtime_max_s"), "secs,", "runtime-max/thread", "secs slowest (max) thread-runtime");
    line(n, num(r, "runtime_min_s"), "secs,", "runtime-min/thread", "secs fastest (min) thread-runtime");
    line(n, num(r, "runtime_avg_s"), "secs,", "runtime-avg/thread", "secs average thread-runtime");
    line(n, num(r, "spread_runtime_pct"), "%,", "spread-runtime/thread",
         "% difference between max/avg runtime"); /* perf's text; the amount is (max-min)/2/max */
    line(n, num(r, "data_per_thread_gb"), "GB,", "data/thread", "GB data processed, per thread");
    line(n, num(r, "data_total_gb"), "GB,", "data-total", "GB data processed, total");
    line(n, num(r, "runtime_per_byte_ns"), "nsecs,", "runtime/byte/thread", "nsecs/byte/thread runtime");
    line(n, num(r, "thread_speed_gb_s"), "GB/sec,", "thread-speed", "GB/sec/thread speed");
    line(n, num(r, "total_speed_gb_s"), "GB/sec,", "total-speed", "GB/sec total speed");
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
            if (n->spec.quiet)
                fprintf(f, " %14.3f %s\n", v, keys[k][3]);
            else
                fprintf(f, " %-30s %15.3f, %-15s %s\n", who, v, keys[k][1], keys[k][2]);
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

static const sink_ops ops = {begin, record, end, destroy};

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
