/* SPDX-License-Identifier: MIT */
#include "core/report_headline.h"

#include <stdio.h>
#include <string.h>

#include "topology/cache_source.h"
#include "util/format_bytes.h"

const char *const headline_keys[HEAD_FIGURES] = {"dram-read", "dram-write", "dram-copy", "idle-latency",
                                                 "stream-triad"};
const char *const headline_names[HEAD_FIGURES] = {"DRAM read", "DRAM write", "DRAM copy (counted once)",
                                                  "idle latency (TLB-local)", "STREAM Triad"};

/* The last level the run used (the largest key, L3 over L2), its size and the
 * size a record must pass to be DRAM's: a sweep's per-thread share when planned. */
static const json_value *last_level(const loaded_run *run, double *bytes, double *dram_from)
{
    const json_value *levels = json_get_object(json_get_object(&run->doc, "topology"), "levels_used"), *last = NULL;
    for (size_t i = 0; levels && i < levels->count; i++) {
        double b;
        if (json_get_number(&levels->items[i], "size_bytes", &b) && b > 0 && b < 0x1p62 &&
            (!last || strcmp(levels->items[i].key, last->key) > 0)) {
            last = &levels->items[i];
            *bytes = b;
        }
    }
    *dram_from = last ? *bytes : 0;
    if (last) {
        char key[40];
        double share;
        snprintf(key, sizeof key, "%.8s_share_bytes", last->key);
        if (json_get_number(json_get_object(&run->doc, "plan"), key, &share) && share > 0 && share < *bytes)
            *dram_from = share;
    }
    return last;
}

/* The record of this mode(s), metric and operation at the largest size, if that is DRAM's. */
static void dram_figure(const loaded_run *run, const char *metric, const char *operation, double dram_from,
                        const char *level, headline_figure *f)
{
    const loaded_record *best = NULL;
    for (size_t i = 0; i < run->count; i++) {
        const loaded_record *r = &run->records[i];
        /* the idle latency: latency's curve, or loaded-latency's (and mlc's) idle record */
        bool mode = strcmp(r->mode, "sweep") == 0 ||
                    (strcmp(metric, "latency") == 0 &&
                     (strcmp(r->mode, "latency") == 0 || strcmp(r->operation, "idle-latency") == 0));
        if (mode && strcmp(r->metric, metric) == 0 && (!operation || strcmp(r->operation, operation) == 0) &&
            (!best || r->size_bytes >= best->size_bytes))
            best = r;
    }
    char size[32];
    if (!best) {
        snprintf(f->why, sizeof f->why, "not measured");
        return;
    }
    format_bytes(best->size_bytes, size, sizeof size);
    /* A record planned for DRAM says itself whether it met the DRAM rule and, where
     * no source described the last level, what its plateau check saw. */
    const json_value *fit = json_get(best->json, "may_fit_cache");
    const char *check = json_get_text(json_get_object(best->json, "dram_check"), "verdict");
    if (fit && fit->type == JV_BOOL) {
        f->rec = best;
        snprintf(f->why, sizeof f->why, "%s of %zu samples at %s%s", strcmp(metric, "latency") == 0 ? "median" : "best",
                 best->nsamples, size,
                 fit->boolean ? ": MAY NOT BE DRAM, its footprint is below the DRAM rule"
                 : check && strcmp(check, "not_dram") == 0 ? ": MAY NOT BE DRAM, twice the footprint measured lower"
                                                           : "");
        f->may_not_be_dram = fit->boolean || (check && strcmp(check, "not_dram") == 0);
        return;
    }
    if (dram_from > 0 && (double)best->size_bytes <= dram_from) {
        snprintf(f->why, sizeof f->why, "not measured: the largest buffer, %s, fits the %s", size, level);
        return;
    }
    f->rec = best;
    snprintf(f->why, sizeof f->why, "%s of %zu samples at %s%s", strcmp(metric, "latency") == 0 ? "median" : "best",
             best->nsamples, size, dram_from > 0 ? "" : " (no cache size known to tell DRAM)");
}

static void triad(const loaded_run *run, headline_figure *f)
{
    for (size_t i = 0; i < run->count; i++) {
        const loaded_record *r = &run->records[i];
        if (strcmp(r->mode, "stream") == 0 && strcmp(r->operation, "triad") == 0 && (!f->rec || r->value > f->rec->value))
            f->rec = r;
    }
    const char *stores = f->rec ? json_get_text(json_get_object(f->rec->json, "kernel"), "stores") : NULL;
    if (!f->rec)
        snprintf(f->why, sizeof f->why, "not measured");
    else {
        const json_value *fit = json_get(f->rec->json, "may_fit_cache");
        f->may_not_be_dram = fit && fit->type == JV_BOOL && fit->boolean;
        snprintf(f->why, sizeof f->why, "best%s%.40s%s%s", stores ? " (" : "", stores ? stores : "", stores ? " stores)" : "",
                 f->may_not_be_dram ? ": MAY NOT BE DRAM, each array is below STREAM's rule" : "");
    }
}

