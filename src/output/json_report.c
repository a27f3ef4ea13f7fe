#include "output/json_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output/topology_report.h"

static void write_param(json_writer *j, const param *p)
{
    switch (p->kind) {
    case PARAM_NUMBER:
        json_number(j, p->key, p->number);
        break;
    case PARAM_INT:
        json_int(j, p->key, p->integer);
        break;
    case PARAM_TEXT:
        json_string(j, p->key, p->text);
        break;
    case PARAM_BOOL:
        json_bool(j, p->key, p->flag);
        break;
    case PARAM_NULL:
        json_null(j, p->key);
        break;
    }
}

void json_write_params(json_writer *j, const char *key, const param_list *l)
{
    json_object_begin(j, key);
    for (size_t i = 0; i < l->n; i++)
        write_param(j, &l->items[i]);
    json_object_end(j);
}

/* Values first, then each table as an array of row objects. */
static void write_section(json_writer *j, const char *key, const param_section *s)
{
    json_object_begin(j, key);
    for (size_t i = 0; i < s->values.n; i++)
        write_param(j, &s->values.items[i]);
    for (size_t t = 0; t < s->ntables; t++) {
        json_array_begin(j, s->tables[t].name);
        for (size_t r = 0; r < s->tables[t].nrows; r++)
            json_write_params(j, NULL, &s->tables[t].rows[r]);
        json_array_end(j);
    }
    json_object_end(j);
}

static void number_or_null(json_writer *j, const char *key, double v, bool known)
{
    if (known)
        json_number(j, key, v);
    else
        json_null(j, key);
}

static void write_summary(json_writer *j, const sample_stats *s)
{
    json_object_begin(j, "summary");
    json_int(j, "n", (long long)s->n);
    json_number(j, "min", s->min);
    json_number(j, "max", s->max);
    json_number(j, "median", s->median);
    json_number(j, "mean", s->mean);
    json_number(j, "stddev", s->stddev);
    json_number(j, "cv", s->cv);
    json_object_end(j);
}

