/* SPDX-License-Identifier: MIT */
#include "output/svg_chart.h"

#include <math.h>
#include <string.h>

#include "core/chart_axis.h"
#include "output/markup.h"

/* Plot area and the legend to its right, in SVG user units. */
enum { WIDTH = 920, HEIGHT = 420, LEFT = 84, RIGHT = 660, TOP = 40, BOTTOM = 350, LEGEND_X = 680 };

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                     "#9467bd", "#8c564b", "#e377c2", "#17becf"};
#define NCOLORS (sizeof colors / sizeof colors[0])
/* Runs are told apart by the line's dashes; operations by colour. */
static const char *const dashes[] = {"none", "8 4", "2 3", "10 3 2 3", "4 4", "12 6"};
#define NDASHES (sizeof dashes / sizeof dashes[0])

static void open_svg(FILE *f, const char *chart, int width, int height, bool standalone)
{
    if (standalone)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"%s\" viewBox=\"0 0 %d %d\" "
            "width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n",
            chart, width, height, width, height);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
}

static void title(FILE *f, const char *text, int x)
{
    fprintf(f, "<text class=\"chart-title\" x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", x);
    markup_text(f, text);
    fputs("</text>\n", f);
}

/* The grid, ticks, plot frame and axis labels; x NULL: no x ticks. */
static void axes(FILE *f, const chart_axis *x, const chart_axis *y, double y_scale, bool x_bytes, const char *x_label,
                 const char *y_label)
{
    double ticks[16];
    char label[32];
    fputs("<g class=\"grid\" stroke=\"#dddddd\">\n", f);
    size_t n = x ? chart_axis_ticks(x, ticks, 12) : 0; /* no x: categories, ticked by the caller */
    for (size_t i = 0; i < n; i++) {
        double px = chart_axis_px(x, ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", px, TOP, px, BOTTOM);
        fprintf(f, "<text class=\"tick\" data-axis=\"x\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" stroke=\"none\" "
                   "fill=\"#333333\">%s</text>\n",
                px, BOTTOM + 16, chart_tick_label(ticks[i], x_bytes, label, sizeof label));
    }
    n = chart_axis_ticks(y, ticks, 8);
    for (size_t i = 0; i < n; i++) {
        double py = chart_axis_px(y, ticks[i]);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT, py, RIGHT, py);
        fprintf(f, "<text class=\"tick\" data-axis=\"y\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" stroke=\"none\" "
                   "fill=\"#333333\">%s</text>\n",
                LEFT - 6, py + 4, chart_tick_label(ticks[i], false, label, sizeof label));
    }
    fputs("</g>\n", f);
    /* the y axis as data, so a test can map a value to the pixel it must be drawn at */
    fprintf(f, "<rect class=\"plot-area\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#555555\" "
               "data-y-lo=\"%.17g\" data-y-hi=\"%.17g\" data-y-log2=\"%s\" data-y-scale=\"%.17g\"/>\n",
            LEFT, TOP, RIGHT - LEFT, BOTTOM - TOP, y->lo, y->hi, y->log2 ? "true" : "false", y_scale);
    fprintf(f, "<text class=\"axis-label\" data-axis=\"x\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (LEFT + RIGHT) / 2,
            BOTTOM + 38);
    markup_text(f, x_label);
    fprintf(f, "</text>\n<text class=\"axis-label\" data-axis=\"y\" x=\"18\" y=\"%d\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 18 %d)\">",
            (TOP + BOTTOM) / 2, (TOP + BOTTOM) / 2);
    markup_text(f, y_label);
    fputs("</text>\n", f);
}

static void markers(FILE *f, const line_chart *c, const chart_axis *x)
{
    fputs("<g class=\"markers\">\n", f);
    for (size_t i = 0; i < c->nmarkers; i++) {
        const chart_marker *m = &c->markers[i];
        if (m->x < x->lo || m->x > x->hi)
            continue; /* a cache outside the sizes measured */
        double px = chart_axis_px(x, m->x);
        fprintf(f, "<g class=\"cache-marker\" data-size=\"%.0f\" data-measured=\"%s\">", m->x,
                m->measured ? "true" : "false");
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"%s\"/>", px, TOP,
                px, BOTTOM, m->measured ? "#b8860b" : "#888888", m->measured ? "6 3" : "3 3");
        /* reported sizes labelled from the top, measured ones from the bottom: the two often coincide */
        int ly = m->measured ? BOTTOM - 4 : TOP + 4;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"%s\" text-anchor=\"%s\" "
                   "transform=\"rotate(-90 %.1f %d)\">",
                px - 3, ly, m->measured ? "#8b6508" : "#666666", m->measured ? "start" : "end", px - 3, ly);
        markup_text(f, m->label);
        fputs("</text></g>\n", f);
    }
    fputs("</g>\n", f);
}

