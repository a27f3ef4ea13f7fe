/* SPDX-License-Identifier: MIT */
#include "output/markup.h"

void markup_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c == 0x7f ? '?' : c, f);
        }
    }
}

void markup_number(FILE *f, double v)
{
    fprintf(f, "%.17g", v);
}
