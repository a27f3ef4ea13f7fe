/* SPDX-License-Identifier: MIT */
/* `membench compare A.json B.json`: reads two runs back, refuses runs that are
 * not comparable (unless --force), matches their figures and judges each one
 * (core/compare.c), and hands the rows to the table and JSON printers. It
 * measures nothing, so it is a standalone mode. Everything it says on stderr
 * goes through session_say, which neutralises the files' strings. */
#include "modes/compare_mode.h"

#include <signal.h>
#include <stdio.h>

#include "cli/compare_options.h"
#include "core/compare.h"
#include "measure/stop.h"
#include "output/compare_json.h"
#include "output/compare_table.h"
#include "output/file_target.h"
#include "output/json_report.h"

typedef struct {
    const char *pa, *pb;
    const loaded_run *a, *b;
    const compare_report *r;
    const compare_options *o;
    const char *differences;
} json_job;

static void write_doc(FILE *f, const void *ctx)
{
    const json_job *j = ctx;
    compare_json_write(f, j->pa, j->a, j->pb, j->b, j->r, j->o->threshold, j->differences, j->o->force);
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

static int compare(session *s, loaded_run *a, loaded_run *b)
{
    const compare_options *o = s->opts;
    const char *pa = o->common.operands[0], *pb = o->common.operands[1];
    char err[512];
    if (!run_load(pa, RUN_LOAD_MAX_BYTES, a, err, sizeof err))
        return session_bad_input(s, "%s: %s", pa, err);
    if (!run_load(pb, RUN_LOAD_MAX_BYTES, b, err, sizeof err))
        return session_bad_input(s, "%s: %s", pb, err);
    char differences[1024];
    if (compare_differences(a, b, differences, sizeof differences)) {
        if (!o->force)
            return session_bad_input(s, "%s and %s are not runs of one setup: %s (--force compares them anyway)", pa,
                                     pb, differences);
        session_say(s, "warning", "compared anyway (--force) though the runs differ: %s", differences);
    }
    if (!a->complete)
        session_say(s, "warning", "%s: the run was stopped before the end: its figures are what it got to", pa);
    if (!b->complete)
        session_say(s, "warning", "%s: the run was stopped before the end: its figures are what it got to", pb);
    compare_table_print_runs(s->env.out, pa, a, pb, b);
    fflush(s->env.out);
    compare_report r;
    stop_watch_output(fileno(s->env.out)); /* its reader gone (| head -1): judging stops, as SIGPIPE would */
    if (!compare_runs(a, b, o->threshold, !o->within_run, &r)) {
        session_say(s, "error", "out of memory");
        return 1;
    }
    if (r.stopped) { /* nothing written, nothing said: nobody reads it */
        compare_report_free(&r);
        return 128 + SIGPIPE;
    }
    compare_table_print(s->env.out, a, b, &r, o->threshold);
    say_nothing_compared(s, pa, a, pb, b, &r);
    int status = compare_exit_status(&r);
    json_job job = {pa, pb, a, b, &r, o, differences};
    if (o->common.json_path && write_json(s, &job))
        status = 1;
    compare_report_free(&r);
    return status;
}

static void run(session *s)
{
    const compare_options *o = s->opts;
    char err[512];
    for (int i = 0; o->common.json_path && i < 2; i++)
        if (file_target_same_file(o->common.json_path, o->common.operands[i])) {
            s->status = session_bad_input(s, "--json %s: is the run %s (the comparison would overwrite it)",
                                          o->common.json_path, o->common.operands[i]);
            return;
        }
    if (o->common.json_path && !json_path_check(o->common.json_path, err, sizeof err)) {
        s->status = session_bad_input(s, "%s", err);
        return;
    }
    loaded_run a = {0}, b = {0};
    s->status = compare(s, &a, &b);
    run_free(&a);
    run_free(&b);
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
