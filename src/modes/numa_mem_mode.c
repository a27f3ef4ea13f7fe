/* SPDX-License-Identifier: MIT */
/* `membench numa mem`: perf bench numa mem. Plan: the tasks (processes x threads),
 * their memory (global, per process, per thread) within the memory budget, the -C
 * and -M bindings checked against this machine, the -0 node; run: measure/numa_mem
 * (real processes), then one record with perf's figures, each the amount perf
 * prints under that name (bench/numa.c, 6.1), from per-thread runtimes:
 *   runtime-max/min/avg   the slowest, fastest and mean thread runtime (perf's max
 *                         is the parent's wall time incl. teardown)
 *   spread-runtime        (max - min) / 2 / max, in % (perf's amount; its quiet
 *                         text says "max/avg")
 *   data                  bytes processed: 8 a word visited, whatever the access (a
 *                         read-modify-write word once), as perf counts a buffer once
 *                         a loop
 *   runtime/byte/thread   max runtime / data per thread, in ns
 *   thread-speed          data per thread / max runtime
 *   total-speed           data / max runtime
 * and beside them, in JSON only, membench's own: the bytes actually read and
 * written (a read-modify-write word in both) and their rate (moved_gb_s), the mean
 * of each thread's own speed, and the spread (max - min) / max.
 * GB are 10^9 bytes, MB in the options 2^20, as perf. With -a, perf's suite runs as
 * steps of this mode (numa_suite). */
#include "modes/numa_mem_mode.h"

#include <stdlib.h>
#include <string.h>

#include "cli/numa_options.h"
#include "measure/numa_mem.h"
#include "memory/memory_budget.h"
#include "modes/numa_suite.h"
#include "output/numa_sink.h"
#include "modes/session.h"
#include "plan/numa_bind.h"
#include "platform/platform.h"

#define MIB (1024.0 * 1024.0)

typedef struct {
    numa_mem_setup setup;
    numa_binding cpus, nodes;
    int *cpu_node;
    char command[1024];
    bool not_applicable; /* --if-applicable and a binding this machine cannot give */
    numa_suite suite;    /* -a */
} numa_state;

static size_t bytes_of(double mb)
{
    size_t b = (size_t)(mb * MIB);
    return b - b % 8; /* whole 64-bit words */
}

/* The node of every CPU id this topology knows (-1 elsewhere). */
static int cpu_nodes(const topology *t, int **out)
{
    int n = 0;
    for (size_t i = 0; i < t->ncpus; i++)
        n = t->cpus[i].id + 1 > n ? t->cpus[i].id + 1 : n;
    *out = malloc(sizeof **out * (size_t)(n ? n : 1));
    for (int i = 0; *out && i < n; i++)
        (*out)[i] = -1;
    for (size_t i = 0; *out && i < t->ncpus; i++)
        (*out)[t->cpus[i].id] = t->cpus[i].node;
    return *out ? n : 0;
}

static int plan_memory(session *s, numa_state *st, const numa_options *o)
{
    numa_mem_setup *u = &st->setup;
    u->global_bytes = bytes_of(o->mb_global);
    u->proc_bytes = bytes_of(o->mb_proc);
    u->thread_bytes = bytes_of(o->mb_thread);
    u->locked_bytes = bytes_of(o->mb_proc_locked);
    double need = (double)u->global_bytes + (double)u->nproc * (double)u->proc_bytes +
                  (double)u->nproc * u->nthreads * (double)u->thread_bytes;
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    if (need > (double)budget)
        return session_bad_input(s,
                                 "-G %g -P %g -T %g for %d x %d tasks: %.0f MiB, more than can be allocated safely "
                                 "(%llu MiB: MemAvailable and cgroup limit, less a margin)",
                                 o->mb_global, o->mb_proc, o->mb_thread, u->nproc, u->nthreads, need / MIB,
                                 (unsigned long long)(budget >> 20));
    if (o->thp > 0)
        u->pages = PAGES_THP;
    else if (o->thp < 0)
        u->pages = PAGES_SMALL;
    u->huge_size = topology_huge_page_size(&s->topo);
    return 0;
}

