/* SPDX-License-Identifier: MIT */
/* `membench c2c`: cache-to-cache transfer latency (measure/c2c.h says what state
 * the lines are in). Plan: which writer/reader pairs, in which state, with memory
 * homed where (plan/c2c_plan.h): a local pair and writer node x reader node
 * matrices by default, one pair (--writer/--reader), or a CPU x CPU matrix
 * (--matrix). Run: one team of two pinned threads per pair, each result emitted
 * as it is measured. */
#include "modes/c2c_mode.h"

#include <stdlib.h>
#include <string.h>

#include "cli/c2c_options.h"
#include "measure/c2c.h"
#include "output/c2c_sink.h"
#include "plan/c2c_plan.h"
#include "platform/platform.h"

#define MIN_SAMPLES 7
#define MAX_SAMPLES 21
#define MATRIX_SAMPLES 5   /* --matrix: n*(n-1) pairs, so a fixed, small count */
#define SECOND_VISIT_SAMPLES 3 /* the agreement check (c2c_add_visit): two or more make a level */
#define CV_TARGET 0.05
#define WAIT_TIMEOUT_S 30  /* a partner silent this long has failed (TCG guests are slow) */
#define LINE_BYTES 64

typedef struct {
    int writer, reader, home;
    c2c_state state;
    const char *kind;    /* "local", "node", "pair", "matrix" */
    const char *home_of; /* "writer", "reader", "--home" */
    bool siblings;
    uint64_t window;
} c2c_cell;

typedef struct {
    c2c_cell *cells;
    size_t ncells, cap;
    int samples_min, samples_max;
    page_request pages;
    uint64_t huge_size;
    uint64_t evict_bytes; /* 0: no eviction buffer needed */
    buffer evict;
    bool have_evict;
    size_t failed;
    result_record *first; /* each cell's first visit, until its second */
    bool *visited;
} c2c_run_state;

static bool add_cell(c2c_run_state *st, c2c_cell c)
{
    if (st->ncells == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 16;
        c2c_cell *n = realloc(st->cells, cap * sizeof *n);
        if (!n)
            return false;
        st->cells = n;
        st->cap = cap;
    }
    st->cells[st->ncells++] = c;
    return true;
}

static int usable_cpu(session *s, const char *flag, int cpu)
{
    const cpu_info *ci = topology_cpu(&s->topo, cpu);
    if (!ci || !ci->usable)
        return session_bad_input(s, "%s %d: not available to this process", flag, cpu);
    return 0;
}

/* The home of a pair: --home, else the writer's or the reader's memory node. */
static int home_for(session *s, const c2c_options *o, const c2c_cell *c, const char **of)
{
    if (o->home_given) {
        *of = "--home";
        return o->home;
    }
    return c2c_home_of_cpu(&s->topo, strcmp(*of, "reader") == 0 ? c->reader : c->writer);
}

/* Adds writer -> reader in every state asked, homed as asked. */
static int add_pair(session *s, const c2c_options *o, int w, int r, const char *kind, const char *home_of,
                    bool siblings, bool both_states)
{
    c2c_run_state *st = s->state;
    for (int k = 0; k < (both_states && !o->clean ? 2 : 1); k++) {
        /* both: HIT first, then HITM, in MLC's order */
        bool hit = o->clean || (both_states && k == 0);
        c2c_cell c = {w, r, -1, hit ? C2C_HIT : C2C_HITM, kind, home_of, siblings, o->window};
        c.home = home_for(s, o, &c, &c.home_of);
        if (!c.window)
            c.window = c2c_default_window(&s->topo, w);
        if (!add_cell(st, c)) {
            session_fail(s, "out of memory while planning");
            return 1;
        }
    }
    return 0;
}

/* Writer node x reader node, one representative CPU per node, each state, each homing. */
static int plan_node_matrices(session *s, const c2c_options *o, const c2c_pair *local, bool have_local)
{
    size_t cap = s->topo.nnodes;
    int *nodes = calloc(cap ? cap : 1, sizeof *nodes), *cpus = calloc(cap ? cap : 1, sizeof *cpus);
    int avoid[2] = {have_local ? local->writer : -1, have_local ? local->reader : -1};
    size_t n = nodes && cpus ? c2c_node_representatives(&s->topo, avoid, 2, nodes, cpus, cap) : 0;
    int rc = 0;
    static const char *const homings[] = {"writer", "reader"};
    for (int state = 0; n >= 2 && state < (o->clean ? 1 : 2) && rc == 0; state++) /* HIT, then HITM */
        for (int h = 0; h < (o->home_given ? 1 : 2) && rc == 0; h++)
            for (size_t i = 0; i < n && rc == 0; i++)
                for (size_t j = 0; j < n && rc == 0; j++) {
                    if (i == j)
                        continue;
                    c2c_options one = *o;
                    one.clean = o->clean || state == 0;
                    rc = add_pair(s, &one, cpus[i], cpus[j], "node", homings[h], false, false);
                }
    free(nodes);
    free(cpus);
    return rc;
}