void json_write_record(json_writer *j, const result_record *r)
{
    json_object_begin(j, NULL);
    json_string(j, "mode", r->mode);
    json_string(j, "operation", r->operation);
    json_string(j, "metric", r->metric == METRIC_LATENCY ? "latency" : "bandwidth");
    json_string(j, "unit", result_unit(r));
    json_string(j, "statistic", result_statistic(r));
    json_number(j, "value", result_value(r));
    json_uint(j, "size_bytes", r->size_bytes);
    json_uint(j, "size_kb", r->size_bytes / 1024);
    json_int(j, "threads", r->threads);
    json_array_begin(j, "placement");
    for (int i = 0; r->placement && i < r->threads; i++) {
        json_object_begin(j, NULL);
        json_int(j, "thread", i);
        json_int(j, "cpu", r->placement[i].cpu);
        json_int(j, "node", r->placement[i].node);
        json_int(j, "memory_node", r->placement[i].mem_node);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_begin(j, "kernel");
    json_string(j, "isa", r->kernel_isa);
    json_string(j, "stores", r->kernel_store);
    json_object_end(j);
    json_object_begin(j, "pages");
    json_string(j, "method", r->page_method);
    number_or_null(j, "huge_coverage", r->huge_coverage, r->huge_coverage >= 0);
    json_array_begin(j, "buffers");
    for (int i = 0; i < r->npages; i++) {
        const result_page_group *g = &r->pages[i];
        json_object_begin(j, NULL);
        json_string(j, "method", g->method);
        json_int(j, "count", g->buffers);
        json_number(j, "bytes", g->bytes);
        number_or_null(j, "huge_coverage", g->huge_bytes / g->bytes, g->huge_bytes >= 0 && g->bytes > 0);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
    number_or_null(j, "node_local_fraction", r->node_local_fraction, r->node_local_fraction >= 0);
    json_int(j, "pins_verified", r->pins_verified);
    json_array_begin(j, "samples");
    for (int i = 0; i < r->nsamples; i++)
        json_number(j, NULL, r->samples[i]);
    json_array_end(j);
    json_int(j, "samples_wanted", r->samples_wanted);
    write_summary(j, &r->summary);
    number_or_null(j, "bytes_per_sample", r->bytes_per_sample, r->metric == METRIC_BANDWIDTH);
    json_uint(j, "iterations", r->iterations);
    json_number(j, "elapsed_s", r->elapsed_s);
    number_or_null(j, "cv_target", r->cv_target, r->has_cv_target);
    if (r->has_cv_target)
        json_bool(j, "converged", r->converged);
    else
        json_null(j, "converged");
    json_bool(j, "complete", r->complete);
    json_write_params(j, "params", &r->params);
    json_object_end(j);
}

static void write_host(json_writer *j, const run_info *info)
{
    json_object_begin(j, "host");
    json_string(j, "hostname", info->hostname);
    json_string(j, "cpu_model", info->cpu_model);
    json_string(j, "kernel", info->os_kernel);
    json_string(j, "arch", info->arch);
    json_string(j, "isa", info->isa_list);
    json_string(j, "ref_counter", info->ref_counter);
    json_object_end(j);
}

static void write_placement(json_writer *j, const run_placement *p)
{
    json_object_begin(j, "placement");
    json_string(j, "policy", p->policy);
    json_bool(j, "pinned", p->pinned);
    json_array_begin(j, "threads");
    for (int i = 0; i < p->n; i++) {
        json_object_begin(j, NULL);
        json_int(j, "thread", i);
        json_string(j, "cpus", p->threads[i].cpus);
        json_int(j, "node", p->threads[i].node);
        json_int(j, "memory_node", p->threads[i].mem_node);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

void json_write_run(FILE *f, const run_info *info)
{
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_string(&j, "tool", "membench");
    json_string(&j, "version", MEMBENCH_VERSION);
    json_int(&j, "schema", JSON_SCHEMA_VERSION);
    json_string(&j, "mode", info->mode);
    json_bool(&j, "complete", info->complete);
    json_string(&j, "stopped_by", info->stopped_by);
    if (info->complete || info->stopped_by)
        json_int(&j, "exit_status", info->exit_status);
    else
        json_null(&j, "exit_status");
    json_array_begin(&j, "command_line");
    for (int i = 0; i < info->argc; i++)
        json_string(&j, NULL, info->argv[i]);
    json_array_end(&j);
    json_string(&j, "started_at", info->started_at);
    json_number(&j, "elapsed_s", info->elapsed_s);
    write_host(&j, info);
    if (info->topo)
        topology_report_json(&j, "topology", info->topo);
    else
        json_null(&j, "topology");
    json_array_begin(&j, "warnings");
    for (size_t i = 0; i < info->nwarnings; i++)
        json_string(&j, NULL, info->warnings[i]);
    json_array_end(&j);
    json_array_begin(&j, "errors");
    for (size_t i = 0; i < info->nerrors; i++)
        json_string(&j, NULL, info->errors[i]);
    json_array_end(&j);
    json_write_params(&j, "options", &info->options);
    write_placement(&j, &info->placement);
    write_section(&j, "plan", &info->plan);
    json_array_begin(&j, "results");
    for (size_t i = 0; info->results && i < info->results->n; i++)
        json_write_record(&j, &info->results->items[i]);
    json_array_end(&j);
    write_section(&j, "analysis", &info->analysis);
    json_object_end(&j);
}

/* Where the document goes. A regular file (or a link to one) is replaced
 * atomically through a temporary file next to it, keeping its permissions and
 * owner. Anything else the user names (/dev/null, a FIFO, a terminal, the file
 * stdout already writes to) is never renamed over: the document is written into
 * it once, at the end. */
typedef struct {
    char *path;   /* the link's target for a link to a regular file */
    bool direct;  /* write into the path at the end, no temporary file */
    bool replace; /* an existing regular file: keep its mode and owner */
    struct stat st;
} json_target;

static bool same_file_as_fd(const struct stat *st, int fd)
{
    struct stat o;
    return fstat(fd, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

static bool refuse(char *err, size_t errlen, const char *path, const char *why)
{
    snprintf(err, errlen, "--json %s: cannot write (%s)", path, why);
    return false;
}

static bool target_resolve(const char *given, json_target *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct stat st, lst;
    if (stat(given, &st) != 0) {
        if (errno != ENOENT)
            return refuse(err, errlen, given, strerror(errno));
        if (lstat(given, &lst) == 0) /* a link to nothing: renaming would replace the link */
            return refuse(err, errlen, given, "a symbolic link to a file that does not exist");
        t->path = strdup(given);
        return t->path != NULL || refuse(err, errlen, given, strerror(ENOMEM));
    }
    if (S_ISDIR(st.st_mode))
        return refuse(err, errlen, given, strerror(EISDIR));
    if (S_ISREG(st.st_mode) && !same_file_as_fd(&st, 1) && !same_file_as_fd(&st, 2)) {
        if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
            return refuse(err, errlen, given, "the file is read-only");
        if (access(given, W_OK) != 0)
            return refuse(err, errlen, given, strerror(errno));
        t->path = realpath(given, NULL);
        t->replace = true;
        t->st = st;
        return t->path != NULL || refuse(err, errlen, given, strerror(errno));
    }
    if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        t->direct = true;
        t->path = strdup(given);
        return t->path != NULL || refuse(err, errlen, given, strerror(ENOMEM));
    }
    return refuse(err, errlen, given, "not a regular file, device or FIFO");
}

/* Opens the temporary file a replacement is written to before it is renamed over
 * path; *tmp gets its name (free it), NULL on failure with errno set. */
static FILE *open_temp(const char *path, char **tmp)
{
    /* In the target's directory (rename stays within one file system), with a short
     * name of its own: "PATH.tmp.PID" overflowed NAME_MAX for a long valid PATH. */
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    size_t len = strlen(path) + 48;
    *tmp = malloc(len);
    if (!*tmp)
        return NULL;
    snprintf(*tmp, len, "%.*s/.membench-%ld.tmp", dirlen, dir, (long)getpid());
    FILE *f = fopen(*tmp, "w");
    if (!f) {
        int saved = errno;
        free(*tmp);
        *tmp = NULL;
        errno = saved;
    }
    return f;
}

bool json_path_check(const char *path, char *err, size_t errlen)
{
    json_target t;
    if (!target_resolve(path, &t, err, errlen))
        return false;
    bool ok = true;
    if (!t.direct) {
        char *tmp;
        FILE *f = open_temp(t.path, &tmp);
        if (f) {
            fclose(f);
            unlink(tmp);
            free(tmp);
        } else {
            ok = refuse(err, errlen, path, strerror(errno));
        }
    }
    free(t.path);
    return ok;
}

static bool write_target(const json_target *t, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    if (t->direct) {
        /* O_NONBLOCK: a FIFO nobody reads fails (after a second's grace for a reader
         * that is just starting) instead of hanging; O_APPEND: the file stdout writes
         * to keeps what is already in it. */
        int fd = -1;
        for (int tries = 0; tries < 100; tries++) {
            fd = open(t->path, O_WRONLY | O_APPEND | O_NONBLOCK);
            if (fd >= 0 || errno != ENXIO)
                break;
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        }
        if (fd < 0)
            return false;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        FILE *f = fdopen(fd, "a");
        if (!f) {
            close(fd);
            return false;
        }
        write(f, ctx);
        bool ok = fflush(f) == 0 && !ferror(f);
        return fclose(f) == 0 && ok;
    }
    char *tmp;
    FILE *f = open_temp(t->path, &tmp);
    if (!f)
        return false;
    if (t->replace) { /* the file keeps its permissions and, where we may, its owner */
        bool kept = fchmod(fileno(f), t->st.st_mode & 07777) == 0;
        kept = (geteuid() != 0 || fchown(fileno(f), t->st.st_uid, t->st.st_gid) == 0) && kept;
        (void)kept; /* not fatal: the document still goes where it was asked */
    }
    write(f, ctx);
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, t->path) == 0;
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok;
}

typedef struct {
    sink base;
    char *given;     /* as the user wrote it, for messages */
    json_target target;
    FILE *err;       /* where a failed write is said, once */
    const char *who; /* "membench", "membench latency" */
} json_sink;

static void write_run(FILE *f, const void *ctx)
{
    json_write_run(f, ctx);
}

static void write_now(json_sink *js, const run_info *info)
{
    if (!write_target(&js->target, write_run, info) && !js->base.failed) {
        js->base.failed = true;
        fprintf(js->err, "%s: warning: could not write %s (%s)\n", js->who, js->given, strerror(errno));
    }
}

/* A replaced file is rewritten after every result (Ctrl-C leaves it whole); a
 * device or FIFO gets the one document at the end. */
static void rewrite(sink *s, const run_info *info)
{
    json_sink *js = (json_sink *)s;
    if (!js->target.direct)
        write_now(js, info);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)r;
    rewrite(s, info);
}

static void end(sink *s, const run_info *info)
{
    write_now((json_sink *)s, info);
}

static void destroy(sink *s)
{
    json_sink *js = (json_sink *)s;
    free(js->given);
    free(js->target.path);
    free(js);
}

static const sink_ops ops = {rewrite, record, end, destroy};

sink *json_sink_create(const char *path, FILE *err, const char *who)
{
    json_sink *js = calloc(1, sizeof *js);
    char msg[256];
    if (!js || !(js->given = strdup(path)) || !target_resolve(path, &js->target, msg, sizeof msg)) {
        if (js)
            free(js->given);
        free(js);
        return NULL;
    }
    js->base.ops = &ops;
    js->err = err;
    js->who = who;
    return &js->base;
}