static void noise(const loaded_run *run, run_headline *h)
{
    const json_value *n = json_get(&run->doc, "host_noise"), *flagged = json_get(n, "flagged");
    double varied, meaningful;
    long long probes = 0;
    json_get_integer(n, "probes", 0, 1 << 30, &probes);
    h->noisy = -1;
    if (!n || n->type != JV_OBJECT)
        snprintf(h->noise, sizeof h->noise, "no verdict: the run did not reach its end");
    else if (!json_get_number(n, "varied_pct", &varied))
        snprintf(h->noise, sizeof h->noise, "no verdict: %lld probe%s of the host, 5 needed", probes,
                 probes == 1 ? "" : "s");
    else {
        h->noisy = flagged && flagged->type == JV_BOOL && flagged->boolean;
        if (!json_get_number(n, "meaningful_difference_pct", &meaningful))
            meaningful = 2 * varied;
        /* two significant digits, never an exponent (151% read "1.5e+02%") */
        snprintf(h->noise, sizeof h->noise, "%s: the host varied \u00b1%.*f%%; differences below %.*f%% are not meaningful",
                 h->noisy ? "noisy" : "quiet", varied < 10 ? 1 : 0, varied, meaningful < 10 ? 1 : 0, meaningful);
    }
}

/* The latency figure's chase order, and the full random chase measured beside it. */
static void random_latency(run_headline *h)
{
    headline_figure *f = &h->fig[HEAD_LATENCY];
    if (!f->rec)
        return;
    const char *order = json_get_text(json_get_object(f->rec->json, "params"), "chase_order");
    size_t used = strlen(f->why);
    if (order && strcmp(order, "tlb-local") == 0)
        snprintf(f->why + used, sizeof f->why - used, ", TLB-local as multichase");
    else if (order)
        snprintf(f->why + used, sizeof f->why - used, ", %.16s chase", order);
    const json_value *rc = json_get_object(f->rec->json, "random_chase");
    const char *state = json_get_text(rc, "state");
    double v;
    if (state && strcmp(state, "measured") == 0 && json_get_number(rc, "value", &v) && v > 0) {
        h->random_ns = v;
        snprintf(h->random_why, sizeof h->random_why, "median, random over the whole buffer: page walks included");
    }
}

/* Every cache level the run used, its size and where the size came from. */
static void caches(const loaded_run *run, run_headline *h)
{
    const json_value *levels = json_get_object(json_get_object(&run->doc, "topology"), "levels_used");
    size_t used = 0;
    char size[32];
    for (size_t i = 0; levels && i < levels->count && used < sizeof h->caches; i++) {
        double bytes;
        if (!json_get_number(&levels->items[i], "size_bytes", &bytes) || !(bytes > 0) || bytes > 0x1p62)
            continue;
        const json_value *per_package = json_get(&levels->items[i], "per_package");
        const char *source = cache_source_name_of_key(json_get_text(&levels->items[i], "source"));
        bool package = per_package && per_package->type == JV_BOOL && per_package->boolean;
        used += (size_t)snprintf(h->caches + used, sizeof h->caches - used, "%s%.8s %s%s%s%s%s", used ? ", " : "",
                                 levels->items[i].key, format_bytes((unsigned long long)bytes, size, sizeof size),
                                 source || package ? " (" : "", package ? "per package" : "",
                                 source ? (package ? ", " : "") : "", source ? source : "");
        if (used < sizeof h->caches && (source || package))
            used += (size_t)snprintf(h->caches + used, sizeof h->caches - used, ")");
    }
    if (!used)
        snprintf(h->caches, sizeof h->caches, "none known");
    const json_value *plan = json_get_object(&run->doc, "plan");
    const char *rule = json_get_text(plan, "dram_rule");
    snprintf(h->dram_rule, sizeof h->dram_rule, "%s", rule ? rule : "");
    double footprint;
    if (json_get_number(plan, "dram_footprint_bytes", &footprint) && footprint > 0 && footprint < 0x1p62)
        h->dram_footprint = footprint;
}

void report_headline_of(const loaded_run *run, run_headline *h)
{
    memset(h, 0, sizeof *h);
    double bytes = 0, dram_from = 0;
    const json_value *llc = last_level(run, &bytes, &dram_from);
    char size[32], level[16];
    snprintf(level, sizeof level, "%.8s", llc ? llc->key : "last-level cache");
    static const char *const ops[3] = {"read", "write", "copy"};
    for (int i = HEAD_READ; i <= HEAD_COPY; i++)
        dram_figure(run, "bandwidth", ops[i], dram_from, level, &h->fig[i]);
    /* a latency run's sizes are the whole buffer: its threshold is the whole cache */
    dram_figure(run, "latency", NULL, strcmp(run->mode, "sweep") == 0 ? dram_from : llc ? bytes : 0, level,
                &h->fig[HEAD_LATENCY]);
    random_latency(h);
    triad(run, &h->fig[HEAD_TRIAD]);
    if (llc) {
        const char *source = cache_source_name_of_key(json_get_text(llc, "source"));
        h->llc_known = true;
        snprintf(h->llc_level, sizeof h->llc_level, "%s", level);
        h->llc_bytes = bytes;
        h->llc_source = source;
        snprintf(h->llc, sizeof h->llc, "%s %s (%s)", level, format_bytes((unsigned long long)bytes, size, sizeof size),
                 source ? source : "source not recorded");
    } else {
        snprintf(h->llc, sizeof h->llc, "not in the run");
    }
    noise(run, h);
    caches(run, h);
    const json_value *probe = json_get_object(json_get_object(&run->doc, "topology"), "cache_probe");
    double edge = 0;
    if (probe && json_get_number(probe, "llc_bytes", &edge) && edge > 0 && edge < 0x1p62)
        snprintf(h->probed, sizeof h->probed, "%s (cache probe: a diagnostic, no size comes from it)",
                 format_bytes((unsigned long long)edge, size, sizeof size));
}