static int plan_bindings(session *s, numa_state *st, const numa_options *o)
{
    numa_mem_setup *u = &st->setup;
    int ntasks = u->nproc * u->nthreads;
    char err[512];
    if ((o->cpus && !numa_bind_cpus(&s->topo, o->cpus, ntasks, &st->cpus, err, sizeof err)) ||
        (o->memnodes && !numa_bind_nodes(&s->topo, o->memnodes, ntasks, &st->nodes, err, sizeof err))) {
        if (!o->if_applicable)
            return session_bad_input(s, "%s", err);
        st->not_applicable = true; /* perf's suite: said, and the suite goes on */
        params_text(&s->info.plan.values, "not_applicable", err);
        return 0;
    }
    if (st->cpus.ignored)
        session_warn(s, WARN_OPTION_IGNORED, "-C '%s': %d binding%s beyond the last of %d tasks: ignored", o->cpus, st->cpus.ignored,
                     st->cpus.ignored == 1 ? "" : "s", ntasks);
    if (st->nodes.ignored)
        session_warn(s, WARN_OPTION_IGNORED, "-M '%s': %d binding%s beyond the last of %d tasks: ignored", o->memnodes, st->nodes.ignored,
                     st->nodes.ignored == 1 ? "" : "s", ntasks);
    u->cpus = o->cpus ? st->cpus.cpus : NULL;
    u->nodes = o->memnodes ? st->nodes.nodes : NULL;
    char note[176] = "", cpus_note[80] = "", nodes_note[80] = ""; /* note: both and "; " */
    if (o->cpus && st->cpus.bound < ntasks)
        snprintf(cpus_note, sizeof cpus_note, "%d tasks bound, %d tasks unbound", st->cpus.bound,
                 ntasks - st->cpus.bound);
    if (o->memnodes && st->nodes.bound < ntasks)
        snprintf(nodes_note, sizeof nodes_note, "%d tasks mem-bound, %d tasks unbound", st->nodes.bound,
                 ntasks - st->nodes.bound);
    snprintf(note, sizeof note, "%s%s%s", cpus_note, *cpus_note && *nodes_note ? "; " : "", nodes_note);
    if (*note) /* both; and each for perf's NOTE line after its binding list */
        params_text(&s->info.plan.values, "binding_note", note);
    if (*cpus_note)
        params_text(&s->info.plan.values, "cpus_note", cpus_note);
    if (*nodes_note)
        params_text(&s->info.plan.values, "memnodes_note", nodes_note);
    return 0;
}

/* -M: the tasks allocate side by side, and each bound allocation alone sees the same
 * free memory, so each node is asked here for all that is bound to it at once (its
 * processes' memory, with their thread 0, and its threads'), with its margin. */
static int plan_node_memory(session *s, numa_state *st, const numa_options *o)
{
    const numa_mem_setup *u = &st->setup;
    for (size_t k = 0; u->nodes && k < s->topo.nnodes; k++) {
        int node = s->topo.nodes[k].id;
        uint64_t need = 0;
        for (int p = 0; p < u->nproc; p++)
            for (int i = 0; i < u->nthreads; i++)
                if (u->nodes[p * u->nthreads + i] == node)
                    need += (i == 0 ? u->proc_bytes : 0) + u->thread_bytes;
        uint64_t free_bytes = platform_node_free_bytes(node), keep = node_margin_bytes_of(node);
        if (!need || !free_bytes || need + keep <= free_bytes)
            continue;
        char err[256];
        snprintf(err, sizeof err,
                 "-M '%s': %llu MiB of the tasks' memory bound to node %d, more than it can hold safely "
                 "(%llu MiB free, %llu MiB kept free)",
                 o->memnodes, (unsigned long long)(need >> 20), node, (unsigned long long)(free_bytes >> 20),
                 (unsigned long long)(keep >> 20));
        if (!o->if_applicable)
            return session_bad_input(s, "%s", err);
        st->not_applicable = true; /* perf's suite: said, and the suite goes on */
        params_text(&s->info.plan.values, "not_applicable", err);
        return 0;
    }
    return 0;
}

