/* SPDX-License-Identifier: MIT */
#include "report_page.h"

#include <stdlib.h>
#include <string.h>

char *report_written(void (*write)(FILE *f, const report_model *m), const report_model *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    write(f, m);
    fclose(f);
    char *s = strdup(buf); /* not buf itself: gcc takes pointers into it for pointers to buf */
    free(buf);
    return s;
}
