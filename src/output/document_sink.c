/* SPDX-License-Identifier: MIT */
#include "output/document_sink.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/file_target.h"

typedef struct {
    sink base;
    char *given;     /* as the user wrote it, for messages */
    file_target target;
    document_writer write;
    FILE *err;       /* where a failed write is said, once */
    const char *who; /* "membench", "membench latency" */
    bool pending;    /* a record came in a burst and is not written yet */
} document_sink;

typedef struct {
    document_writer write;
    const run_info *info;
} write_call;

static void write_call_run(FILE *f, const void *ctx)
{
    const write_call *c = ctx;
    c->write(f, c->info);
}

static void write_now(document_sink *d, const run_info *info)
{
    write_call c = {d->write, info};
    d->pending = false;
    if (!file_target_write(&d->target, write_call_run, &c) && !d->base.failed) {
        d->base.failed = true;
        fprintf(d->err, "%s: warning: could not write %s (%s)\n", d->who, d->given, file_target_error(errno));
    }
}

/* A replaced file is rewritten after every result (Ctrl-C leaves it whole); a
 * device or FIFO gets the one document at the end. */
static void rewrite(sink *s, const run_info *info)
{
    document_sink *d = (document_sink *)s;
    if (!d->target.direct)
        write_now(d, info);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)r;
    if (s->burst > 0)
        ((document_sink *)s)->pending = true;
    else
        rewrite(s, info);
}

static void burst_end(sink *s, const run_info *info)
{
    if (((document_sink *)s)->pending)
        rewrite(s, info);
}

static void end(sink *s, const run_info *info)
{
    write_now((document_sink *)s, info);
}

static void destroy(sink *s)
{
    document_sink *d = (document_sink *)s;
    free(d->given);
    file_target_free(&d->target);
    free(d);
}

static const sink_ops ops = {rewrite, record, end, destroy, burst_end};

sink *document_sink_create(const char *flag, const char *path, FILE *err, const char *who, document_writer write)
{
    document_sink *d = calloc(1, sizeof *d);
    char msg[512] = "out of memory";
    if (!d || !(d->given = strdup(path)) || !file_target_open(&d->target, flag, path, msg, sizeof msg)) {
        /* Checked at the start; a path changed since (or memory short) is said here,
         * and the caller ends the run: never a run without the file it was asked for. */
        fprintf(err, "%s: error: %s\n", who, msg);
        if (d)
            free(d->given);
        free(d);
        return NULL;
    }
    d->base.ops = &ops;
    d->write = write;
    d->err = err;
    d->who = who;
    return &d->base;
}
