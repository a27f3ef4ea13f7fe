/* SPDX-License-Identifier: MIT */
#include "output/headline_sink.h"

#include <stdlib.h>
#include <string.h>

#include "core/report_headline.h"
#include "core/run_load.h"
#include "output/json_report.h"
#include "util/format_bytes.h"
#include "util/one_line.h"

typedef struct {
    sink base;
    FILE *f;
    char who[64];
} headline_sink;

static void figure_line(FILE *f, const run_headline *h, int k)
{
    const headline_figure *g = &h->fig[k];
    char value[32], size[32];
    if (!g->rec)
        snprintf(value, sizeof value, "-");
    else if (k == HEAD_LATENCY)
        snprintf(value, sizeof value, "%.1f ns", g->rec->value);
    else
        snprintf(value, sizeof value, "%.1f GB/s", g->rec->value / 1000);
    fprintf(f, "  %-26s %12s  ", headline_names[k], value);
    one_line_put(f, g->why);
    if (g->rec && !g->may_not_be_dram && h->dram_footprint > 0 && h->dram_rule[0] && k != HEAD_TRIAD) {
        fprintf(f, "; footprint %s, DRAM by the rule (", format_bytes((uint64_t)h->dram_footprint, size, sizeof size));
        one_line_put(f, h->dram_rule);
        fputc(')', f);
    }
    fputc('\n', f);
}

static void write_headline(FILE *f, const char *who, const loaded_run *run)
{
    run_headline h;
    report_headline_of(run, &h);
    bool sweep = strcmp(run->mode, "sweep") == 0;
    fprintf(f, "%s: headline (the HTML report's card; every sample is in --json)\n", who);
    for (int k = 0; k < HEAD_FIGURES; k++)
        if (h.fig[k].rec || (sweep && k != HEAD_TRIAD))
            figure_line(f, &h, k);
    if (h.random_ns > 0) {
        char value[32];
        snprintf(value, sizeof value, "%.1f ns", h.random_ns);
        fprintf(f, "  %-26s %12s  %s%s\n", "full random latency", value, h.random_why,
                sweep ? " (the CSV's latency_ns)" : "");
    }
    fprintf(f, "  %-26s ", "caches");
    one_line_put(f, h.caches);
    fprintf(f, "\n  %-26s %s\n", "host", h.noise);
}

/* The document in memory, read back as the report reads a file. */
static void end(sink *s, const run_info *info)
{
    headline_sink *hs = (headline_sink *)s;
    if (!info->results || info->results->n == 0)
        return;
    char *doc = NULL, err[160];
    size_t len = 0;
    FILE *m = open_memstream(&doc, &len);
    if (!m)
        return;
    json_write_run(m, info);
    if (fclose(m) != 0) {
        free(doc);
        return;
    }
    loaded_run run;
    if (run_load_text(doc, len, &run, err, sizeof err)) {
        write_headline(hs->f, hs->who, &run);
        run_free(&run);
    } else {
        fprintf(hs->f, "%s: headline: the run could not be read back (%s)\n", hs->who, err);
    }
    fflush(hs->f);
    free(doc);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {NULL, NULL, end, destroy, NULL};

sink *headline_sink_create(FILE *f, const char *who)
{
    headline_sink *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->base.ops = &ops;
    h->f = f;
    snprintf(h->who, sizeof h->who, "%s", who);
    return &h->base;
}
