/* SPDX-License-Identifier: MIT */
/* `membench report [--baseline A.json] RUN.json ... -o report.html [--svg DIR] [--csv FILE]`:
 * reads runs back (core/run_load.c, the same refusals as compare), sorts their
 * records into charts and tables (core/report_model.c) and hands them to the
 * HTML, SVG and CSV writers (output/report_files.c, output/report_csv.c). It
 * measures nothing: a standalone mode. */
#include "modes/report_mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_options.h"
#include "core/report_model.h"
#include "output/file_target.h"
#include "output/report_csv.h"
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

static const char *const *sort_names; /* by_name's: qsort takes no context */

static int by_name(const void *a, const void *b)
{
    return strcmp(sort_names[*(const int *)a], sort_names[*(const int *)b]);
}

/* A run's label is its file name, or the path as given when two runs share one
 * (sorted, so that a fleet of thousands is not compared pair by pair). */
static bool run_names(const char *const *paths, int n, const char **names)
{
    int *order = malloc((size_t)n * sizeof *order);
    bool *shared = calloc((size_t)n, sizeof *shared);
    if (!order || !shared) {
        free(order);
        free(shared);
        return false;
    }
    for (int i = 0; i < n; i++) {
        const char *slash = strrchr(paths[i], '/');
        names[i] = slash && slash[1] ? slash + 1 : paths[i];
        order[i] = i;
    }
    sort_names = names;
    qsort(order, (size_t)n, sizeof *order, by_name);
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(names[order[i]], names[order[i + 1]]) == 0)
            shared[order[i]] = shared[order[i + 1]] = true;
    for (int i = 0; i < n; i++)
        if (shared[i])
            names[i] = paths[i];
    free(order);
    free(shared);
    return true;
}

static int report(session *s, loaded_run *runs, const char *const *paths, const char **names, int n)
{
    const report_options *o = s->opts;
    char err[512];
    for (int i = 0; i < n; i++)
        if (!run_load(paths[i], RUN_LOAD_MAX_BYTES, &runs[i], err, sizeof err))
            return session_bad_input(s, "%s%s: %s", o->baseline && i == 0 ? "--baseline " : "", paths[i], err);
    int incomplete = 0;
    for (int i = 0; i < n; i++)
        if (!runs[i].complete && ++incomplete <= REPORT_CHART_RUNS)
            session_say(s, "warning", "%s: the run was stopped before the end: the report shows what it got to, "
                                      "marked incomplete", paths[i]);
    if (incomplete > REPORT_CHART_RUNS)
        session_say(s, "warning", "%d more runs were stopped before the end (%d in all), marked incomplete",
                    incomplete - REPORT_CHART_RUNS, incomplete);
    report_model m;
    if (!report_model_build(&m, runs, names, (size_t)n) || (o->baseline && !report_model_add_baseline(&m))) {
        session_say(s, "error", "out of memory");
        return 1;
    }
    if (o->svg_dir && !report_check_svgs(o->svg_dir, &m, o->output, o->csv, paths, (size_t)n, err, sizeof err)) {
        report_model_free(&m);
        return session_bad_input(s, "%s", err);
    }
    int status = 0;
    size_t svgs = 0;
    if ((o->output && !report_write_html(o->output, &m, err, sizeof err)) ||
        (o->svg_dir && !report_write_svgs(o->svg_dir, &m, &svgs, err, sizeof err)) ||
        (o->csv && !report_write_csv(o->csv, &m, err, sizeof err))) {
        session_say(s, "error", "%s", err);
        status = 1;
    }
    report_model_free(&m);
    return status;
}

/* -o and --csv: each writable, neither one of the runs, not the same file. */
static bool check_outputs(const report_options *o, const char *const *paths, int n, char *err, size_t errlen)
{
    if (o->output && !report_check_html_path(o->output, paths, (size_t)n, err, errlen))
        return false;
    if (o->csv && o->output && file_target_same_file(o->csv, o->output)) {
        snprintf(err, errlen, "--csv %s: is the page -o %s (one would overwrite the other)", o->csv, o->output);
        return false;
    }
    for (int i = 0; o->csv && i < n; i++)
        if (file_target_same_file(o->csv, paths[i])) {
            snprintf(err, errlen, "--csv %s: is the run %s (the table would overwrite it)", o->csv, paths[i]);
            return false;
        }
    return (!o->csv || file_target_check("--csv", o->csv, err, errlen)) &&
           (!o->svg_dir || report_check_svg_dir(o->svg_dir, err, errlen));
}

static void run(session *s)
{
    const report_options *o = s->opts;
    char err[512];
    size_t most = (size_t)o->common.operand_count + 1;
    const char **paths = malloc(most * sizeof *paths), **names = malloc(most * sizeof *names);
    loaded_run *runs = calloc(most, sizeof *runs);
    int n = paths ? run_paths(o, paths) : 0;
    if (!paths || !names || !runs || !run_names(paths, n, names)) {
        session_say(s, "error", "out of memory");
        s->status = 1;
    } else if (!check_outputs(o, paths, n, err, sizeof err)) {
        s->status = session_bad_input(s, "%s", err);
    } else {
        s->status = report(s, runs, paths, names, n);
    }
    for (size_t i = 0; runs && i < most; i++)
        run_free(&runs[i]);
    free(runs);
    free(paths);
    free(names);
}

const mode_def report_mode = {
    .name = "report",
    .summary = "an HTML page with charts (and --svg files, a --csv fleet table) from runs' JSON",
    .options = &report_option_table,
    .options_size = sizeof(report_options),
    .defaults = report_options_defaults,
    .check = report_options_check,
    .flags = MODE_STANDALONE,
    .run = run,
};
