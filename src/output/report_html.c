/* SPDX-License-Identifier: MIT */
#include "output/report_html.h"

#include <math.h>
#include <string.h>

#include "core/report_headline.h"
#include "output/markup.h"
#include "output/report_fleet_html.h"
#include "output/svg_chart.h"
#include "topology/cache_source.h"
#include "util/format_bytes.h"

/* The installed docs (debian/membench.docs): the page's one link, to read offline. */
#define REPORT_DOCS_URL "file:///usr/share/doc/membench/docs/report.md"

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1000px;color:#222;padding:0 1em}"
    "h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-bottom:.2em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "table.runs td{vertical-align:top;font-size:.92em}h3{font-size:1em;margin:.6em 0 .2em}"
    ".banner{background:#fff3cd;border:2px solid #d39e00;padding:.6em 1em;font-weight:bold;margin:.5em 0}"
    "ul.warnings li{color:#8a5a00}ul.errors li{color:#b00020}"
    "figure{margin:1em 0}figcaption{font-size:.9em;color:#555}svg.chart{max-width:100%;height:auto}"
    "code{background:#f4f4f4;padding:0 .2em}"
    ".headlines{display:flex;flex-wrap:wrap;gap:1em;margin:.5em 0 1em}"
    ".headline{border:1px solid #ccc;border-radius:6px;padding:.5em 1em;flex:1 1 280px}"
    ".headline h2{margin:.1em 0 .4em;border:0;font-size:1.1em}.headline dl{display:grid;grid-template-columns:auto 1fr;"
    "gap:.15em .8em;margin:0}.headline dt{color:#555}.headline dd{margin:0}"
    ".headline .big{font-size:1.35em;font-weight:bold;font-variant-numeric:tabular-nums}"
    ".headline .why{color:#666;font-size:.85em}.headline .missing{color:#888}.noisy{color:#b00020}"
    "details.warning-kind summary{cursor:pointer;color:#8a5a00}p.methods{font-size:.9em;color:#555}"
    /* the table scrolls in its own box, its header row sticky there: the page keeps its width */
    "div.fleet-wrap{overflow:auto;max-width:100%;max-height:85vh}"
    "table.fleet{font-size:.85em}table.fleet td{white-space:nowrap}"
    "table.fleet th{cursor:pointer;background:#f4f4f4;position:sticky;top:0}"
    "table.fleet th[aria-sort=ascending]::after{content:' \\25B2'}"
    "table.fleet th[aria-sort=descending]::after{content:' \\25BC'}"
    "table.fleet td.missing{background:#fafafa}p.fleet-note{background:#eef5ff;padding:.4em .8em}";

static void text(FILE *f, const char *s)
{
    markup_text(f, s);
}

static void scalar(FILE *f, const json_value *v)
{
    if (!v || v->type == JV_NULL)
        fputs("<i>none</i>", f);
    else if (v->type == JV_BOOL)
        fputs(v->boolean ? "true" : "false", f);
    else if (v->type == JV_NUMBER)
        fprintf(f, "%.10g", v->number);
    else if (v->type == JV_STRING)
        text(f, v->text);
    else
        fputs("<i>(structured)</i>", f);
}