/* -0: CPU 0's node, and the usable CPUs there to first-touch from. */
static void plan_init_node(session *s, numa_state *st, const numa_options *o)
{
    numa_mem_setup *u = &st->setup;
    u->init_node = -1;
    const cpu_info *c0 = topology_cpu(&s->topo, 0);
    if (!o->init_cpu0 || !c0)
        return;
    u->init_node = c0->node;
    const numa_node *n = topology_node(&s->topo, c0->node);
    for (size_t i = 0; n && i < n->cpus.count; i++) {
        const cpu_info *c = topology_cpu(&s->topo, n->cpus.ids[i]);
        if (c && c->usable) {
            int *ids = realloc(u->init_cpus.ids, sizeof *ids * (u->init_cpus.count + 1));
            if (!ids)
                break;
            u->init_cpus.ids = ids;
            u->init_cpus.ids[u->init_cpus.count++] = c->id;
        }
    }
}

static void describe(session *s, numa_state *st, const numa_options *o)
{
    const numa_mem_setup *u = &st->setup;
    int ntasks = u->nproc * u->nthreads;
    param_list *p = &s->info.plan.values;
    params_textf(p, "method",
                 "%d process%s x %d thread%s; memory %g MB global (shared by all processes), %g MB per process, "
                 "%g MB per thread; %s; %s",
                 u->nproc, u->nproc == 1 ? "" : "es", u->nthreads, u->nthreads == 1 ? "" : "s", o->mb_global,
                 o->mb_proc, o->mb_thread,
                 o->zero_memset      ? "zeroing (memset)"
                 : o->reads && o->writes ? "read-modify-write"
                 : o->reads          ? "reads"
                                     : "writes",
                 o->rand_walk ? "random walk over 8 KiB blocks" : "sequential passes");
    params_int(p, "tasks", ntasks);
    params_int(p, "processes", u->nproc);
    params_int(p, "threads_per_process", u->nthreads);
    params_int(p, "nodes", (long long)s->topo.nnodes);
    params_int(p, "cpus", (long long)s->topo.ncpus);
    params_int(p, "loops", (long long)o->nr_loops);
    params_number(p, "seconds", o->nr_secs);
    params_number(p, "global_mb", o->mb_global);
    params_number(p, "process_mb", o->mb_proc);
    params_number(p, "thread_mb", o->mb_thread);
    params_number(p, "locked_mb", o->mb_proc_locked);
    params_bool(p, "serialize", o->serialize);
    params_text(p, "pages", u->pages == PAGES_THP ? "thp" : u->pages == PAGES_SMALL ? "small" : "default");
    params_int(p, "init_node", u->init_node);
    params_text(p, "cpus_list", o->cpus);
    params_text(p, "memnodes", o->memnodes);
    params_text(p, "data", "bytes processed, as perf counts them: 8 a word visited, whatever the access "
                           "(bytes_read and bytes_written beside them: a read-modify-write in both)");
    params_text(p, "runtimes", "per thread: max, min and mean of the threads' own runtimes");
    if (!o->rand_walk && !o->zero_memset)
        params_text(p, "loop", o->tight_loop ? "tight: membench's loop, the machine's rate (keys tight-...)"
                                             : "perf: perf's word loop, its flags and a wrap test at every word");
    param_table *t = section_table(&s->info.plan, "bindings");
    snprintf(s->info.placement.policy, sizeof s->info.placement.policy, "%s",
             o->cpus ? "-C binds the first tasks, the rest unbound" : "unbound (the kernel places them)");
    s->info.placement.pinned = o->cpus != NULL;
    run_thread *th = run_info_set_threads(&s->info, ntasks);
    for (int i = 0; i < ntasks; i++) {
        param_list *row = table_add_row(t);
        const cpu_list *c = u->cpus ? &u->cpus[i] : NULL;
        char text[64] = "";
        if (c && c->count == 1)
            snprintf(text, sizeof text, "%2d", c->ids[0]);
        else if (c && c->count > 1)
            snprintf(text, sizeof text, "%2d/%zu", c->ids[0], c->count);
        params_int(row, "task", i);
        params_int(row, "process", i / u->nthreads);
        params_int(row, "thread", i % u->nthreads);
        params_text(row, "cpus", text);
        params_int(row, "node", u->nodes ? u->nodes[i] : -1);
        if (th) {
            th[i].cpus = c && c->count ? cpu_list_format_alloc(c->ids, c->count)
                                       : cpu_list_format_alloc(s->topo.usable.ids, s->topo.usable.count);
            th[i].node = c && c->count ? st->cpu_node[c->ids[0]] : -1;
            th[i].mem_node = u->nodes ? u->nodes[i] : -1;
        }
    }
}

