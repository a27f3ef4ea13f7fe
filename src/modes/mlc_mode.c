/* SPDX-License-Identifier: MIT */
/* `membench mlc`: Intel MLC's command line on membench's own modes. Plan: which
 * tests run (one, or MLC's default five), each translated into one or more steps,
 * a native mode's command line (latency-matrix, peak-bandwidth, bandwidth-matrix,
 * loaded-latency, c2c), every step opened and planned before anything is measured
 * so that bad input stops the run before it starts; run: the steps in turn, each
 * writing MLC's block (output/mlc_sink) and handing its records to this run's JSON.
 * The translation is in the plan's "commands" table (and -v). */
#include "modes/mlc_mode.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/mlc_options.h"
#include "modes/bandwidth_matrix_mode.h"
#include "modes/c2c_mode.h"
#include "modes/latency_matrix_mode.h"
#include "modes/loaded_latency_mode.h"
#include "modes/peak_mode.h"
#include "output/mlc_sink.h"

#define MLC_MAX_STEPS (TRAFFIC_MAX_DELAYS + 5)
#define MLC_MAX_ARGS 48
#define LATENCY_SAMPLES 7  /* latency-matrix takes 7-21 samples: -t sets 7 of them */
#define TRAFFIC_WINDOWS 6  /* peak-bandwidth and bandwidth-matrix: a warm-up and 5 samples */
#define LOADED_SAMPLES 10  /* loaded-latency: a discarded sample and 9 more */

typedef struct {
    const mode_def *mode;
    char *argv[MLC_MAX_ARGS];
    int argc;
    mlc_block_spec spec;
} mlc_step;

typedef struct {
    mlc_step steps[MLC_MAX_STEPS];
    int nsteps;
    session *sessions; /* one per step, opened and planned by the plan */
    int opened;
    bool overflow;     /* a step had more arguments than MLC_MAX_ARGS (cannot happen) */
    char banner[128];
    char arguments[1024];
    char traffic[160];
    char buffers[160]; /* MLC's "Using buffer size of ..." line, from the first step's plan */
    unsigned used;     /* which options some test of this run used (bits of option_bit) */
} mlc_state;

/* Options that only some tests use: an unused one is said to be ignored. */
enum {
    USE_A = 1u << 0, USE_C = 1u << 1, USE_I = 1u << 2, USE_J = 1u << 3, USE_K = 1u << 4, USE_X = 1u << 5,
    USE_T = 1u << 6, USE_B = 1u << 7, USE_D = 1u << 8, USE_MIX = 1u << 9, USE_U = 1u << 10, USE_L = 1u << 11,
    USE_W = 1u << 12, USE_H = 1u << 13, USE_CW = 1u << 14, USE_ISA = 1u << 15, USE_BUF = 1u << 16,
    USE_CR = 1u << 17
};

