/* SPDX-License-Identifier: MIT */
#include "core/run_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"
#include "util/read_file.h"

static bool missing(char *err, size_t errlen, const char *where, const char *key, const char *what)
{
    snprintf(err, errlen, "%s%sno \"%s\" (%s)", where, *where ? ": " : "", key, what);
    return false;
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* "0,1" from the distinct values, "-" for an unknown (-1) node. */
static void node_set(long long *v, size_t n, char *out, size_t len)
{
    qsort(v, n, sizeof *v, by_value);
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        if (i > 0 && v[i] == v[i - 1])
            continue;
        used += v[i] < 0 ? (size_t)snprintf(out + used, len - used, "%s-", used ? "," : "")
                         : (size_t)snprintf(out + used, len - used, "%s%lld", used ? "," : "", v[i]);
    }
}

/* The nodes of a result's threads and of their memory, as "CPU nodes/memory nodes". */
static bool record_nodes(const json_value *placement, loaded_record *r, const char *where, char *err, size_t errlen)
{
    if (!placement || placement->count == 0)
        return missing(err, errlen, where, "placement", "a non-empty array of threads");
    long long *cpu = malloc(2 * placement->count * sizeof *cpu), *mem = cpu ? cpu + placement->count : NULL;
    if (!cpu) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (size_t i = 0; i < placement->count; i++) {
        if (!json_get_integer(&placement->items[i], "node", -1, 1 << 20, &cpu[i]) ||
            !json_get_integer(&placement->items[i], "memory_node", -1, 1 << 20, &mem[i])) {
            free(cpu);
            snprintf(err, errlen, "%s: placement[%zu]: no \"node\" and \"memory_node\" (whole numbers)", where, i);
            return false;
        }
    }
    char c[32], m[32];
    node_set(cpu, placement->count, c, sizeof c);
    node_set(mem, placement->count, m, sizeof m);
    free(cpu);
    snprintf(r->nodes, sizeof r->nodes, "%s/%s", c, m);
    return true;
}

static bool load_record(const json_value *v, size_t i, loaded_record *r, char *err, size_t errlen)
{
    char where[32];
    snprintf(where, sizeof where, "results[%zu]", i);
    r->json = v;
    static const char *const texts[] = {"mode", "operation", "metric", "unit"};
    const char **fields[] = {&r->mode, &r->operation, &r->metric, &r->unit};
    for (size_t k = 0; k < 4; k++)
        if (!(*fields[k] = json_get_text(v, texts[k])))
            return missing(err, errlen, where, texts[k], "a string");
    if (strcmp(r->metric, "bandwidth") != 0 && strcmp(r->metric, "latency") != 0)
        return snprintf(err, errlen, "%s: metric \"%.40s\" is neither bandwidth nor latency", where, r->metric),
               false;
    long long size;
    if (!json_get_integer(v, "size_bytes", 1, 1LL << 62, &size))
        return missing(err, errlen, where, "size_bytes", "a whole number of bytes");
    r->size_bytes = (unsigned long long)size;
    if (!json_get_integer(v, "threads", 1, 1 << 20, &r->threads))
        return missing(err, errlen, where, "threads", "a whole number from 1");
    if (!json_get_number(v, "value", &r->value) || !(r->value > 0))
        return missing(err, errlen, where, "value", "a number above 0");
    const json_value *complete = json_get(v, "complete");
    r->complete = !complete || complete->type != JV_BOOL || complete->boolean;
    if (!record_nodes(json_get_array(v, "placement"), r, where, err, errlen))
        return false;
    const json_value *s = json_get_array(v, "samples");
    if (!s || s->count == 0)
        return missing(err, errlen, where, "samples", "a non-empty array of numbers above 0");
    r->samples = malloc(s->count * sizeof *r->samples);
    if (!r->samples)
        return snprintf(err, errlen, "out of memory"), false;
    r->nsamples = s->count;
    for (size_t k = 0; k < s->count; k++) {
        if (s->items[k].type != JV_NUMBER || !(s->items[k].number > 0))
            return snprintf(err, errlen, "%s: samples[%zu] is not a number above 0", where, k), false;
        r->samples[k] = s->items[k].number;
    }
    /* Optional (schema 2 sweeps): the time batches of compare's verdict. A list that
     * does not give one whole round per sample is ignored, not refused. */
    const json_value *rounds = json_get_array(v, "sample_rounds");
    if (rounds && rounds->count == s->count) {
        r->sample_rounds = malloc(s->count * sizeof *r->sample_rounds);
        for (size_t k = 0; r->sample_rounds && k < s->count; k++) {
            double x = rounds->items[k].number;
            if (rounds->items[k].type != JV_NUMBER || !(x >= 0 && x <= 1e9) || x != (double)(int)x) {
                free(r->sample_rounds);
                r->sample_rounds = NULL;
                break;
            }
            r->sample_rounds[k] = (int)x;
        }
    }
    return true;
}

