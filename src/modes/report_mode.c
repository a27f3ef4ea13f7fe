/* SPDX-License-Identifier: MIT */
/* `membench report [--baseline A.json] RUN.json ... -o report.html [--svg DIR]`: reads runs back
 * (core/run_load.c, the same refusals as compare), sorts their records into
 * charts and tables (core/report_model.c) and hands them to the HTML and SVG
 * writers (output/report_files.c). It measures nothing: a standalone mode. */
#include "modes/report_mode.h"

#include <stdio.h>
#include <string.h>

#include "cli/report_options.h"
#include "core/report_model.h"
#include "output/report_files.h"

/* The run files in report order: --baseline's first, then the operands. */
static int run_paths(const report_options *o, const char **paths)
{
    int n = 0;
    if (o->baseline)
        paths[n++] = o->baseline;
    for (int i = 0; i < o->common.operand_count && n < REPORT_MAX_RUNS; i++)
        paths[n++] = o->common.operands[i];
    return n;
}

/* A run's label is its file name, or the path as given when two runs share one. */
static void run_names(const char *const *paths, int n, const char **names)
{
    for (int i = 0; i < n; i++) {
        const char *slash = strrchr(paths[i], '/');
        names[i] = slash && slash[1] ? slash + 1 : paths[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j && strcmp(names[i], names[j]) == 0)
                names[i] = paths[i];
}

static int report(session *s, loaded_run *runs, const char *const *paths, int n)
{
    const report_options *o = s->opts;
    char err[512];
    for (int i = 0; i < n; i++)
        if (!run_load(paths[i], RUN_LOAD_MAX_BYTES, &runs[i], err, sizeof err))
            return session_bad_input(s, "%s%s: %s", o->baseline && i == 0 ? "--baseline " : "", paths[i], err);
    const char *names[REPORT_MAX_RUNS];
    run_names(paths, n, names);
    for (int i = 0; i < n; i++)
        if (!runs[i].complete)
            session_say(s, "warning", "%s: the run was stopped before the end: the report shows what it got to, "
                                      "marked incomplete", paths[i]);
    report_model m;
    if (!report_model_build(&m, runs, names, (size_t)n) || (o->baseline && !report_model_add_baseline(&m))) {
        session_say(s, "error", "out of memory");
        return 1;
    }
    if (o->svg_dir && !report_check_svgs(o->svg_dir, &m, o->output, paths, (size_t)n, err, sizeof err)) {
        report_model_free(&m);
        return session_bad_input(s, "%s", err);
    }
    int status = 0;
    size_t svgs = 0;
    if (!report_write_html(o->output, &m, err, sizeof err) ||
        (o->svg_dir && !report_write_svgs(o->svg_dir, &m, &svgs, err, sizeof err))) {
        session_say(s, "error", "%s", err);
        status = 1;
    }
    report_model_free(&m);
    return status;
}

static void run(session *s)
{
    const report_options *o = s->opts;
    char err[512];
    const char *paths[REPORT_MAX_RUNS];
    int n = run_paths(o, paths);
    if (!report_check_html_path(o->output, paths, (size_t)n, err, sizeof err) ||
        (o->svg_dir && !report_check_svg_dir(o->svg_dir, err, sizeof err))) {
        s->status = session_bad_input(s, "%s", err);
        return;
    }
    loaded_run runs[REPORT_MAX_RUNS] = {0};
    s->status = report(s, runs, paths, n);
    for (int i = 0; i < REPORT_MAX_RUNS; i++)
        run_free(&runs[i]);
}

const mode_def report_mode = {
    .name = "report",
    .summary = "an HTML page with charts (and --svg files) from runs' JSON",
    .options = &report_option_table,
    .options_size = sizeof(report_options),
    .defaults = report_options_defaults,
    .check = report_options_check,
    .flags = MODE_STANDALONE,
    .run = run,
};