static int numa_plan(session *s)
{
    numa_state *st = s->state;
    const numa_options *o = s->opts;
    /* the command line as perf shows it: membench numa mem and the words after it */
    int words;
    mode_find_argv(s->argc, s->argv, &words);
    snprintf(st->command, sizeof st->command, "membench numa mem");
    for (int i = 1 + (s->parent ? 0 : words); i < s->argc; i++)
        snprintf(st->command + strlen(st->command), sizeof st->command - strlen(st->command), " %s", s->argv[i]);
    if (o->all)
        return numa_suite_plan(s, &st->suite, o);
    numa_mem_setup *u = &st->setup;
    u->nproc = o->nr_proc;
    u->nthreads = o->nr_threads;
    u->loops = o->nr_loops;
    u->seconds = o->nr_secs;
    u->usleep_us = (unsigned)o->usleep_us;
    u->access = (numa_access){o->reads, o->writes, o->backwards, o->rand_walk, o->zero_memset, o->tight_loop};
    u->init_zero = o->init_zero;
    u->init_random = o->init_random;
    u->serialize = o->serialize;
    u->ncpu_node = cpu_nodes(&s->topo, &st->cpu_node);
    u->cpu_node = st->cpu_node;
    u->sample_s = o->show_convergence || o->measure_convergence ? 0.1 : 1;
    u->stop_converged = o->measure_convergence;
    u->keep_series = o->show_convergence || o->measure_convergence;
    u->perturb_s = o->perturb_secs;
    u->far_cpu_low = s->topo.usable.ids[0];
    u->far_cpu_high = s->topo.usable.ids[s->topo.usable.count - 1];
    int rc = plan_memory(s, st, o);
    if (rc == 0)
        rc = plan_bindings(s, st, o);
    if (rc == 0 && !st->not_applicable)
        rc = plan_node_memory(s, st, o);
    if (rc || st->not_applicable)
        return rc;
    plan_init_node(s, st, o);
    describe(s, st, o);
    if ((o->show_convergence || o->measure_convergence) && s->topo.nnodes < 2 && !s->parent)
        session_warn(s, WARN_ONE_NODE, "one NUMA node: nothing to converge (every process is trivially on one node)");
    return 0;
}

static void numa_open_sinks(session *s)
{
    numa_state *st = s->state;
    const numa_options *o = s->opts;
    numa_sink_spec spec = {o->quiet, o->details, o->measure_convergence, o->show_convergence, "main,", st->command,
                           o->all ? NUMA_SINK_SUITE : NUMA_SINK_RUN, !s->parent, o->tight_loop};
    session_add_sink(s, numa_sink_create(s->env.out, &spec));
    s->quiet_end = o->quiet; /* perf's -q: its lines and nothing else (JSON keeps the warnings) */
}