static bool load_doc(loaded_run *run, char *err, size_t errlen)
{
    const json_value *d = &run->doc;
    const char *tool = json_get_text(d, "tool");
    if (d->type != JV_OBJECT || !tool)
        return snprintf(err, errlen, "not a membench document (no \"tool\")"), false;
    if (strcmp(tool, "membench") != 0)
        return snprintf(err, errlen, "not a membench document (tool \"%.40s\")", tool), false;
    double schema;
    if (!json_get_number(d, "schema", &schema))
        return missing(err, errlen, "", "schema", "the schema version, a number");
    if (schema != RUN_LOAD_SCHEMA)
        return snprintf(err, errlen, "schema %g, but this membench reads schema %d (run it again with this version)",
                        schema, RUN_LOAD_SCHEMA),
               false;
    if (!(run->version = json_get_text(d, "version")))
        return missing(err, errlen, "", "version", "a string");
    if (!(run->mode = json_get_text(d, "mode")))
        return missing(err, errlen, "", "mode", "a string");
    run->started_at = json_get_text(d, "started_at");
    const json_value *complete = json_get(d, "complete");
    if (!complete || complete->type != JV_BOOL)
        return missing(err, errlen, "", "complete", "true or false");
    run->complete = complete->boolean;
    double varied;
    run->host_varied_pct = json_get_number(json_get_object(d, "host_noise"), "varied_pct", &varied) && varied >= 0 &&
                                   varied < 100
                               ? varied
                               : -1;
    const json_value *host = json_get_object(d, "host");
    if (!host)
        return missing(err, errlen, "", "host", "an object");
    static const char *const hk[] = {"hostname", "cpu_model", "kernel"};
    const char **hf[] = {&run->hostname, &run->cpu_model, &run->kernel};
    for (size_t k = 0; k < 3; k++)
        if (!(*hf[k] = json_get_text(host, hk[k])))
            return missing(err, errlen, "host", hk[k], "a string");
    if (!(run->options = json_get_object(d, "options")))
        return missing(err, errlen, "", "options", "an object");
    const json_value *results = json_get_array(d, "results");
    if (!results)
        return missing(err, errlen, "", "results", "an array");
    run->records = calloc(results->count ? results->count : 1, sizeof *run->records);
    if (!run->records)
        return snprintf(err, errlen, "out of memory"), false;
    for (size_t i = 0; i < results->count; i++) {
        run->count = i + 1; /* so run_free frees what this one allocated */
        if (!load_record(&results->items[i], i, &run->records[i], err, errlen))
            return false;
    }
    return true;
}

/* A string or key holding U+0000 ("\u0000" is valid JSON): membench never writes
 * one (its strings are C strings), and each reader would see another string (the
 * text up to the NUL, or all of it). False, with where it is in err: "host.hostname". */
static bool without_nul(const json_value *v, const char *where, char *err, size_t errlen)
{
    if (v->type == JV_STRING && strlen(v->text) != v->len)
        return snprintf(err, errlen, "%s: a string holds \\u0000 (U+0000), which membench never writes",
                        *where ? where : "the document"),
               false;
    for (size_t i = 0; (v->type == JV_ARRAY || v->type == JV_OBJECT) && i < v->count; i++) {
        const json_value *x = &v->items[i];
        if (v->type == JV_OBJECT && strlen(x->key) != x->key_len)
            return snprintf(err, errlen, "%s: a key holds \\u0000 (U+0000), which membench never writes",
                            *where ? where : "the document"),
                   false;
        char inner[256];
        if (v->type == JV_ARRAY)
            snprintf(inner, sizeof inner, "%s[%zu]", where, i);
        else
            snprintf(inner, sizeof inner, "%s%s%.60s", where, *where ? "." : "", x->key);
        if (!without_nul(x, inner, err, errlen))
            return false;
    }
    return true;
}

bool run_load_text(const char *text, size_t len, loaded_run *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    char why[200];
    if (!json_parse(text, len, &run->doc, why, sizeof why)) {
        snprintf(err, errlen, "not JSON: %s", why);
        return false;
    }
    if (!without_nul(&run->doc, "", err, errlen) || !load_doc(run, err, errlen)) {
        one_line(err); /* it may quote the document's own strings */
        run_free(run);
        return false;
    }
    return true;
}

bool run_load(const char *path, size_t limit, loaded_run *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    char *text;
    size_t len;
    if (!read_file_limited(path, limit, &text, &len, err, errlen))
        return false;
    bool ok = run_load_text(text, len, run, err, errlen);
    free(text);
    return ok;
}

void run_free(loaded_run *run)
{
    for (size_t i = 0; i < run->count; i++) {
        free(run->records[i].samples);
        free(run->records[i].sample_rounds);
    }
    free(run->records);
    json_value_free(&run->doc);
    memset(run, 0, sizeof *run);
}