static int plan_default(session *s, const c2c_options *o)
{
    c2c_pair local;
    bool siblings_only = false;
    bool have = c2c_local_pair(&s->topo, o->smt, &local, &siblings_only);
    if (!have && o->smt)
        return session_bad_input(s, "--smt: no two usable CPUs are SMT siblings of one core");
    if (!have)
        session_warn(s, WARN_PLACEMENT, "no two usable CPUs share a NUMA node: no local pair");
    else if (siblings_only)
        session_warn(s, WARN_PLACEMENT, "the local pair CPU %d, CPU %d are SMT siblings of one core (no node has two usable cores): "
                        "their lines never leave the core",
                     local.writer, local.reader);
    if (have && add_pair(s, o, local.writer, local.reader, "local", "writer", local.siblings, true))
        return 1;
    return plan_node_matrices(s, o, &local, have);
}

static int plan_matrix(session *s, const c2c_options *o)
{
    cpu_list l = {NULL, 0};
    if (o->cpus && !cpu_list_parse(o->cpus, &l))
        return session_bad_input(s, "--cpus '%s': not a CPU list", o->cpus);
    const int *ids = o->cpus ? l.ids : s->topo.usable.ids;
    size_t n = o->cpus ? l.count : s->topo.usable.count;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = usable_cpu(s, "--cpus: CPU", ids[i]);
    c2c_pair *pairs = rc == 0 ? calloc(n * (n - 1) + 1, sizeof *pairs) : NULL;
    size_t np = pairs ? c2c_matrix_pairs(ids, n, pairs) : 0;
    for (size_t k = 0; k < np && rc == 0; k++)
        rc = add_pair(s, o, pairs[k].writer, pairs[k].reader, "matrix", "writer", false, false);
    if (rc == 0 && !pairs)
        rc = session_bad_input(s, "--matrix: out of memory for %zu pairs", n * (n - 1));
    free(pairs);
    cpu_list_free(&l);
    return rc;
}

/* The largest buffer a pair needs, and the eviction buffer, against the budget. */
static int check_memory(session *s, c2c_run_state *st, const c2c_options *o)
{
    uint64_t need = 0, window = 0;
    for (size_t i = 0; i < st->ncells; i++) {
        uint64_t b = (uint64_t)(st->samples_max + 1) * st->cells[i].window;
        b += st->huge_size - 1;
        b -= b % st->huge_size; /* THP: whole huge pages */
        if (b > need) {
            need = b;
            window = st->cells[i].window;
        }
        if (st->cells[i].state == C2C_HIT && !c2c_hit_flushes())
            st->evict_bytes = c2c_eviction_bytes(&s->topo);
    }
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    if (st->evict_bytes > budget / 4) {
        session_warn(s, WARN_SIZES_LEFT_OUT, "HIT: %llu MiB of eviction reads would exceed a quarter of the memory budget; using %llu MiB, "
                        "so some lines may stay cached (modified)",
                     (unsigned long long)(st->evict_bytes >> 20), (unsigned long long)(budget / 4 >> 20));
        st->evict_bytes = budget / 4 - budget / 4 % 4096;
    }
    if (need + st->evict_bytes > budget)
        return session_bad_input(s, "--window %llu KiB: %d windows need %llu MiB, more than can be allocated safely "
                                    "(%llu MiB)",
                                 (unsigned long long)(window >> 10), st->samples_max + 1,
                                 (unsigned long long)(need >> 20), (unsigned long long)(budget >> 20));
    (void)o;
    return 0;
}

static int check_home(session *s, const c2c_options *o)
{
    if (!o->home_given)
        return 0;
    const numa_node *n = topology_node(&s->topo, o->home);
    if (!n || n->mem_total == 0)
        return session_bad_input(s, "--home %d: %s", o->home,
                                 n ? "that NUMA node has no memory" : "no such NUMA node here");
    return 0;
}