static void series(FILE *f, const line_chart *c, const chart_series *s, const char *run, const chart_axis *x,
                   const chart_axis *y)
{
    const char *color = colors[s->color % NCOLORS];
    fputs("<g class=\"series\" data-series=\"", f);
    markup_text(f, s->operation);
    fputs("\" data-run=\"", f);
    markup_text(f, run);
    fprintf(f, "\" stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
            color, color, dashes[s->run % NDASHES]);
    for (size_t i = 0; i < s->count; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", chart_axis_px(x, s->points[i].x),
                chart_axis_px(y, s->points[i].y / c->y_scale));
    fputs("\"/>\n", f);
    for (size_t i = 0; i < s->count; i++) {
        const chart_point *p = &s->points[i];
        double px = chart_axis_px(x, p->x);
        if (!isnan(p->best)) { /* a short dash, apart from the whisker */
            fprintf(f, "<line class=\"best\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"2\" "
                       "data-best=\"",
                    px - 5, chart_axis_px(y, p->best / c->y_scale), px + 5, chart_axis_px(y, p->best / c->y_scale));
            markup_number(f, p->best);
            fputs("\"/>\n", f);
        }
        fprintf(f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.5\" data-low=\"",
                px, chart_axis_px(y, p->low / c->y_scale), px, chart_axis_px(y, p->high / c->y_scale));
        markup_number(f, p->low);
        fputs("\" data-high=\"", f);
        markup_number(f, p->high);
        bool two = p->low_level_n > 0; /* hollow: a median of such samples is neither level */
        fprintf(f, "\"/>\n<circle class=\"point%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" data-size=\"%llu\"%s data-x=\"",
                two ? " two-levels" : "", px, chart_axis_px(y, p->y / c->y_scale), p->rec->size_bytes, two ? " fill=\"#fff\"" : "");
        markup_number(f, p->x);
        if (p->verdict)
            fprintf(f, "\" data-verdict=\"%s", p->verdict);
        fputs("\" data-value=\"", f);
        markup_number(f, p->y);
        char label[32];
        fprintf(f, "\"><title>");
        markup_text(f, run);
        fputs(" ", f);
        markup_text(f, s->operation);
        fprintf(f, " at %s: %.6g ",
                c->x_log2 ? chart_tick_label(p->x, true, label, sizeof label) : (snprintf(label, sizeof label, "%.6g MB/s", p->x), label),
                p->y);
        markup_text(f, p->verdict ? "B/A" : p->rec->unit); /* the document's text: escaped like every other */
        fprintf(f, " (%s %.6g to %.6g)", p->whisker_name, p->low, p->high);
        if (p->verdict)
            fprintf(f, ": %s", p->verdict);
        if (!isnan(p->best))
            fprintf(f, "; best sample %.6g", p->best);
        if (two) {
            fprintf(f, "; its samples fell in two levels, %zu near %.4g and %zu near %.4g",
                    p->low_level_n, p->low_level_median, p->high_level_n, p->high_level_median);
        }
        fputs("</title></circle>\n", f);
    }
    fputs("</g>\n", f);
}