static void arg(mlc_state *st, mlc_step *p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void arg(mlc_state *st, mlc_step *p, const char *fmt, ...)
{
    if (p->argc == MLC_MAX_ARGS - 1) {
        st->overflow = true;
        return;
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p->argv[p->argc++] = strdup(buf);
}

static mlc_step *add_step(mlc_state *st, const mode_def *m, mlc_block block)
{
    if (st->nsteps == MLC_MAX_STEPS) {
        st->overflow = true;
        return NULL;
    }
    mlc_step *p = &st->steps[st->nsteps++];
    p->mode = m;
    p->spec = (mlc_block_spec){.block = block, .head = true, .blank_before = true};
    arg(st, p, "%s", m->name);
    return p;
}

/* What every step of a kind takes: -v, pages, kernel ISA. */
static void add_common(mlc_state *st, mlc_step *p, const mlc_options *o, bool traffic)
{
    for (int i = 0; i < o->common.verbose; i++)
        arg(st, p, "-v");
    if (o->pages && p->mode != &c2c_mode) {
        arg(st, p, "--pages");
        arg(st, p, "%s", o->pages);
    }
    if (o->isa && traffic) {
        arg(st, p, "--kernel");
        arg(st, p, "%s", o->isa);
        st->used |= USE_ISA;
    }
}

static void add_buffer(mlc_state *st, mlc_step *p, const mlc_options *o, const char *flag)
{
    if (o->buffer_given) {
        arg(st, p, "%s", flag);
        arg(st, p, "%lluK", (unsigned long long)(o->buffer_bytes >> 10));
        st->used |= USE_BUF;
    }
}

/* The traffic options the bandwidth tests share. */
static void add_traffic(mlc_state *st, mlc_step *p, const mlc_options *o, bool cpus)
{
    add_common(st, p, o, true);
    add_buffer(st, p, o, "--buffer");
    if (o->one_per_core)
        arg(st, p, "--one-per-core");
    if (cpus && o->cpus_flag) {
        char *list = cpu_list_format_alloc(o->common.cpus.ids, o->common.cpus.count);
        arg(st, p, "--cpus");
        arg(st, p, "%s", list ? list : "");
        free(list);
        st->used |= USE_K;
    }
    if (o->per_thread)
        arg(st, p, "--per-thread");
    if (o->random_traffic)
        arg(st, p, "--random");
    st->used |= USE_X | USE_B | USE_U;
}

static void add_window(mlc_state *st, mlc_step *p, const mlc_options *o)
{
    if (o->seconds_given) {
        arg(st, p, "--window-ms");
        arg(st, p, "%g", o->seconds * 1000 / TRAFFIC_WINDOWS);
    }
}

static void add_mix(mlc_state *st, mlc_step *p, const mlc_options *o, const char *fallback)
{
    const char *name = o->mix ? o->mix->name : fallback;
    if (name) {
        arg(st, p, "--traffic");
        arg(st, p, "%s", name);
    }
    st->used |= USE_MIX;
}

/* -D: the chaser's random range, for latency-matrix and loaded-latency alike. */
static void add_chase_range(mlc_state *st, mlc_step *p, const mlc_options *o)
{
    if (o->chase_range_given) {
        arg(st, p, "--chase-range");
        arg(st, p, "%llu", (unsigned long long)o->chase_range);
        st->used |= USE_CR;
    }
}

static void add_latency(mlc_state *st, mlc_step *p, const mlc_options *o)
{
    add_common(st, p, o, false);
    add_buffer(st, p, o, "--buffer");
    add_chase_range(st, p, o);
    if (o->stride_given) {
        arg(st, p, "--stride");
        arg(st, p, "%llu", (unsigned long long)o->stride);
        st->used |= USE_L;
    }
    if (o->seconds_given) {
        arg(st, p, "--sample-ms");
        arg(st, p, "%g", o->seconds * 1000 / LATENCY_SAMPLES);
    }
}

/* "Read-only", or the mix's name and what it does. */
static const char *traffic_text(mlc_state *st, const mlc_options *o)
{
    if (!o->mix || strcmp(o->mix->name, "R") == 0)
        return "Read-only";
    snprintf(st->traffic, sizeof st->traffic, "%s (%s)", o->mix->name, o->mix->description);
    return st->traffic;
}

static void plan_idle(session *s, mlc_state *st, const mlc_options *o, bool matrix)
{
    bool every = o->every_cpu;
    mlc_step *p = add_step(st, &latency_matrix_mode,
                           every ? MLC_BLOCK_EVERY_CPU : matrix ? MLC_BLOCK_LATENCY_MATRIX : MLC_BLOCK_IDLE);
    if (!p)
        return;
    st->used |= USE_A;
    add_latency(st, p, o);
    if (every)
        arg(st, p, "--every-cpu");
    if (!matrix && !every) {
        arg(st, p, "--cpu");
        arg(st, p, "%d", o->latency_cpu_given ? o->latency_cpu : s->topo.usable.ids[0]);
        st->used |= USE_C;
    }
    if (!matrix && (o->mem_node_given || o->touch_cpu_given)) {
        const cpu_info *c = o->touch_cpu_given ? topology_cpu(&s->topo, o->touch_cpu) : NULL;
        arg(st, p, "--mem-node");
        arg(st, p, "%d", c ? topology_memory_node(&s->topo, c->node) : o->mem_node);
        st->used |= USE_I | USE_J;
    }
}

static void plan_peak(mlc_state *st, const mlc_options *o, bool max)
{
    mlc_step *p = add_step(st, &peak_mode, max ? MLC_BLOCK_MAX : MLC_BLOCK_PEAK);
    if (!p)
        return;
    p->spec.one_per_core = o->one_per_core;
    p->spec.per_thread = o->per_thread;
    add_traffic(st, p, o, true);
    add_mix(st, p, o, NULL);
    add_window(st, p, o);
    if (max)
        arg(st, p, "--max");
    else if (o->ndelays == 1) {
        arg(st, p, "-d");
        arg(st, p, "%llu", (unsigned long long)o->delays[0]);
        st->used |= USE_D;
    }
}

static void plan_bandwidth_matrix(mlc_state *st, const mlc_options *o)
{
    mlc_step *p = add_step(st, &bandwidth_matrix_mode, MLC_BLOCK_BANDWIDTH_MATRIX);
    if (!p)
        return;
    p->spec.one_per_core = o->one_per_core;
    p->spec.traffic = traffic_text(st, o);
    add_traffic(st, p, o, false);
    add_mix(st, p, o, "R");
    add_window(st, p, o);
    if (o->ndelays == 1) {
        arg(st, p, "-d");
        arg(st, p, "%llu", (unsigned long long)o->delays[0]);
        st->used |= USE_D;
    }
}

static void delay_list(char *buf, size_t len, const uint64_t *d, int n)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%llu", i ? "," : "", (unsigned long long)d[i]);
}

static void plan_loaded(mlc_state *st, const mlc_options *o)
{
    const uint64_t *delays = o->ndelays ? o->delays : traffic_default_delays;
    int n = o->ndelays ? o->ndelays : traffic_default_ndelays;
    st->used |= USE_D | USE_T;
    if (o->traffic_only) { /* -T: bandwidth per delay, no latency thread: a peak step per delay */
        for (int i = 0; i < n; i++) {
            mlc_step *p = add_step(st, &peak_mode, MLC_BLOCK_TRAFFIC_ONLY);
            if (!p)
                return;
            p->spec.head = i == 0;
            p->spec.one_per_core = o->one_per_core;
            p->spec.per_thread = o->per_thread;
            p->spec.traffic = traffic_text(st, o);
            add_traffic(st, p, o, true);
            add_mix(st, p, o, "R");
            add_window(st, p, o);
            arg(st, p, "-d");
            arg(st, p, "%llu", (unsigned long long)delays[i]);
        }
        return;
    }
    mlc_step *p = add_step(st, &loaded_latency_mode, MLC_BLOCK_LOADED);
    if (!p)
        return;
    p->spec.one_per_core = o->one_per_core;
    p->spec.per_thread = o->per_thread;
    p->spec.traffic = traffic_text(st, o);
    add_traffic(st, p, o, true);
    add_mix(st, p, o, "R");
    if (o->ndelays) {
        char list[TRAFFIC_MAX_DELAYS * 12];
        delay_list(list, sizeof list, o->delays, o->ndelays);
        arg(st, p, "--delays");
        arg(st, p, "%s", list);
    }
    add_chase_range(st, p, o);
    if (o->latency_cpu_given) {
        arg(st, p, "--latency-cpu");
        arg(st, p, "%d", o->latency_cpu);
        st->used |= USE_C;
    }
    if (o->seconds_given) {
        arg(st, p, "--sample-ms");
        arg(st, p, "%g", o->seconds * 1000 / LOADED_SAMPLES);
    }
}

static void plan_c2c(mlc_state *st, const mlc_options *o)
{
    mlc_step *p = add_step(st, &c2c_mode, MLC_BLOCK_C2C);
    if (!p)
        return;
    add_common(st, p, o, false);
    if (o->writer_given && o->latency_cpu_given) {
        arg(st, p, "--writer");
        arg(st, p, "%d", o->writer);
        arg(st, p, "--reader");
        arg(st, p, "%d", o->latency_cpu);
        st->used |= USE_W | USE_C;
    }
    if (o->clean)
        arg(st, p, "--clean");
    if (o->window_given) {
        arg(st, p, "--window");
        arg(st, p, "%lluK", (unsigned long long)(o->window >> 10));
    }
    st->used |= USE_H | USE_CW;
}

/* -c, -i, -w, -k/-m name usable CPUs, -j a node with memory: said in MLC's terms. */
static int check_places(session *s, const mlc_options *o)
{
    const struct {
        bool given;
        char flag;
        int cpu;
    } cpus[] = {{o->latency_cpu_given, 'c', o->latency_cpu},
                {o->touch_cpu_given, 'i', o->touch_cpu},
                {o->writer_given, 'w', o->writer}};
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        const cpu_info *c = topology_cpu(&s->topo, cpus[i].cpu);
        if (cpus[i].given && (!c || !c->usable))
            return session_bad_input(s, "-%c %d: that CPU is not available to this process", cpus[i].flag,
                                     cpus[i].cpu);
    }
    for (size_t i = 0; o->cpus_flag && i < o->common.cpus.count; i++) {
        const cpu_info *c = topology_cpu(&s->topo, o->common.cpus.ids[i]);
        if (!c || !c->usable)
            return session_bad_input(s, "-%c: CPU %d is not available to this process", o->cpus_flag,
                                     o->common.cpus.ids[i]);
        if (o->latency_cpu_given && c->id == o->latency_cpu && o->test == MLC_LOADED_LATENCY && !o->traffic_only)
            return session_bad_input(s, "-c %d is also in -%c: the latency CPU makes no traffic", o->latency_cpu,
                                     o->cpus_flag);
    }
    if (o->mem_node_given) {
        const numa_node *n = topology_node(&s->topo, o->mem_node);
        if (!n || n->mem_total == 0)
            return session_bad_input(s, "-j %d: %s", o->mem_node,
                                     n ? "that NUMA node has no memory" : "no such NUMA node here");
    }
    size_t line = (size_t)topology_cache_level(&s->topo, 1).line_size;
    if (o->chase_range_given && (o->chase_range % line || (o->stride_given && o->chase_range % o->stride)))
        return session_bad_input(s, "-D %llu: not a whole number of %llu-byte chased lines (the cache line%s)",
                                 (unsigned long long)o->chase_range,
                                 (unsigned long long)(o->stride_given && o->stride > line ? o->stride : line),
                                 o->stride_given ? ", -l" : "");
    if (o->writer_given != o->latency_cpu_given && o->test == MLC_C2C)
        return session_bad_input(s, "--c2c_latency: -w (writer) and -c (reader) go together: one pair, or neither");
    if (o->buffer_given && o->buffer_bytes < (1u << 20) &&
        (o->test == MLC_DEFAULT || o->test == MLC_PEAK || o->test == MLC_MAX_BANDWIDTH ||
         o->test == MLC_BANDWIDTH_MATRIX || o->test == MLC_LOADED_LATENCY))
        return session_bad_input(s, "-b %lluK: the bandwidth tests need at least 1M per buffer",
                                 (unsigned long long)(o->buffer_bytes >> 10));
    return 0;
}