static void progress(void *ctx, const numa_sample *smp, const numa_task_result *tasks, int ntasks)
{
    (void)tasks;
    session *s = ctx;
    session_progress(ctx, "%.0f s, loops %d-%d of %d tasks%s", smp->t, smp->min_loops, smp->max_loops, ntasks,
                     !smp->converged          ? ""
                     : s->topo.nnodes < 2     ? ""  /* one node: nothing to converge */
                                              : ", converged");
}

/* The per-task table (JSON analysis.tasks; -d -d prints it). */
static void task_table(session *s, const numa_mem_result *r)
{
    param_table *t = section_table(&s->info.analysis, "tasks");
    for (int i = 0; i < r->ntasks; i++) {
        const numa_task_result *k = &r->tasks[i];
        param_list *row = table_add_row(t);
        params_int(row, "process", k->process);
        params_int(row, "thread", k->thread);
        params_int(row, "pid", k->pid);
        params_int(row, "cpu", k->cpu);
        params_int(row, "node", k->node);
        params_int(row, "mem_node", k->mem_node);
        params_number(row, "mem_node_fraction", k->mem_node_fraction);
        params_int(row, "loops", (long long)k->loops);
        params_int(row, "perturbations", (long long)k->perturbations);
        params_int(row, "bytes_processed", (long long)k->bytes_processed);
        params_int(row, "bytes_read", (long long)k->bytes_read);
        params_int(row, "bytes_written", (long long)k->bytes_written);
        params_number(row, "runtime_s", k->runtime_s);
        params_number(row, "user_s", k->user_s);
        params_number(row, "system_s", k->system_s);
        params_int(row, "global_addr", (long long)k->global_addr);   /* where its memory was mapped (-d -d -d) */
        params_int(row, "process_addr", (long long)k->process_addr); /* 0: none */
        params_int(row, "thread_addr", (long long)k->thread_addr);
        /* perf's per-thread speed (-d -d): its data processed over its own runtime */
        params_number(row, "gb_s", k->runtime_s > 0 ? (double)k->bytes_processed / k->runtime_s / 1e9 : 0);
    }
}

/* -x: the CPUs task 0 was moved to, in order (JSON analysis.moves; -d prints them). */
static void moves_table(session *s, const numa_mem_result *r)
{
    param_table *t = NULL;
    for (int i = 0; i < r->ntasks; i++)
        for (int k = 0; k < NUMA_MEM_MOVES_KEPT && r->tasks[i].moved_to[k] >= 0; k++) {
            if (!t)
                t = section_table(&s->info.analysis, "moves");
            param_list *row = table_add_row(t);
            params_int(row, "task", i);
            params_int(row, "move", k + 1);
            params_int(row, "cpu", r->tasks[i].moved_to[k]);
        }
}

/* A kept sample's converged flag: null on one node, where there is nothing to converge. */
static void converged_flag(param_list *row, const session *s, bool converged)
{
    if (s->topo.nnodes < 2)
        params_null(row, "converged");
    else
        params_bool(row, "converged", converged);
}

/* -c/-m: each kept sample as a whole (analysis.convergence_samples) and its tasks and
 * processes per node (analysis.convergence_nodes): perf's progress line. */
