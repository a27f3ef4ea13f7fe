/* SPDX-License-Identifier: MIT */
#include "output/report_files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "output/file_target.h"
#include "output/report_html.h"
#include "output/svg_chart.h"

bool report_check_html_path(const char *path, const char *const *runs, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++)
        if (file_target_same_file(path, runs[i])) {
            snprintf(err, errlen, "-o %s: is the run %s (the report would overwrite it)", path, runs[i]);
            return false;
        }
    return file_target_check("-o", path, err, errlen);
}

bool report_check_svg_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--svg %s: not a directory (%s)", dir,
                 stat(dir, &st) != 0 ? strerror(errno) : "a file; give the directory the charts go in");
        return false;
    }
    return true;
}

static void write_html(FILE *f, const void *ctx)
{
    report_html_write(f, ctx);
}

bool report_write_html(const char *path, const report_model *m, char *err, size_t errlen)
{
    return file_target_write_path("-o", path, write_html, m, err, errlen);
}

typedef struct {
    const report_model *m;
    const line_chart *line;
    const heat_chart *heat;
} svg_job;

static void write_svg(FILE *f, const void *ctx)
{
    const svg_job *j = ctx;
    if (j->line)
        svg_line_chart(f, j->line, j->m->names, true);
    else
        svg_heat_chart(f, j->heat, j->m->names[j->heat->run], true);
}

/* A file name from a heatmap's group (a traffic type, a c2c state): letters,
 * digits, '-' and '_' kept, anything else '_'. */
static void name_part(const char *s, char *out, size_t len)
{
    size_t n = 0;
    for (; *s && n + 1 < len; s++, n++)
        out[n] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ? *s : '_';
    out[n] = '\0';
}

/* The k-th SVG of m (k from 0): its path in dir and what draws it. False past the
 * last one. */
static bool svg_at(const char *dir, const report_model *m, size_t k, char *path, size_t len, svg_job *j)
{
    for (int l = 0; l < LINE_CHARTS; l++) {
        if (!m->lines[l].nseries || k--)
            continue;
        snprintf(path, len, "%s/%s.svg", dir, m->lines[l].id);
        *j = (svg_job){m, &m->lines[l], NULL};
        return true;
    }
    if (k >= m->nheats)
        return false;
    const heat_chart *h = &m->heats[k];
    char group[48];
    name_part(h->group, group, sizeof group);
    snprintf(path, len, "%s/%s-%zu%s%s.svg", dir, h->id, h->run + 1, *group ? "-" : "", group);
    *j = (svg_job){m, NULL, h};
    return true;
}

bool report_check_svgs(const char *dir, const report_model *m, const char *html, const char *csv,
                       const char *const *runs, size_t n, char *err, size_t errlen)
{
    char path[4096];
    svg_job j;
    for (size_t k = 0; svg_at(dir, m, k, path, sizeof path, &j); k++) {
        if (html && file_target_same_file(path, html)) {
            snprintf(err, errlen, "--svg %s: %s is the page -o %s (a chart would overwrite it)", dir, path, html);
            return false;
        }
        if (csv && file_target_same_file(path, csv)) {
            snprintf(err, errlen, "--csv %s: is the chart %s of --svg %s (one would overwrite the other)", csv, path,
                     dir);
            return false;
        }
        for (size_t i = 0; i < n; i++)
            if (file_target_same_file(path, runs[i])) {
                snprintf(err, errlen, "--svg %s: %s is the run %s (a chart would overwrite it)", dir, path, runs[i]);
                return false;
            }
        if (!file_target_check("--svg", path, err, errlen))
            return false;
    }
    return true;
}

bool report_write_svgs(const char *dir, const report_model *m, size_t *written, char *err, size_t errlen)
{
    char path[4096];
    svg_job j;
    *written = 0;
    for (size_t k = 0; svg_at(dir, m, k, path, sizeof path, &j); k++) {
        if (!file_target_write_path("--svg", path, write_svg, &j, err, errlen))
            return false;
        ++*written;
    }
    return true;
}