static void describe(session *s, const c2c_options *o)
{
    c2c_run_state *st = s->state;
    param_list *p = &s->info.plan.values;
    const char *what = o->matrix ? "CPU x CPU matrix" : o->writer_given ? "one pair" : "local pair and node matrices";
    params_textf(p, "method", "%s; %zu measurements; fresh windows of 64-byte lines per sample, chased in random "
                              "order; %d-%d samples, then %d more once every pair has had its first, median of all",
                 what, st->ncells, st->samples_min, st->samples_max, SECOND_VISIT_SAMPLES);
    params_textf(p, "hit_lines",
                 "HIT: every window written back and out of all caches (%s%s), then only read by the writer: clean "
                 "(Exclusive) in its caches, up to date in memory; an inclusive L3 may answer for it",
                 c2c_hit_method(), c2c_hit_flushes() ? "" : ", twice the largest cache");
    params_text(p, "hitm_lines",
                "HITM: the writer has just stored to every line: Modified in its L1/L2, in no other cache");
    params_text(p, "source", "a line may come from the writer's L1/L2, a shared L3, another CCX or socket, or memory");
    params_int(p, "min_samples", st->samples_min);
    params_int(p, "max_samples", st->samples_max);
    params_number(p, "cv_target", CV_TARGET);
    params_int(p, "eviction_bytes", (long long)st->evict_bytes);
    params_number(p, "wait_timeout_s", WAIT_TIMEOUT_S);
    snprintf(s->info.placement.policy, sizeof s->info.placement.policy,
             "writer (thread 0) and reader (thread 1) pinned per pair; see each result");
    s->info.placement.pinned = true;
    param_table *pairs = section_table(&s->info.plan, "pairs");
    for (size_t i = 0; i < st->ncells; i++) {
        const c2c_cell *c = &st->cells[i];
        param_list *row = table_add_row(pairs);
        params_text(row, "kind", c->kind);
        params_int(row, "writer_cpu", c->writer);
        params_int(row, "reader_cpu", c->reader);
        params_text(row, "state", c2c_state_name(c->state));
        params_int(row, "home_node", c->home);
        params_text(row, "home_of", c->home_of);
        params_bool(row, "smt_siblings", c->siblings);
        params_int(row, "window_bytes", (long long)c->window);
    }
}

static int c2c_plan(session *s)
{
    c2c_run_state *st = s->state;
    const c2c_options *o = s->opts;
    if (s->topo.usable.count < 2)
        return session_bad_input(s, "needs two CPUs (a writer and a reader), but this process may run on CPU %d only "
                                    "(taskset or cpuset)",
                                 s->topo.usable.count ? s->topo.usable.ids[0] : -1);
    int rc = check_home(s, o);
    st->samples_min = o->matrix ? MATRIX_SAMPLES : MIN_SAMPLES;
    st->samples_max = o->matrix ? MATRIX_SAMPLES : MAX_SAMPLES;
    st->huge_size = topology_huge_page_size(&s->topo);
    st->pages = strcmp(s->topo.thp_mode, "never") != 0 ? PAGES_THP : PAGES_NORMAL; /* no TLB misses in a window */
    if (rc == 0 && o->writer_given) {
        rc = usable_cpu(s, "--writer", o->writer);
        if (rc == 0)
            rc = usable_cpu(s, "--reader", o->reader);
        if (rc == 0)
            rc = add_pair(s, o, o->writer, o->reader, "pair", "writer", false, false);
    } else if (rc == 0 && o->matrix) {
        rc = plan_matrix(s, o);
    } else if (rc == 0) {
        rc = plan_default(s, o);
    }
    if (rc == 0)
        rc = check_memory(s, st, o);
    if (rc == 0)
        describe(s, o);
    return rc;
}

static void c2c_open_sinks(session *s)
{
    const c2c_options *o = s->opts;
    session_add_sink(s, c2c_sink_create(s->env.out, o->csv));
}

/* Data the writer reads to evict lines where there is no flush instruction. */
static bool make_eviction_buffer(session *s, c2c_run_state *st)
{
    if (st->evict_bytes == 0)
        return true;
    if (!buffer_alloc(&st->evict, st->evict_bytes, PAGES_NORMAL, 0, -1)) {
        session_fail(s, "cannot allocate the %llu MiB HIT eviction buffer", (unsigned long long)(st->evict_bytes >> 20));
        return false;
    }
    st->have_evict = true;
    return buffer_fill(&st->evict, 1);
}

/* One visit of a cell into r (its mode, operation and placement set); false when
 * it gave no record (said: skipped, or the run failed or stopped). */
