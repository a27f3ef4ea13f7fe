/* SPDX-License-Identifier: MIT */
/* `membench compare A.json B.json` (or A1.json A2.json vs B1.json B2.json): reads the runs back, refuses runs that are
 * not comparable (unless --force), matches their figures and judges each one
 * (core/compare.c), and hands the rows to the table and JSON printers. It
 * measures nothing, so it is a standalone mode. Everything it says on stderr
 * goes through session_say, which neutralises the files' strings. */
#include "modes/compare_mode.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/compare_options.h"
#include "core/compare.h"
#include "measure/stop.h"
#include "output/compare_json.h"
#include "output/compare_table.h"
#include "output/file_target.h"
#include "output/json_report.h"

typedef struct {
    const compare_options *o;
    const loaded_run *a, *b; /* o->a_count and o->b_count runs */
    const compare_report *r;
    const char *differences;
} json_job;

static void write_doc(FILE *f, const void *ctx)
{
    const json_job *j = ctx;
    compare_side sa = {(const char *const *)j->o->a_paths, j->a, (size_t)j->o->a_count};
    compare_side sb = {(const char *const *)j->o->b_paths, j->b, (size_t)j->o->b_count};
    compare_json_write(f, &sa, &sb, j->r, j->o->threshold, j->differences, j->o->force);
}

/* Through file_target, as every other document: a reader never sees half of one. */
static int write_json(session *s, const json_job *job)
{
    char err[512];
    if (file_target_write_path("--json", job->o->common.json_path, write_doc, job, err, sizeof err))
        return 0;
    session_say(s, "error", "%s", err);
    return 1;
}

/* The one line for a comparison of nothing (compare_exit_status makes it exit 1). */
static void say_nothing_compared(session *s, const char *pa, const loaded_run *a, const char *pb, const loaded_run *b,
                                 const compare_report *r)
{
    if (r->matched)
        return;
    if (!a->count || !b->count)
        session_say(s, "error", "nothing could be compared: %s%s%s %s no figures", !a->count ? pa : "",
                    !a->count && !b->count ? " and " : "", !b->count ? pb : "",
                    !a->count && !b->count ? "have" : "has");
    else
        session_say(s, "error", "nothing could be compared: %s and %s have no figure in common (%zu only in A, %zu "
                                "only in B)", pa, pb, r->only_a, r->only_b);
}

/* Reads a side's runs; 0, or the status of the refusal. */
static int load_side(session *s, char **paths, int n, loaded_run *runs)
{
    char err[512];
    for (int i = 0; i < n; i++)
        if (!run_load(paths[i], RUN_LOAD_MAX_BYTES, &runs[i], err, sizeof err))
            return session_bad_input(s, "%s: %s", paths[i], err);
    return 0;
}

/* Runs of one setup, or --force: x against y. 0, or the status of the refusal.
 * differences keeps what differs between A's first run and B's. */
static int one_setup(session *s, const char *px, const loaded_run *x, const char *py, const loaded_run *y,
                     char *differences, size_t len)
{
    const compare_options *o = s->opts;
    if (!compare_differences(x, y, differences, len))
        return 0;
    if (!o->force)
        return session_bad_input(s, "%s and %s are not runs of one setup: %s (--force compares them anyway)", px, py,
                                 differences);
    session_say(s, "warning", "compared anyway (--force) though the runs differ: %s", differences);
    return 0;
}

static int compare(session *s, loaded_run *a, loaded_run *b)
{
    const compare_options *o = s->opts;
    const char *pa = o->a_paths[0], *pb = o->b_paths[0];
    int status = load_side(s, o->a_paths, o->a_count, a);
    if (!status)
        status = load_side(s, o->b_paths, o->b_count, b);
    char differences[1024] = "", side[1024];
    /* a side's runs, each against its first; then A's first against B's */
    for (int i = 1; !status && i < o->a_count; i++)
        status = one_setup(s, pa, &a[0], o->a_paths[i], &a[i], side, sizeof side);
    for (int i = 1; !status && i < o->b_count; i++)
        status = one_setup(s, pb, &b[0], o->b_paths[i], &b[i], side, sizeof side);
    if (!status)
        status = one_setup(s, pa, a, pb, b, differences, sizeof differences);
    if (status)
        return status;
    for (int i = 0; i < o->a_count + o->b_count; i++) {
        bool in_a = i < o->a_count;
        const loaded_run *x = in_a ? &a[i] : &b[i - o->a_count];
        if (!x->complete)
            session_say(s, "warning", "%s: the run was stopped before the end: its figures are what it got to",
                        in_a ? o->a_paths[i] : o->b_paths[i - o->a_count]);
    }
    compare_side sa = {(const char *const *)o->a_paths, a, (size_t)o->a_count};
    compare_side sb = {(const char *const *)o->b_paths, b, (size_t)o->b_count};
    compare_table_print_runs(s->env.out, &sa, &sb);
    fflush(s->env.out);
    compare_report r;
    stop_watch_output(fileno(s->env.out)); /* its reader gone (| head -1): judging stops, as SIGPIPE would */
    if (!compare_run_sets(a, sa.count, b, sb.count, o->threshold, !o->within_run, &r)) {
        session_say(s, "error", "out of memory");
        return 1;
    }
    if (r.stopped) { /* nothing written, nothing said: nobody reads it */
        compare_report_free(&r);
        return 128 + SIGPIPE;
    }
    compare_table_print(s->env.out, a, b, &r, o->threshold);
    say_nothing_compared(s, pa, a, pb, b, &r);
    status = compare_exit_status(&r);
    json_job job = {o, a, b, &r, differences};
    if (o->common.json_path && write_json(s, &job))
        status = 1;
    compare_report_free(&r);
    return status;
}

static void run(session *s)
{
    const compare_options *o = s->opts;
    char err[512];
    for (int i = 0; o->common.json_path && i < o->a_count + o->b_count; i++) {
        const char *run_path = i < o->a_count ? o->a_paths[i] : o->b_paths[i - o->a_count];
        if (file_target_same_file(o->common.json_path, run_path)) {
            s->status = session_bad_input(s, "--json %s: is the run %s (the comparison would overwrite it)",
                                          o->common.json_path, run_path);
            return;
        }
    }
    if (o->common.json_path && !json_path_check(o->common.json_path, err, sizeof err)) {
        s->status = session_bad_input(s, "%s", err);
        return;
    }
    loaded_run *a = calloc((size_t)o->a_count, sizeof *a), *b = calloc((size_t)o->b_count, sizeof *b);
    if (!a || !b) {
        session_say(s, "error", "out of memory");
        s->status = 1;
    } else {
        s->status = compare(s, a, b);
    }
    for (int i = 0; a && i < o->a_count; i++)
        run_free(&a[i]);
    for (int i = 0; b && i < o->b_count; i++)
        run_free(&b[i]);
    free(a);
    free(b);
}

const mode_def compare_mode = {
    .name = "compare",
    .summary = "two runs' JSON figure by figure: faster, slower, within noise or cannot tell",
    .options = &compare_option_table,
    .options_size = sizeof(compare_options),
    .defaults = compare_options_defaults,
    .check = compare_options_check,
    .flags = MODE_STANDALONE,
    .run = run,
};
