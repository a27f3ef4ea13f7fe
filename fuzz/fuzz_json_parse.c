/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the JSON reader (util/json_parse.c) and the run loader on
 * top of it (core/run_load.c). The input is any bytes, read as a JSON document
 * and checked against the fuzz targets' independent strict parser
 * (strict_json.c, with repeated keys refused):
 *   - what json_parse accepts, strict_json accepts too, and the trees are the
 *     same: types, every string and key byte for byte, every number equal to
 *     strtod of the literal, members in order;
 *   - what strict_json accepts and json_parse refuses is refused for one of
 *     json_parse's own limits only: a number beyond a double, or nesting deeper
 *     than JSON_PARSE_MAX_DEPTH;
 *   - a refusal is one line (no newline) that names the line and column;
 *   - run_load_text never crashes on it, and a loaded run's records hold what
 *     the loader promises (samples above 0, threads at least 1);
 *   - membench report's page of a loaded run is whole and holds no markup from
 *     the document (no "<script" whatever its strings say);
 *   - compare's table of a loaded run and its refusal line hold no control or
 *     bidi character whatever its strings say (util/one_line.h), nor does a
 *     loader's refusal. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/compare.h"
#include "core/report_model.h"
#include "core/run_load.h"
#include "fuzz.h"
#include "output/compare_table.h"
#include "output/report_html.h"
#include "strict_json.h"
#include "util/json_parse.h"
#include "util/one_line.h"

static void report_page(const loaded_run *run)
{
    const char *names[] = {"<script>.json"};
    report_model m;
    if (!report_model_build(&m, run, names, 1))
        return;
    char *page = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    if (f) {
        report_html_write(f, &m);
        fclose(f);
        FUZZ_CHECK(page && !strstr(page, "<script") && len > 7 && strcmp(page + len - 8, "</html>\n") == 0,
                   "report page of %zu bytes", len);
        free(page);
    }
    report_model_free(&m);
}

/* What compare prints of the run (against itself, and against a plain run of
 * another host): its strings reach the terminal without a control or bidi
 * character, and the refusal that quotes them is one line. */
static void terminal_text(const loaded_run *run)
{
    static const char plain[] =
        "{\"tool\":\"membench\",\"version\":\"0\",\"schema\":2,\"mode\":\"sweep\",\"complete\":true,"
        "\"host\":{\"hostname\":\"h\",\"cpu_model\":\"c\",\"kernel\":\"k\"},\"options\":{},\"results\":[]}";
    loaded_run other;
    char err[256], differences[1024];
    FUZZ_CHECK(run_load_text(plain, sizeof plain - 1, &other, err, sizeof err), "the plain run: %s", err);
    compare_differences(run, &other, differences, sizeof differences);
    FUZZ_CHECK(one_line_is_safe(differences, false), "compare's differences hold a control character");
    run_free(&other);
    compare_report r;
    if (!compare_runs(run, run, 5, true, &r))
        return;
    char *table = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&table, &len);
    if (f) {
        const char *const pa[1] = {"run\x1b[2J\xe2\x80\xae.json"}, *const pb[1] = {"b.json"};
        compare_side sa = {pa, run, 1}, sb = {pb, run, 1};
        compare_table_print_runs(f, &sa, &sb);
        compare_table_print(f, run, run, &r, 5);
        fclose(f);
        FUZZ_CHECK(table && strlen(table) == len && one_line_is_safe(table, true),
                   "compare's table holds a control character");
        size_t lines = 0;
        for (size_t i = 0; i < len; i++)
            lines += table[i] == '\n';
        /* A, B, 5 of explanation, a blank, the head, a row each, a blank, the counts,
         * maybe the two levels, the threshold: a string's newline would add one */
        FUZZ_CHECK(lines == r.count + 12 + (r.two_levels > 0), "compare's table: %zu lines for %zu rows", lines,
                   r.count);
        free(table);
    }
    compare_report_free(&r);
}

static void same_tree(const json_value *mine, const sj_value *ref)
{
    switch (ref->kind) {
    case SJ_NULL:
        FUZZ_CHECK(mine->type == JV_NULL, "type %d for null", mine->type);
        break;
    case SJ_FALSE:
    case SJ_TRUE:
        FUZZ_CHECK(mine->type == JV_BOOL && mine->boolean == (ref->kind == SJ_TRUE), "boolean differs");
        break;
    case SJ_NUMBER: {
        char *lit = strndup(ref->text, ref->len);
        FUZZ_CHECK(lit != NULL, "out of memory");
        double want = strtod(lit, NULL);
        FUZZ_CHECK(mine->type == JV_NUMBER && mine->number == want, "number %s read as %.17g", lit, mine->number);
        free(lit);
        break;
    }
    case SJ_STRING:
        FUZZ_CHECK(mine->type == JV_STRING && mine->len == ref->len && memcmp(mine->text, ref->text, ref->len) == 0 &&
                       mine->text[mine->len] == '\0',
                   "string differs");
        break;
    case SJ_ARRAY:
    case SJ_OBJECT:
        FUZZ_CHECK(mine->type == (ref->kind == SJ_ARRAY ? JV_ARRAY : JV_OBJECT) && mine->count == ref->n,
                   "container differs (%zu vs %zu items)", mine->count, ref->n);
        for (size_t i = 0; i < ref->n; i++) {
            if (ref->kind == SJ_OBJECT)
                FUZZ_CHECK(mine->items[i].key_len == ref->items[i].key_len &&
                               memcmp(mine->items[i].key, ref->items[i].key, ref->items[i].key_len) == 0,
                           "key %zu differs", i);
            same_tree(&mine->items[i], &ref->items[i]);
        }
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    json_value mine;
    sj_value ref;
    char err[256], ref_err[256];
    bool ok = json_parse(text, size, &mine, err, sizeof err);
    bool ref_ok = sj_parse(text, size, SJ_UNIQUE_KEYS, &ref, ref_err, sizeof ref_err);
    if (ok) {
        FUZZ_CHECK(ref_ok, "accepted what the strict parser refuses (%s)", ref_err);
        same_tree(&mine, &ref);
    } else {
        FUZZ_CHECK(strchr(err, '\n') == NULL && strncmp(err, size ? "line " : "empty", 5) == 0, "message: %s", err);
        FUZZ_CHECK(!ref_ok || strstr(err, "out of range") || strstr(err, "nested deeper"),
                   "refused a document the strict parser accepts: %s", err);
    }
    if (ok)
        json_value_free(&mine);
    if (ref_ok)
        sj_free(&ref);

    loaded_run run;
    if (run_load_text(text, size, &run, err, sizeof err)) {
        for (size_t i = 0; i < run.count; i++) {
            FUZZ_CHECK(run.records[i].threads >= 1 && run.records[i].nsamples >= 1, "record %zu", i);
            for (size_t k = 0; k < run.records[i].nsamples; k++)
                FUZZ_CHECK(run.records[i].samples[k] > 0, "sample %zu of record %zu", k, i);
        }
        report_page(&run);
        terminal_text(&run);
        run_free(&run);
    } else {
        FUZZ_CHECK(one_line_is_safe(err, false) && err[0], "loader message: %s", err);
    }
    return 0;
}