static void string_list(FILE *f, const json_value *list, const char *cls)
{
    if (!list || list->count == 0)
        return;
    fprintf(f, "<ul class=\"%s\">\n", cls);
    for (size_t i = 0; i < list->count; i++) {
        fprintf(f, "<li class=\"%.8s\">", strcmp(cls, "warnings") == 0 ? "warning" : "error");
        if (list->items[i].type == JV_STRING)
            text(f, list->items[i].text);
        else
            scalar(f, &list->items[i]);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

static void topology_summary(FILE *f, const json_value *t)
{
    long long usable = 0, online = 0, cores = 0, packages = 0;
    json_get_integer(t, "cpus_usable_count", 0, 1 << 24, &usable);
    json_get_integer(t, "cpus_online", 0, 1 << 24, &online);
    json_get_integer(t, "cores", 0, 1 << 24, &cores);
    json_get_integer(t, "packages", 0, 1 << 24, &packages);
    const json_value *nodes = json_get_array(t, "numa_nodes");
    fprintf(f, "%lld of %lld CPUs usable (", usable, online);
    text(f, json_get_text(t, "cpus_usable"));
    fprintf(f, "), %lld cores, %lld package%s, %zu NUMA node%s", cores, packages, packages == 1 ? "" : "s",
            nodes ? nodes->count : 0, nodes && nodes->count == 1 ? "" : "s");
    char size[32];
    for (size_t i = 0; nodes && i < nodes->count; i++) {
        long long id = -1;
        double bytes = 0;
        json_get_integer(&nodes->items[i], "id", -1, 1 << 20, &id);
        json_get_number(&nodes->items[i], "memory_bytes", &bytes);
        fprintf(f, "%s node %lld: CPUs ", i ? ";" : ":", id);
        text(f, json_get_text(&nodes->items[i], "cpus"));
        fprintf(f, ", %s", bytes > 0 && bytes < 0x1p62 ? format_bytes((unsigned long long)bytes, size, sizeof size)
                                                       : "no memory");
    }
    const json_value *levels = json_get_object(t, "levels_used");
    for (size_t i = 0; levels && i < levels->count; i++) {
        double bytes;
        if (!json_get_number(&levels->items[i], "size_bytes", &bytes) || !(bytes > 0) || bytes > 0x1p62)
            continue;
        fputs(i ? ", " : "; caches ", f);
        text(f, levels->items[i].key);
        fprintf(f, " %s", format_bytes((unsigned long long)bytes, size, sizeof size));
        const json_value *per_package = json_get(&levels->items[i], "per_package");
        const char *source = cache_source_name_of_key(json_get_text(&levels->items[i], "source"));
        if (source) /* a run before sources were recorded has none */
            fprintf(f, " (%s%s)", per_package && per_package->type == JV_BOOL && per_package->boolean ? "per package, " : "",
                    source);
    }
    fputs("; THP ", f);
    text(f, json_get_text(t, "thp_mode"));
}

static void command_line(FILE *f, const json_value *argv)
{
    fputs("<code>", f);
    for (size_t i = 0; argv && i < argv->count; i++) {
        if (i)
            fputc(' ', f);
        scalar(f, &argv->items[i]);
    }
    fputs("</code>", f);
}

enum { F_MODE, F_HOST, F_CPU, F_KERNEL, F_ARCH, F_ISA, F_DATE, F_ELAPSED, F_VERSION, F_COMMAND, F_TOPOLOGY,
       F_STATUS, F_COUNT };
static const char *const fact_names[F_COUNT] = {"mode", "host", "CPU", "kernel", "architecture", "ISAs", "date",
                                                "elapsed", "membench", "command", "topology", "status"};

static void fact(FILE *f, const loaded_run *r, int which)
{
    const json_value *d = &r->doc, *host = json_get_object(d, "host");
    const char *t = NULL;
    double elapsed;
    switch (which) {
    case F_MODE: t = r->mode; break;
    case F_HOST: t = r->hostname; break;
    case F_CPU: t = r->cpu_model; break;
    case F_KERNEL: t = r->kernel; break;
    case F_ARCH: t = json_get_text(host, "arch"); break;
    case F_ISA: t = json_get_text(host, "isa"); break;
    case F_DATE: t = r->started_at; break;
    case F_VERSION: t = r->version; break;
    case F_ELAPSED:
        if (json_get_number(d, "elapsed_s", &elapsed))
            fprintf(f, "%.3g s", elapsed);
        return;
    case F_COMMAND: command_line(f, json_get_array(d, "command_line")); return;
    case F_TOPOLOGY: topology_summary(f, json_get_object(d, "topology")); return;
    case F_STATUS:
        if (r->complete) {
            fputs("complete", f);
        } else {
            fputs("<b>incomplete</b>: stopped by ", f);
            t = json_get_text(d, "stopped_by");
            text(f, t ? t : "an unknown cause");
        }
        return;
    }
    text(f, t ? t : "unknown");
}

/* One column per run, so that runs side by side show what differs. */
static void runs_table(FILE *f, const report_model *m)
{
    fputs("<h2>Runs</h2>\n<table class=\"runs\">\n<tr><th></th>", f);
    for (size_t i = 0; i < m->nruns; i++) {
        fputs("<th class=\"run-name\" data-run=\"", f);
        text(f, m->names[i]);
        fputs("\">", f);
        text(f, m->names[i]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int k = 0; k < F_COUNT; k++) {
        fprintf(f, "<tr class=\"fact-%s\"><th>%s</th>", fact_names[k], fact_names[k]);
        for (size_t i = 0; i < m->nruns; i++) {
            fputs("<td>", f);
            fact(f, &m->runs[i], k);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void banners(FILE *f, const report_model *m)
{
    for (size_t i = 0; i < m->nruns; i++) {
        if (m->runs[i].complete)
            continue;
        const char *by = json_get_text(&m->runs[i].doc, "stopped_by");
        fputs("<div class=\"banner incomplete\" data-run=\"", f);
        text(f, m->names[i]);
        fputs("\">Incomplete run: ", f);
        text(f, m->names[i]);
        fputs(" was stopped by ", f);
        text(f, by ? by : "an unknown cause");
        fputs(" before the end; its figures are what it got to.</div>\n", f);
    }
}

/* A warning's kind, so that 26 lines of one kind read as one count. */
static const struct {
    const char *needle, *kind;
} warning_kinds[] = {
    {"fell in two levels", "points whose samples fell in two levels"},
    {"below the DRAM rule", "buffers that may still fit a cache"},
    {"may be a cache's", "buffers that may still fit a cache"},
    {"may include cache hits", "buffers that may still fit a cache"},
    {"the host varied", "host noise"},
    {"hypervisor took", "hypervisor steal"},
    {"did not converge", "points that did not converge"},
};
#define NKINDS (sizeof warning_kinds / sizeof warning_kinds[0])

static size_t warning_kind(const json_value *w)
{
    for (size_t k = 0; w->type == JV_STRING && k < NKINDS; k++)
        if (strstr(w->text, warning_kinds[k].needle))
            return k;
    return NKINDS; /* other */
}

/* Each run's warnings, collapsed per kind with a count: "5 points whose samples
 * fell in two levels"; errors stay open, one a line. */
static void warnings(FILE *f, const report_model *m)
{
    fputs("<h2>Warnings</h2>\n", f);
    for (size_t i = 0; i < m->nruns; i++) {
        const json_value *w = json_get_array(&m->runs[i].doc, "warnings"), *e = json_get_array(&m->runs[i].doc, "errors");
        fputs("<section class=\"run\" data-run=\"", f);
        text(f, m->names[i]);
        fprintf(f, "\" data-complete=\"%s\">\n<h3>", m->runs[i].complete ? "true" : "false");
        text(f, m->names[i]);
        fprintf(f, ": %zu warning%s", w ? w->count : 0, w && w->count == 1 ? "" : "s");
        if (e && e->count)
            fprintf(f, ", %zu error%s", e->count, e->count == 1 ? "" : "s");
        fputs("</h3>\n", f);
        for (size_t k = 0; w && k <= NKINDS; k++) {
            size_t n = 0;
            for (size_t j = 0; j < w->count; j++)
                n += warning_kind(&w->items[j]) == k;
            if (!n)
                continue;
            fprintf(f, "<details class=\"warning-kind\" data-count=\"%zu\"><summary>%zu %s</summary>\n<ul class=\"warnings\">\n",
                    n, n, k < NKINDS ? warning_kinds[k].kind : n == 1 ? "other warning" : "other warnings");
            for (size_t j = 0; j < w->count; j++) {
                if (warning_kind(&w->items[j]) != k)
                    continue;
                fputs("<li class=\"warning\">", f);
                scalar(f, &w->items[j]);
                fputs("</li>\n", f);
            }
            fputs("</ul></details>\n", f);
        }
        string_list(f, e, "errors");
        fputs("</section>\n", f);
    }
}

/* One figure of the headline: the number big, what it is small; or why it is missing. */
static void headline_figure_dd(FILE *f, const char *key, const char *name, const headline_figure *g, double scale,
                               const char *unit)
{
    fprintf(f, "<dt>%s</dt><dd class=\"figure%s\" data-figure=\"%s\"", name, g->rec ? "" : " missing", key);
    if (g->rec) {
        fputs(" data-value=\"", f);
        markup_number(f, g->rec->value);
        fprintf(f, "\" data-size=\"%llu\"><span class=\"big\">%.3g %s</span> <span class=\"why\">", g->rec->size_bytes,
                g->rec->value / scale, unit);
    } else {
        fputs("><span class=\"why\">", f);
    }
    text(f, g->why);
    fputs("</span></dd>\n", f);
}

static void headlines(FILE *f, const report_model *m)
{
    fputs("<div class=\"headlines\">\n", f);
    for (size_t i = 0; i < m->nruns; i++) {
        run_headline h;
        report_headline_of(&m->runs[i], &h);
        fputs("<section class=\"headline\" data-run=\"", f);
        text(f, m->names[i]);
        fputs("\"><h2>", f);
        text(f, m->names[i]);
        fputs(" <span class=\"why\">(", f);
        text(f, m->runs[i].mode);
        fputs(")</span></h2>\n<dl>\n", f);
        for (int k = 0; k < HEAD_FIGURES; k++) {
            bool ns = k == HEAD_LATENCY;
            if (k == HEAD_TRIAD && !h.fig[k].rec && strcmp(m->runs[i].mode, "stream") != 0)
                continue; /* STREAM Triad only when the run has it */
            headline_figure_dd(f, headline_keys[k], headline_names[k], &h.fig[k], ns ? 1 : 1000, ns ? "ns" : "GB/s");
            if (ns && h.random_ns > 0) {
                fputs("<dt>full random latency</dt><dd class=\"figure\" data-figure=\"random-latency\" data-value=\"", f);
                markup_number(f, h.random_ns);
                fprintf(f, "\"><span class=\"big\">%.4g ns</span> <span class=\"why\">", h.random_ns);
                text(f, h.random_why);
                fputs("</span></dd>\n", f);
            }
        }
        fprintf(f, "<dt>LLC</dt><dd class=\"figure%s\" data-figure=\"llc\">", h.llc_known ? "" : " missing");
        text(f, h.llc);
        if (h.probed[0]) {
            fputs("</dd>\n<dt>effective last level one thread sees</dt><dd class=\"figure\" data-figure=\"probed-llc\">", f);
            text(f, h.probed);
        }
        fprintf(f, "</dd>\n<dt>noise</dt><dd class=\"figure%s\" data-figure=\"noise\" data-noisy=\"%d\">",
                h.noisy > 0 ? " noisy" : "", h.noisy);
        text(f, h.noise);
        fputs("</dd>\n</dl>\n</section>\n", f);
    }
    fputs("</div>\n", f);
}

static void options(FILE *f, const report_model *m)
{
    fputs("<h2>Options</h2>\n", f);
    for (size_t i = 0; i < m->nruns; i++) {
        const loaded_run *r = &m->runs[i];
        fputs("<details class=\"options\"><summary>", f);
        text(f, m->names[i]);
        fputs("</summary>\n<table>\n", f);
        for (size_t k = 0; r->options && k < r->options->count; k++) {
            fputs("<tr><th>", f);
            text(f, r->options->items[k].key);
            fputs("</th><td>", f);
            scalar(f, &r->options->items[k]);
            fputs("</td></tr>\n", f);
        }
        fputs("</table></details>\n", f);
    }
}

static void samples_cell(FILE *f, const loaded_record *r)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < r->nsamples; i++) {
        lo = fmin(lo, r->samples[i]);
        hi = fmax(hi, r->samples[i]);
    }
    fprintf(f, "<td class=\"num\">%.6g to %.6g (%zu)</td>", lo, hi, r->nsamples);
}

static void record_row_start(FILE *f, const report_model *m, size_t run, const loaded_record *r)
{
    fputs("<tr class=\"result\" data-run=\"", f);
    text(f, m->names[run]);
    fputs("\" data-operation=\"", f);
    text(f, r->operation);
    fprintf(f, "\" data-size=\"%llu\" data-value=\"", r->size_bytes);
    markup_number(f, r->value);
    fputs("\"><td>", f);
    text(f, m->names[run]);
    fputs("</td>", f);
}

static void stream_table(FILE *f, const report_model *m)
{
    bool peak = false; /* a % of peak column only when some run states a peak */
    for (size_t i = 0; i < m->nstream; i++)
        peak |= m->stream[i].peak_mb_s > 0;
    fputs("<h2>STREAM</h2>\n", f);
    for (size_t i = 0; i < m->nstream_charts; i++) {
        fputs("<figure class=\"stream-chart\">\n", f);
        svg_stream_chart(f, &m->stream_charts[i], m->names[m->stream_charts[i].run], false);
        fputs("</figure>\n", f);
    }
    fprintf(f, "<table class=\"stream\" data-chart=\"stream\">\n<tr><th>run</th><th>configuration</th>"
               "<th>stores</th><th>operation</th><th>best GB/s</th>%s<th>samples, MB/s (min to max, n)</th></tr>\n",
            peak ? "<th>% of peak</th>" : "");
    for (size_t i = 0; i < m->nstream; i++) {
        const stream_row *s = &m->stream[i];
        record_row_start(f, m, s->run, s->rec);
        fputs("<td>", f);
        text(f, s->configuration ? s->configuration : "-");
        fputs("</td><td>", f);
        text(f, s->stores ? s->stores : "-");
        fputs("</td><td>", f);
        text(f, s->rec->operation);
        fprintf(f, "</td><td class=\"num\">%.2f</td>", s->rec->value / 1000);
        if (peak && s->peak_mb_s > 0)
            fprintf(f, "<td class=\"num\">%.1f%%</td>", 100 * s->rec->value / s->peak_mb_s);
        else if (peak)
            fputs("<td>no peak stated</td>", f);
        samples_cell(f, s->rec);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    if (peak)
        fputs("<p class=\"caption\">% of peak: the best sample against the run's stated peak (SMBIOS or "
              "<code>--peak-gbs</code>).</p>\n",
              f);
}

static void other_table(FILE *f, const report_model *m)
{
    fputs("<h2>Other results</h2>\n<table class=\"others\">\n<tr><th>run</th><th>mode</th><th>operation</th>"
          "<th>size</th><th>threads</th><th>value</th><th>samples (min to max, n)</th></tr>\n",
          f);
    char size[32];
    for (size_t i = 0; i < m->nothers; i++) {
        const loaded_record *r = m->others[i].rec;
        record_row_start(f, m, m->others[i].run, r);
        fputs("<td>", f);
        text(f, r->mode);
        fputs("</td><td>", f);
        text(f, r->operation);
        fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%lld</td><td class=\"num\">%.6g ",
                format_bytes(r->size_bytes, size, sizeof size), r->threads, r->value);
        text(f, r->unit);
        fputs("</td>", f);
        samples_cell(f, r);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* How to read the charts, once for all of them; the whole of it is in docs/report.md. */
static void methods(FILE *f)
{
    fputs("<p class=\"methods\">How to read the charts: each point is the median of its samples, its whisker the "
          "interval of that median (widened by the host's noise when the run has a verdict); a small dash marks the "
          "best sample. Hollow: the samples fell in two levels. Grey lines: cache sizes, labelled with their source. "
          "More in <a href=\"" REPORT_DOCS_URL "\">report.md</a> (installed in /usr/share/doc/membench/docs/).</p>\n",
          f);
}

/* With a baseline: each other run's figures against it, as `membench compare` judges them. */
static void baseline_tables(FILE *f, const report_model *m)
{
    fputs("<h2>Against the baseline: ", f);
    text(f, m->names[0]);
    fputs("</h2>\n", f);
    char size[32];
    for (size_t i = 1; i < m->nruns; i++) {
        const compare_report *cr = &m->vs_baseline[i - 1];
        fputs("<h3>", f);
        text(f, m->names[i]);
        fprintf(f, ": %zu faster, %zu slower, %zu no difference, %zu cannot tell, %zu in one run only</h3>\n", cr->faster,
                cr->slower, cr->same, cr->untold, cr->only_a + cr->only_b);
        fputs("<details><summary>every figure</summary>\n<table class=\"baseline\" data-run=\"", f);
        text(f, m->names[i]);
        fputs("\">\n<tr><th>figure</th><th>size</th><th>baseline median</th><th>this run's median</th><th>B/A</th>"
              "<th>95% interval</th><th>verdict</th></tr>\n",
              f);
        for (size_t k = 0; k < cr->count; k++) {
            const compare_row *row = &cr->rows[k];
            const loaded_record *r = row->a ? row->a : row->b;
            fputs("<tr class=\"verdict\" data-operation=\"", f);
            text(f, r->operation);
            fprintf(f, "\" data-size=\"%llu\" data-verdict=\"%s\" data-ratio=\"", r->size_bytes,
                    compare_verdict_text(row->verdict));
            markup_number(f, row->a && row->b ? row->ratio.ratio : NAN);
            fputs("\"><td>", f);
            text(f, r->mode);
            fputs(" ", f);
            text(f, r->operation);
            fprintf(f, "</td><td class=\"num\">%s</td>", format_bytes(r->size_bytes, size, sizeof size));
            if (row->a)
                fprintf(f, "<td class=\"num\">%.6g</td>", row->a_median);
            else
                fputs("<td>-</td>", f);
            if (row->b)
                fprintf(f, "<td class=\"num\">%.6g</td>", row->b_median);
            else
                fputs("<td>-</td>", f);
            if (row->a && row->b)
                fprintf(f, "<td class=\"num\">%.3f</td>", row->ratio.ratio);
            else
                fputs("<td>-</td>", f);
            if (row->a && row->b && row->ratio.told)
                fprintf(f, "<td class=\"num\">%.3f to %.3f</td>", row->ratio.low, row->ratio.high);
            else
                fputs("<td>-</td>", f);
            fprintf(f, "<td>%s</td></tr>\n", compare_verdict_text(row->verdict));
        }
        fputs("</table></details>\n", f);
    }
}

/* The overlay charts, after how to read them. */
static void charts(FILE *f, const report_model *m)
{
    methods(f);
    for (int l = 0; l < LINE_CHARTS; l++) {
        const line_chart *c = &m->lines[l];
        if (!c->nseries)
            continue;
        fprintf(f, "<figure class=\"line-chart\" id=\"chart-%s\">\n", c->id);
        svg_line_chart(f, c, m->names, false);
        fputs("</figure>\n", f);
    }
    for (size_t i = 0; i < m->nheats; i++) {
        fputs("<figure class=\"heat-chart\">\n", f);
        svg_heat_chart(f, &m->heats[i], m->names[m->heats[i].run], false);
        fputs("<figcaption>Each cell: the run's reported value; '-' where nothing was measured.</figcaption>\n"
              "</figure>\n",
              f);
    }
}

void report_html_write(FILE *f, const report_model *m)
{
    bool overlay = m->nruns <= REPORT_CHART_RUNS; /* more runs: a fleet's page is its table */
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>membench report: ", f);
    for (size_t i = 0; overlay && i < m->nruns; i++) {
        fputs(i ? ", " : "", f);
        text(f, m->names[i]);
    }
    if (!overlay)
        fprintf(f, "%zu runs", m->nruns);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>membench report</h1>\n", style);
    fprintf(f, "<p>%zu run%s, written by membench %s from the runs' JSON.</p>\n", m->nruns, m->nruns == 1 ? "" : "s",
            MEMBENCH_VERSION);
    banners(f, m);
    if (overlay)
        headlines(f, m);
    else
        fprintf(f, "<p class=\"fleet-note\">%zu runs, more than %d: this page is their table, each run's warnings and "
                   "any --baseline verdicts; the overlay charts, each run's headline block, the STREAM and other "
                   "results tables, the run facts and options are left out. Report %d runs or fewer to see them.</p>\n",
                m->nruns, REPORT_CHART_RUNS, REPORT_CHART_RUNS);
    if (m->nruns > 1)
        report_fleet_html(f, m);
    if (overlay)
        charts(f, m);
    if (m->vs_baseline)
        baseline_tables(f, m);
    if (overlay && m->nstream)
        stream_table(f, m);
    if (overlay && m->nothers)
        other_table(f, m);
    if (overlay)
        runs_table(f, m);
    warnings(f, m);
    if (overlay)
        options(f, m);
    fputs("</body>\n</html>\n", f);
}