static void sample_tables(session *s, const numa_state *st, const numa_mem_result *r, const numa_options *o)
{
    param_table *ts = section_table(&s->info.analysis, "convergence_samples");
    for (int i = 0; i < r->nseries; i++) {
        const numa_sample *smp = &r->series[i];
        param_list *row = table_add_row(ts);
        params_number(row, "t_s", smp->t);
        /* how far the run is: -l's loops done by the last task (perf's), else the time of -s */
        double pct = o->nr_loops ? (double)smp->last_loops / (double)o->nr_loops * 100
                     : o->nr_secs > 0         ? smp->t / o->nr_secs * 100
                                              : 0;
        params_number(row, "progress_pct", pct > 100 ? 100 : pct);
        params_int(row, "loops_min", smp->min_loops);
        params_int(row, "loops_max", smp->max_loops);
        converged_flag(row, s, smp->converged);
    }
    param_table *tn = section_table(&s->info.analysis, "convergence_nodes"); /* after: tables move */
    int nthreads = st->setup.nthreads;
    for (int i = 0; i < r->nseries; i++)
        for (size_t k = 0; k < s->topo.nnodes; k++) { /* tasks and processes with a task there */
            int node = s->topo.nodes[k].id, tasks = 0, procs = 0;
            for (int p = 0; p < st->setup.nproc; p++) {
                int here = 0;
                for (int t = p * nthreads; t < (p + 1) * nthreads; t++)
                    here += r->series[i].task_nodes[t] == node;
                tasks += here;
                procs += here > 0;
            }
            param_list *n = table_add_row(tn);
            params_number(n, "t_s", r->series[i].t);
            params_int(n, "node", node);
            params_int(n, "tasks", tasks);
            params_int(n, "processes", procs);
        }
}

/* -c/-m: where each process stood, about once a second (JSON analysis.convergence;
 * -c prints it). */
static void convergence_table(session *s, const numa_mem_result *r, int nproc)
{
    if (!r->nseries)
        return;
    param_table *t = section_table(&s->info.analysis, "convergence");
    for (int i = 0; i < r->nseries; i++)
        for (int p = 0; p < nproc; p++) {
            const numa_proc_place *pl = &r->series[i].procs[p];
            param_list *row = table_add_row(t);
            params_number(row, "t_s", r->series[i].t);
            params_int(row, "process", p);
            params_int(row, "thread_node_min", pl->node_min);
            params_int(row, "thread_node_max", pl->node_max);
            params_int(row, "thread_nodes", pl->thread_nodes);
            params_int(row, "mem_node", pl->mem_node);
            params_number(row, "mem_share", pl->mem_share);
            converged_flag(row, s, r->series[i].converged);
        }
}

/* perf's figures, defined per thread (see the top of this file), and membench's
 * own beside them. */
static void figures(result_record *rec, const numa_mem_result *r, const numa_options *o, bool one_node)
{
    double max = 0, min = -1, sum = 0, bytes = 0, moved = 0, speeds = 0;
    uint64_t loops_min = UINT64_MAX, loops_max = 0, done = 0, rd = 0, wr = 0;
    for (int i = 0; i < r->ntasks; i++) {
        const numa_task_result *k = &r->tasks[i];
        max = k->runtime_s > max ? k->runtime_s : max;
        min = min < 0 || k->runtime_s < min ? k->runtime_s : min;
        sum += k->runtime_s;
        done += k->bytes_processed;
        rd += k->bytes_read;
        wr += k->bytes_written;
        speeds += k->runtime_s > 0 ? (double)k->bytes_processed / k->runtime_s : 0;
        loops_min = k->loops < loops_min ? k->loops : loops_min;
        loops_max = k->loops > loops_max ? k->loops : loops_max;
    }
    bytes = (double)done;
    moved = (double)rd + (double)wr;
    double n = r->ntasks, avg = sum / n, per_thread = bytes / n;
    param_list *p = &rec->params;
    params_number(p, "runtime_max_s", max);
    params_number(p, "runtime_min_s", min);
    params_number(p, "runtime_avg_s", avg);
    params_number(p, "spread_runtime_pct", max > 0 ? (max - min) / 2 / max * 100 : 0);
    params_number(p, "data_per_thread_gb", per_thread / 1e9);
    params_number(p, "data_total_gb", bytes / 1e9);
    params_number(p, "runtime_per_byte_ns", per_thread > 0 ? max * 1e9 / per_thread : 0);
    params_number(p, "thread_speed_gb_s", max > 0 ? per_thread / max / 1e9 : 0);
    params_number(p, "total_speed_gb_s", max > 0 ? bytes / max / 1e9 : 0);
    /* membench's own, JSON only */
    params_number(p, "spread_max_min_pct", max > 0 ? (max - min) / max * 100 : 0);
    params_number(p, "thread_speed_mean_gb_s", speeds / n / 1e9);
    params_number(p, "moved_gb_s", max > 0 ? moved / max / 1e9 : 0);
    params_number(p, "wall_s", r->wall_s);
    params_number(p, "startup_s", r->startup_s);
    params_int(p, "loops_min", (long long)loops_min);
    params_int(p, "loops_max", (long long)loops_max);
    params_int(p, "bytes_processed", (long long)done);
    params_int(p, "bytes_read", (long long)rd);
    params_int(p, "bytes_written", (long long)wr);
    if ((o->show_convergence || o->measure_convergence) && one_node) {
        /* -m still stops at the first sample, as perf does; nothing is claimed */
        params_number(p, "convergence_latency_s", r->converged_s >= 0 ? r->converged_s : max);
        params_null(p, "converged");
        params_text(p, "convergence", "nothing to converge: one NUMA node");
    } else if (o->show_convergence || o->measure_convergence) {
        params_number(p, "convergence_latency_s", r->converged_s >= 0 ? r->converged_s : max);
        params_bool(p, "converged", r->converged_s >= 0);
        if (r->converged_s >= 0)
            params_textf(p, "convergence", "converged after %.1f s: every process's threads on one node", r->converged_s);
        else
            params_textf(p, "convergence", "not converged in %.1f s", max);
    }
    result_set_samples(rec, &(double){max > 0 ? bytes / max / 1e6 : 0}, 1);
    rec->bytes_per_sample = bytes;
    rec->elapsed_s = max;
}