/* An option no test of this run uses: said, as MLC would not. */
static void warn_unused(session *s, const mlc_state *st, const mlc_options *o)
{
    const struct {
        bool given;
        unsigned use;
        const char *flag;
    } opts[] = {
        {o->every_cpu, USE_A, "-a"},
        {o->latency_cpu_given, USE_C, "-c"},
        {o->touch_cpu_given, USE_I, "-i"},
        {o->mem_node_given, USE_J, "-j"},
        {o->cpus_flag != 0, USE_K, o->cpus_flag == 'm' ? "-m" : "-k"},
        {o->one_per_core, USE_X, "-X"},
        {o->traffic_only, USE_T, "-T"},
        {o->per_thread, USE_B, "-B"},
        {o->delays_flag != 0, USE_D, o->delays_flag == 'g' ? "-g" : "-d"},
        {o->mix != NULL, USE_MIX, o->mix_flag},
        {o->random_traffic, USE_U, "-U"},
        {o->stride_given, USE_L, "-l"},
        {o->chase_range_given, USE_CR, "-D"},
        {o->writer_given, USE_W, "-w"},
        {o->clean, USE_H, "-H"},
        {o->window_given, USE_CW, "-C"},
        {o->isa != NULL, USE_ISA, o->isa && strcmp(o->isa, "avx2") == 0 ? "-Y" : "-Z"},
        {o->buffer_given, USE_BUF, "-b"},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (opts[i].given && !(st->used & opts[i].use))
            session_warn(s, WARN_OPTION_IGNORED, "%s does nothing for %s: ignored", opts[i].flag,
                         o->test == MLC_DEFAULT ? "MLC's default sequence" : mlc_test_flag(o->test));
}

static void describe(session *s, const mlc_state *st, const mlc_options *o)
{
    param_list *pl = &s->info.plan.values;
    params_text(pl, "test", o->test == MLC_DEFAULT ? "default" : mlc_test_flag(o->test) + 2);
    params_textf(pl, "method",
                 "%d step%s, each a membench mode with MLC's options translated (table commands); latency is a "
                 "random chase, the prefetchers are left alone",
                 st->nsteps, st->nsteps == 1 ? "" : "s");
    param_table *t = section_table(&s->info.plan, "commands");
    for (int i = 0; i < st->nsteps; i++) {
        char line[2048] = "membench";
        for (int a = 0; a < st->steps[i].argc; a++)
            snprintf(line + strlen(line), sizeof line - strlen(line), " %s", st->steps[i].argv[a]);
        param_list *row = table_add_row(t);
        params_int(row, "step", i);
        params_text(row, "mode", st->steps[i].mode->name);
        params_text(row, "command", line);
    }
}

static int mlc_plan(session *s)
{
    mlc_state *st = s->state;
    const mlc_options *o = s->opts;
    int rc = check_places(s, o);
    if (rc)
        return rc;
    switch (o->test) {
    case MLC_DEFAULT: /* MLC's order */
        plan_idle(s, st, o, true);
        plan_peak(st, o, false);
        plan_bandwidth_matrix(st, o);
        plan_loaded(st, o);
        plan_c2c(st, o);
        break;
    case MLC_IDLE_LATENCY:
        plan_idle(s, st, o, false);
        break;
    case MLC_LATENCY_MATRIX:
        plan_idle(s, st, o, true);
        break;
    case MLC_PEAK:
    case MLC_MAX_BANDWIDTH:
        plan_peak(st, o, o->test == MLC_MAX_BANDWIDTH);
        break;
    case MLC_BANDWIDTH_MATRIX:
        plan_bandwidth_matrix(st, o);
        break;
    case MLC_LOADED_LATENCY:
        plan_loaded(st, o);
        break;
    case MLC_C2C:
        plan_c2c(st, o);
        break;
    case MLC_NTESTS:
        break;
    }
    if (st->overflow) {
        session_error(s, "internal error: too many steps or arguments");
        return 1;
    }
    if (st->nsteps)
        st->steps[0].spec.blank_before = false;
    warn_unused(s, st, o);
    describe(s, st, o);
    st->sessions = calloc((size_t)st->nsteps, sizeof *st->sessions);
    if (!st->sessions) {
        session_error(s, "out of memory");
        return 1;
    }
    /* every step planned before any is measured: bad input stops the run before it starts */
    for (int i = 0; i < st->nsteps; i++) {
        mlc_step *p = &st->steps[i];
        sink *k = mlc_sink_create(s->env.out, &p->spec);
        st->opened = i + 1;
        rc = session_open_step(&st->sessions[i], s, p->mode, p->argc, p->argv, &k, k ? 1 : 0);
        if (rc < 0)
            rc = session_plan(&st->sessions[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* MLC's buffer line for one test (none for its default sequence or c2c), with the
 * sizes the first step planned: the chased buffer of a latency test; a traffic
 * test's read buffer and write buffer, each -b's size in MLC's line (a triad-like
 * mix reads two such buffers, as in MLC). MLC allocates the write buffer whatever
 * the traffic; membench only when the traffic writes, else the line says 0. */
static const char *buffer_line(mlc_state *st, const mlc_options *o)
{
    if (o->test == MLC_DEFAULT || o->test == MLC_C2C || st->nsteps == 0)
        return NULL;
    const param_list *plan = &st->sessions[0].info.plan.values;
    double mib = params_get_number(plan, "buffer_bytes", 0) / (1 << 20);
    if (o->test == MLC_IDLE_LATENCY || o->test == MLC_LATENCY_MATRIX) {
        snprintf(st->buffers, sizeof st->buffers, "Using buffer size of %.3fMiB", mib);
        return st->buffers;
    }
    double buffers = params_get_number(plan, "buffers_per_thread", 1);
    double writes = params_get_number(plan, "write_buffers_per_thread", 0);
    snprintf(st->buffers, sizeof st->buffers,
             "Using buffer size of %.3fMiB/thread for reads and an additional %.3fMiB/thread for writes",
             buffers > writes ? mib : 0, writes > 0 ? mib : 0);
    return st->buffers;
}

static void mlc_open_sinks(session *s)
{
    mlc_state *st = s->state;
    mlc_block_spec banner = {.block = MLC_BLOCK_BANNER,
                             .head = true,
                             .banner = st->banner,
                             .arguments = st->arguments,
                             .buffers = buffer_line(st, s->opts)};
    snprintf(st->banner, sizeof st->banner,
             "membench %s mlc: the tests of Intel(R) Memory Latency Checker, in its layout", MEMBENCH_VERSION);
    for (int i = 2; i < s->argc; i++)
        snprintf(st->arguments + strlen(st->arguments), sizeof st->arguments - strlen(st->arguments), "%s%s",
                 i > 2 ? " " : "", s->argv[i]);
    session_add_sink(s, mlc_sink_create(s->env.out, &banner));
}

static void mlc_run(session *s)
{
    mlc_state *st = s->state;
    for (int i = 0; i < st->nsteps && !session_stopped(s) && !s->failed; i++) {
        session *step = &st->sessions[i];
        session_measure(step);
        session_step_done(step, i);
        session_close(step); /* its buffers are gone before the next step allocates */
    }
}

static void mlc_release(session *s)
{
    mlc_state *st = s->state;
    for (int i = 0; st->sessions && i < st->opened; i++)
        if (st->sessions[i].mode) /* not closed by the run */
            session_close(&st->sessions[i]);
    free(st->sessions);
    for (int i = 0; i < st->nsteps; i++)
        for (int a = 0; a < st->steps[i].argc; a++)
            free(st->steps[i].argv[a]);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def mlc_mode = {
    .name = "mlc",
    .summary = "Intel MLC's command line and text layout (its default sequence with no test)",
    .options = &mlc_option_table,
    .options_size = sizeof(mlc_options),
    .defaults = mlc_options_defaults,
    .check = mlc_options_check,
    .state_size = sizeof(mlc_state),
    .plan = mlc_plan,
    .open_sinks = mlc_open_sinks,
    .run = mlc_run,
    .release = mlc_release,
    .flags = MODE_DRAM_SIZES,
};
