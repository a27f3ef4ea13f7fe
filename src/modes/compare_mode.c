/* `membench compare A.json B.json`: reads two runs back, refuses runs that are
 * not comparable (unless --force), matches their figures and judges each one
 * (core/compare.c), and hands the rows to the table and JSON printers. It
 * measures nothing, so it is a standalone mode. */
#include "modes/compare_mode.h"

#include <stdio.h>

#include "cli/compare_options.h"
#include "core/compare.h"
#include "output/compare_json.h"
#include "output/compare_table.h"
#include "output/json_report.h"

static void warn(session *s, const char *fmt, const char *a, const char *b)
{
    fprintf(s->env.err, "%s: warning: ", s->who);
    fprintf(s->env.err, fmt, a, b);
    fputc('\n', s->env.err);
}

static int write_json(session *s, const char *pa, const loaded_run *a, const char *pb, const loaded_run *b,
                      const compare_report *r, const char *differences)
{
    const compare_options *o = s->opts;
    FILE *f = fopen(o->common.json_path, "w");
    if (f) {
        compare_json_write(f, pa, a, pb, b, r, o->threshold, differences, o->force);
        if (fclose(f) == 0)
            return 0;
    }
    fprintf(s->env.err, "%s: error: --json %s: could not write the comparison\n", s->who, o->common.json_path);
    return 1;
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
        warn(s, "%s: %s", "compared anyway (--force) though the runs differ", differences);
    }
    if (!a->complete)
        warn(s, "%s: %s", pa, "the run was stopped before the end: its figures are what it got to");
    if (!b->complete)
        warn(s, "%s: %s", pb, "the run was stopped before the end: its figures are what it got to");
    compare_report r;
    if (!compare_runs(a, b, o->threshold, !o->within_run, &r)) {
        fprintf(s->env.err, "%s: error: out of memory\n", s->who);
        return 1;
    }
    compare_table_print(s->env.out, pa, a, pb, b, &r, o->threshold);
    int status = r.beyond ? 1 : 0;
    if (o->common.json_path && write_json(s, pa, a, pb, b, &r, differences))
        status = 1;
    compare_report_free(&r);
    return status;
}

static void run(session *s)
{
    const compare_options *o = s->opts;
    char err[512];
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
    .summary = "two runs' JSON figure by figure: faster, slower or within noise",
    .options = &compare_option_table,
    .options_size = sizeof(compare_options),
    .defaults = compare_options_defaults,
    .check = compare_options_check,
    .flags = MODE_STANDALONE,
    .run = run,
};