static void legend(FILE *f, const line_chart *c, const char *const *run_names)
{
    int y = TOP + 6;
    fputs("<g class=\"legend\">\n", f);
    for (size_t k = 0; k < c->noperations; k++)
        for (size_t i = 0; i < c->nseries; i++) {
            if (c->series[i].color != k)
                continue;
            fputs("<g class=\"legend-series\" data-series=\"", f);
            markup_text(f, c->series[i].operation);
            fprintf(f, "\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                    LEGEND_X, y, colors[k % NCOLORS], LEGEND_X + 20, y + 10);
            markup_text(f, c->series[i].operation);
            fputs("</text></g>\n", f);
            y += 18;
            break;
        }
    y += 8;
    for (size_t i = 0; i < c->nseries; i++) {
        size_t run = c->series[i].run;
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = c->series[j].run != run;
        if (!first)
            continue;
        fputs("<g class=\"legend-run\" data-run=\"", f);
        markup_text(f, run_names[run]);
        fprintf(f, "\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\" stroke-width=\"2\" "
                   "stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%d\">",
                LEGEND_X, y + 5, LEGEND_X + 30, y + 5, dashes[run % NDASHES], LEGEND_X + 36, y + 9);
        markup_text(f, run_names[run]);
        fputs("</text></g>\n", f);
        y += 18;
    }
    fputs("</g>\n", f);
}

void svg_line_axes(const line_chart *c, chart_axis *x, chart_axis *y)
{
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = 0, high = 0;
    for (size_t i = 0; i < c->nseries; i++)
        for (size_t k = 0; k < c->series[i].count; k++) {
            const chart_point *p = &c->series[i].points[k];
            xmin = fmin(xmin, p->x);
            xmax = fmax(xmax, p->x);
            ymin = fmin(ymin, p->y);
            ymax = fmax(ymax, isnan(p->best) ? p->y : fmax(p->y, p->best));
            high = fmax(high, p->high);
        }
    *x = chart_axis_fit(xmin, xmax, c->x_log2, LEFT, RIGHT);
    /* The points decide the range; one outlying sample must not flatten them. */
    *y = chart_axis_fit(ymin / c->y_scale, fmax(ymax, fmin(high, 1.5 * ymax)) / c->y_scale, c->y_log2, BOTTOM, TOP);
}

void svg_line_chart(FILE *f, const line_chart *c, const char *const *run_names, bool standalone)
{
    chart_axis x, y;
    svg_line_axes(c, &x, &y);
    open_svg(f, c->id, WIDTH, HEIGHT, standalone);
    fputs("<desc>", f);
    markup_text(f, c->caption);
    fputs("</desc>\n", f);
    title(f, c->title, LEFT);
    axes(f, &x, &y, c->y_scale, c->x_log2, c->x_label, c->y_label);
    markers(f, c, &x);
    for (size_t i = 0; i < c->nseries; i++)
        series(f, c, &c->series[i], run_names[c->series[i].run], &x, &y);
    legend(f, c, run_names);
    fputs("</svg>\n", f);
}

/* A cell's fill: from pale to dark blue as its value grows within the matrix. */
static void shade_color(double t, char *out, size_t len)
{
    static const double pale[3] = {0xf0, 0xf6, 0xfc}, dark[3] = {0x08, 0x30, 0x6b};
    int c[3];
    for (int i = 0; i < 3; i++)
        c[i] = (int)lround(pale[i] + t * (dark[i] - pale[i]));
    snprintf(out, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

void svg_heat_chart(FILE *f, const heat_chart *h, const char *run_name, bool standalone)
{
    enum { HX = 120, HY = 70, CELL_H = 30 };
    int cw = h->cols ? (int)(640 / h->cols) : 80;
    cw = cw > 110 ? 110 : cw < 44 ? 44 : cw;
    int width = HX + cw * (int)h->cols + 40, height = HY + CELL_H * (int)h->rows + 50;
    if (width < 480)
        width = 480;
    double min = INFINITY, max = -INFINITY;
    for (size_t i = 0; i < h->rows * h->cols; i++)
        if (!isnan(h->values[i])) {
            min = fmin(min, h->values[i]);
            max = fmax(max, h->values[i]);
        }
    open_svg(f, h->id, width, height, standalone);
    title(f, h->title, 10);
    fputs("<text class=\"chart-run\" x=\"10\" y=\"40\" fill=\"#555555\">", f);
    markup_text(f, run_name);
    fputs("</text>\n", f);
    fprintf(f, "<text class=\"axis-label\" data-axis=\"x\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", HX + cw * (int)h->cols / 2, HY - 22);
    markup_text(f, h->col_title);
    fprintf(f, "</text>\n<text class=\"axis-label\" data-axis=\"y\" x=\"10\" y=\"%d\">", HY - 6);
    markup_text(f, h->row_title);
    fputs("</text>\n", f);
    for (size_t c = 0; c < h->cols; c++) {
        fprintf(f, "<text class=\"tick\" data-axis=\"x\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", HX + cw * (int)c + cw / 2, HY - 6);
        markup_text(f, h->col_labels[c]);
        fputs("</text>\n", f);
    }
    fputs("<g class=\"cells\" data-run=\"", f);
    markup_text(f, run_name);
    fputs("\">\n", f);
    for (size_t r = 0; r < h->rows; r++) {
        int y = HY + CELL_H * (int)r;
        fprintf(f, "<text class=\"tick\" data-axis=\"y\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", HX - 8, y + CELL_H / 2 + 4);
        markup_text(f, h->row_labels[r]);
        fputs("</text>\n", f);
        for (size_t c = 0; c < h->cols; c++) {
            double v = h->values[r * h->cols + c];
            int x = HX + cw * (int)c;
            char fill[8] = "#cccccc";
            double t = isnan(v) ? 0 : chart_shade(v, min, max);
            if (!isnan(v))
                shade_color(t, fill, sizeof fill);
            fputs("<g class=\"cell\" data-row=\"", f);
            markup_text(f, h->row_labels[r]);
            fputs("\" data-col=\"", f);
            markup_text(f, h->col_labels[c]);
            fputs("\"", f);
            if (!isnan(v)) {
                fputs(" data-value=\"", f);
                markup_number(f, v);
                fprintf(f, "\" data-size=\"%llu\"", h->cells[r * h->cols + c]->size_bytes);
            }
            fprintf(f, "><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#ffffff\"/>", x, y, cw,
                    CELL_H, fill);
            fprintf(f, "<text class=\"cell-value\" x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"%s\">",
                    x + cw / 2, y + CELL_H / 2 + 4, t > 0.55 ? "#ffffff" : "#111111");
            if (isnan(v))
                fputs("-", f);
            else
                fprintf(f, "%.*f", v >= 1000 ? 0 : 1, v);
            fputs("</text></g>\n", f);
        }
    }
    fputs("</g>\n</svg>\n", f);
}

/* Grouped bars: per kernel, regular stores beside non-temporal ones, in GB/s from 0. */
void svg_stream_chart(FILE *f, const stream_chart *c, const char *run_name, bool standalone)
{
    static const char *const kinds[2] = {"regular", "non-temporal"}, *const fills[2] = {"#1f77b4", "#ff7f0e"};
    static const char *const titles[STREAM_KERNELS] = {"Copy", "Scale", "Add", "Triad"};
    double max = 0;
    for (int k = 0; k < STREAM_KERNELS; k++)
        for (int s = 0; s < 2; s++)
            if (c->bars[k][s])
                max = fmax(max, c->bars[k][s]->value / 1000);
    chart_axis y = chart_axis_fit(0, max, false, BOTTOM, TOP);
    open_svg(f, "stream", WIDTH, HEIGHT, standalone);
    title(f, "STREAM: regular against non-temporal stores", LEFT);
    axes(f, NULL, &y, 1000, false, "kernel", "best bandwidth (GB/s)");
    fputs("<g class=\"bars\" data-run=\"", f);
    markup_text(f, run_name);
    fputs("\">\n", f);
    double group = (RIGHT - LEFT) / (double)STREAM_KERNELS, bar = group / 3;
    for (int k = 0; k < STREAM_KERNELS; k++) {
        double gx = LEFT + k * group;
        fprintf(f, "<text class=\"tick\" data-axis=\"x\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                gx + group / 2, BOTTOM + 16, titles[k]);
        for (int s = 0; s < 2; s++) {
            const loaded_record *r = c->bars[k][s];
            if (!r)
                continue;
            double x0 = gx + bar / 2 + s * bar, top = chart_axis_px(&y, r->value / 1000);
            fprintf(f, "<g class=\"bar\" data-operation=\"%s\" data-stores=\"%s\" data-value=\"", stream_kernels[k],
                    kinds[s]);
            markup_number(f, r->value);
            fprintf(f, "\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s, %s stores: "
                       "%.4g GB/s</title></rect>",
                    x0, top, bar - 2, BOTTOM - top, fills[s], titles[k], kinds[s], r->value / 1000);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%.3g</text></g>\n",
                    x0 + (bar - 2) / 2, top - 4, r->value / 1000);
        }
    }
    fputs("</g>\n<g class=\"legend\">\n", f);
    for (int s = 0; s < 2; s++)
        fprintf(f, "<g class=\"legend-series\" data-series=\"%s\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" "
                   "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s stores</text></g>\n",
                kinds[s], LEGEND_X, TOP + 6 + 18 * s, fills[s], LEGEND_X + 20, TOP + 16 + 18 * s, kinds[s]);
    fputs("<text class=\"chart-run\" x=\"", f);
    fprintf(f, "%d\" y=\"%d\" fill=\"#555555\">", LEGEND_X, TOP + 56);
    markup_text(f, run_name);
    fputs("</text>\n</g>\n</svg>\n", f);
}
