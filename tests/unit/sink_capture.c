/* SPDX-License-Identifier: MIT */
#include "sink_capture.h"

FILE *sink_capture_open(sink_capture *c)
{
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    return c->f;
}

char *sink_capture_run(sink_capture *c, sink *s, run_info *info, result_record *recs, size_t n, bool complete)
{
    result_list results = {0};
    info->results = &results;
    sink_begin(s, info);
    for (size_t i = 0; i < n; i++) {
        sink_record(s, info, &recs[i]);
        result_free(&recs[i]);
    }
    info->complete = complete;
    sink_end(s, info);
    sink_destroy(s);
    fclose(c->f);
    info->results = NULL;
    run_info_free(info);
    return c->text;
}
