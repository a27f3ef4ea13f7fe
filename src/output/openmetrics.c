/* SPDX-License-Identifier: MIT */
#include "output/openmetrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

void om_family(FILE *f, const char *name, const char *type, const char *unit, const char *help)
{
    /* TYPE first: the Prometheus text parser takes UNIT as a comment and HELP and
     * TYPE in either order; OpenMetrics takes these three in any order. */
    fprintf(f, "# TYPE %s %s\n", name, type);
    if (unit)
        fprintf(f, "# UNIT %s %s\n", name, unit);
    fprintf(f, "# HELP %s %s\n", name, help);
}

void om_write_label_value(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\')
            fputs("\\\\", f);
        else if (*p == '"')
            fputs("\\\"", f);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20 || *p == 0x7f)
            fputs("\xef\xbf\xbd", f); /* U+FFFD */
        else {
            size_t n = utf8_sequence(p);
            if (n == 0) {
                fputs("\xef\xbf\xbd", f);
            } else {
                fwrite(p, 1, n, f);
                p += n - 1;
            }
        }
    }
}

void om_write_number(FILE *f, double v)
{
    if (isnan(v)) {
        fputs("NaN", f);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "+Inf" : "-Inf", f);
        return;
    }
    /* as JSON writes numbers: a reader gets exactly the double that was measured */
    char text[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    fputs(text, f);
}

void om_write_labels(FILE *f, const om_label *labels, int nlabels)
{
    int written = 0;
    for (int i = 0; i < nlabels; i++) {
        if (!labels[i].value || !labels[i].value[0])
            continue;
        fprintf(f, "%s%s=\"", written++ ? "," : "", labels[i].name);
        om_write_label_value(f, labels[i].value);
        fputc('"', f);
    }
}

char *om_labels_text(const om_label *labels, int nlabels)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return NULL;
    om_write_labels(m, labels, nlabels);
    if (fclose(m) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

char *om_labels_plus(const char *labels, const char *name, const char *value)
{
    size_t len = strlen(labels) + strlen(name) + strlen(value) + 5;
    char *text = malloc(len);
    if (text)
        snprintf(text, len, "%s%s%s=\"%s\"", labels, labels[0] ? "," : "", name, value);
    return text;
}

void om_sample(FILE *f, const char *name, const char *labels, double value)
{
    if (labels && labels[0])
        fprintf(f, "%s{%s} ", name, labels);
    else
        fprintf(f, "%s ", name);
    om_write_number(f, value);
    fputc('\n', f);
}

void om_eof(FILE *f)
{
    fputs("# EOF\n", f);
}