static void add_buffers(result_record *rec, const numa_mem_setup *u, const numa_mem_result *r)
{
    const char *m = u->pages == PAGES_THP ? "thp" : u->pages == PAGES_SMALL ? "small" : "normal";
    params_int(&rec->params, "buffers_global", u->global_bytes ? 1 : 0);
    params_int(&rec->params, "buffers_process", u->proc_bytes ? u->nproc : 0);
    params_int(&rec->params, "buffers_thread", u->thread_bytes ? r->ntasks : 0);
    if (u->global_bytes)
        result_add_buffer(rec, m, u->global_bytes, -1);
    for (int p = 0; u->proc_bytes && p < u->nproc; p++)
        result_add_buffer(rec, r->process_pages ? r->process_pages : m, u->proc_bytes, r->process_huge);
    for (int t = 0; u->thread_bytes && t < r->ntasks; t++)
        result_add_buffer(rec, m, u->thread_bytes, -1);
}

/* NUMA-convergence-latency: the time from the start of the work to the first sample
 * that found every process converged, never more than runtime-max/thread (the
 * threads' own clocks start a little after the parent's, and -m stops them after
 * that sample). */
static void cap_convergence(numa_mem_result *r)
{
    double max = 0;
    for (int i = 0; i < r->ntasks; i++)
        max = r->tasks[i].runtime_s > max ? r->tasks[i].runtime_s : max;
    if (r->converged_s > max)
        r->converged_s = max;
}

/* Did the tasks do any work? Not when a stop came while they started: perf's lines
 * with zeros would read as results (mmtests' regexes), and a JSON value is never 0. */
static bool did_work(const numa_mem_result *r)
{
    double max = 0;
    uint64_t bytes = 0;
    for (int i = 0; i < r->ntasks; i++) {
        max = r->tasks[i].runtime_s > max ? r->tasks[i].runtime_s : max;
        bytes += r->tasks[i].bytes_processed;
    }
    return max > 0 && bytes > 0;
}

/* A run cut short says so (analysis.unfinished; the sink prints it as a comment):
 * with the figures of the work so far (the record says complete: false), or, when
 * nothing was measured, instead of any figure (no record). */