static bool visit_cell(session *s, const c2c_cell *c, size_t i, int visit, result_record *r)
{
    c2c_run_state *st = s->state;
    session_progress(s, "[%zu/%zu] %s CPU %d -> CPU %d, home node %d%s", i + 1, st->ncells, c2c_state_name(c->state),
                     c->writer, c->reader, c->home, visit ? ", again" : "");
    session_step_begin(s);
    team_place tp[2] = {{{(int *)&c->writer, 1}}, {{(int *)&c->reader, 1}}};
    team *t = session_start_team(s, tp, 2);
    if (!t)
        return false; /* said: the run has failed */
    int min = visit ? SECOND_VISIT_SAMPLES : st->samples_min, max = visit ? SECOND_VISIT_SAMPLES : st->samples_max;
    c2c_request rq = {c->writer,       c->reader,       c->home,        c->state,
                      c->window,       LINE_BYTES,      min,            max,
                      CV_TARGET,       st->pages,       st->huge_size,  1,
                      st->have_evict ? st->evict.ptr : NULL, st->have_evict ? st->evict.len : 0, WAIT_TIMEOUT_S};
    result_init(r, "c2c", "c2c", METRIC_LATENCY);
    char why[192];
    c2c_status cs = measure_c2c(t, &rq, r, why, sizeof why);
    team_destroy(t);
    if (cs == C2C_OK) {
        result_thread th[2] = {{c->writer, topology_cpu(&s->topo, c->writer)->node, c->home},
                               {c->reader, topology_cpu(&s->topo, c->reader)->node, c->home}};
        result_set_placement(r, th, 2);
        params_text(&r->params, "kind", c->kind);
        params_text(&r->params, "home_of", c->home_of);
        params_bool(&r->params, "smt_siblings", c->siblings);
        return true;
    }
    if (cs == C2C_NO_MEMORY) {
        st->failed++;
        session_error(s, "CPU %d -> CPU %d: %s; skipped", c->writer, c->reader, why);
    } else if (cs == C2C_FAILED) {
        session_fail(s, "CPU %d -> CPU %d: %s", c->writer, c->reader, why);
    }
    result_free(r);
    return false;
}

/* A cell's second visit joins its first, and the record goes out; a run stopped
 * before it still emits the first visit alone. */
static void finish_cell(session *s, size_t i, bool again)
{
    c2c_run_state *st = s->state;
    result_record *r = &st->first[i], second;
    bool split = false;
    if (again && visit_cell(s, &st->cells[i], i, 1, &second)) {
        if (!c2c_add_visit(r, &second, &split))
            session_fail(s, "out of memory joining the visits of CPU %d -> CPU %d", st->cells[i].writer,
                         st->cells[i].reader);
        result_free(&second);
    }
    if (split)
        session_warn(s, WARN_TWO_LEVELS, "c2c %s CPU %d -> CPU %d: its two visits disagree (%.1f ns, then %.1f ns): the vCPUs or "
                        "threads moved between host cores, so the median mixes two placements",
                     c2c_state_name(st->cells[i].state), st->cells[i].writer, st->cells[i].reader,
                     params_get_number(&r->params, "first_visit_ns", 0),
                     params_get_number(&r->params, "second_visit_ns", 0));
    session_emit(s, r);
    result_free(r);
    st->visited[i] = false;
}

static void c2c_run(session *s)
{
    c2c_run_state *st = s->state;
    if (!make_eviction_buffer(s, st))
        return;
    st->first = calloc(st->ncells ? st->ncells : 1, sizeof *st->first);
    st->visited = calloc(st->ncells ? st->ncells : 1, sizeof *st->visited);
    if (!st->first || !st->visited) {
        session_fail(s, "out of memory for %zu pairs", st->ncells);
        return;
    }
    for (size_t i = 0; i < st->ncells && !session_stopped(s) && !s->failed; i++)
        st->visited[i] = visit_cell(s, &st->cells[i], i, 0, &st->first[i]);
    for (size_t i = 0; i < st->ncells; i++)
        if (st->visited[i])
            finish_cell(s, i, !session_stopped(s) && !s->failed);
}

static void c2c_release(session *s)
{
    c2c_run_state *st = s->state;
    if (st->have_evict)
        buffer_free(&st->evict);
    for (size_t i = 0; st->visited && i < st->ncells; i++)
        if (st->visited[i])
            result_free(&st->first[i]);
    free(st->first);
    free(st->visited);
    free(st->cells);
}

const mode_def c2c_mode = {
    .name = "c2c",
    .summary = "cache-to-cache transfer latency (HIT/HITM) between CPU pairs",
    .options = &c2c_option_table,
    .options_size = sizeof(c2c_options),
    .defaults = c2c_options_defaults,
    .check = c2c_options_check,
    .state_size = sizeof(c2c_run_state),
    .plan = c2c_plan,
    .open_sinks = c2c_open_sinks,
    .run = c2c_run,
    .release = c2c_release,
};