static void say_unfinished(session *s, const numa_mem_result *r, bool worked)
{
    const char *by = session_stop_reason(s);
    param_list *a = &s->info.analysis.values;
    if (worked)
        params_textf(a, "unfinished", "stopped by %s after %.3f s of work: the figures are the work so far",
                     by ? by : "a stop", r->wall_s);
    else if (by)
        params_textf(a, "unfinished", "stopped by %s while the tasks started (%.3f s): nothing measured, no figures",
                     by, r->startup_s);
    else
        params_text(a, "unfinished", "no task did any work: nothing measured, no figures");
}

static void numa_run(session *s)
{
    numa_state *st = s->state;
    const numa_options *o = s->opts;
    if (o->all) {
        numa_suite_run(s, &st->suite);
        return;
    }
    if (st->not_applicable)
        return; /* said by the sink */
    numa_mem_result r;
    session_progress(s, "starting %d processes x %d threads", st->setup.nproc, st->setup.nthreads);
    session_step_begin(s);
    bool ok = numa_mem_run(&st->setup, progress, s, &r);
    if (!ok) {
        session_fail(s, "%s", r.error);
        numa_mem_result_free(&r);
        return;
    }
    task_table(s, &r);
    moves_table(s, &r);
    convergence_table(s, &r, st->setup.nproc);
    if (r.nseries)
        sample_tables(s, st, &r, o);
    cap_convergence(&r);
    bool stopped = r.stopped && session_stopped(s), worked = did_work(&r);
    if (stopped || !worked)
        say_unfinished(s, &r, worked);
    if (!worked) {
        numa_mem_result_free(&r);
        return;
    }
    result_record rec;
    /* the tight loop's figure is another figure: its own name in JSON, OpenMetrics and compare */
    result_init(&rec, "numa-mem", o->tight_loop ? "main-tight" : "main", METRIC_BANDWIDTH);
    rec.threads = r.ntasks;
    result_thread *th = calloc((size_t)r.ntasks, sizeof *th);
    for (int i = 0; th && i < r.ntasks; i++) {
        const cpu_list *c = st->setup.cpus ? &st->setup.cpus[i] : NULL;
        th[i] = (result_thread){c && c->count ? c->ids[0] : -1, r.tasks[i].node,
                                st->setup.nodes ? st->setup.nodes[i] : r.tasks[i].mem_node};
    }
    result_set_placement(&rec, th, r.ntasks);
    free(th);
    rec.kernel_isa = "c";
    rec.kernel_store = o->zero_memset ? "libc" : o->writes ? "regular" : "loads";
    add_buffers(&rec, &st->setup, &r);
    rec.size_bytes = st->setup.global_bytes + (uint64_t)st->setup.nproc * st->setup.proc_bytes +
                     (uint64_t)r.ntasks * st->setup.thread_bytes; /* all the memory the tasks work on */
    rec.samples_wanted = 1;
    figures(&rec, &r, o, s->topo.nnodes < 2);
    rec.complete = !stopped;
    session_emit(s, &rec);
    result_free(&rec);
    numa_mem_result_free(&r);
}

static void numa_release(session *s)
{
    numa_state *st = s->state;
    numa_binding_free(&st->cpus);
    numa_binding_free(&st->nodes);
    cpu_list_free(&st->setup.init_cpus);
    free(st->cpu_node);
    numa_suite_free(&st->suite);
}

const mode_def numa_mem_mode = {
    .name = "numa-mem",
    .command = "numa mem",
    .summary = "perf bench numa mem (processes, threads, shared and private memory); also `numa mem`",
    .options = &numa_option_table,
    .options_size = sizeof(numa_options),
    .defaults = numa_options_defaults,
    .check = numa_options_check,
    .state_size = sizeof(numa_state),
    .plan = numa_plan,
    .open_sinks = numa_open_sinks,
    .run = numa_run,
    .release = numa_release,
};
