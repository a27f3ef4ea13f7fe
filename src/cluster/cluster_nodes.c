/* SPDX-License-Identifier: MIT */
/* The cluster's nodes and what is read off each one's document: the headline
 * figures of its mode and the settings that must match the other nodes'. */
#include "cluster/cluster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run_load.h"
#include "util/stats.h"

const char *node_status_name(node_status s)
{
    switch (s) {
    case NODE_OK:
        return "ok";
    case NODE_FAILED:
        return "failed";
    case NODE_NO_ANSWER:
        return "no answer";
    case NODE_WAITING:
        break;
    }
    return "waiting";
}

const char *cluster_signature_name(int sig)
{
    static const char *const names[SIG_COUNT] = {"kernel", "huge pages", "placement"};
    return sig >= 0 && sig < SIG_COUNT ? names[sig] : "?";
}

static char *dup_text(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void clear_figures(cluster_node *n)
{
    for (int f = 0; f < CLUSTER_MAX_FIGURES; f++)
        n->values[f] = n->ratio[f] = NAN;
}

bool cluster_init(cluster *c, const char *mode, int nranks, double threshold)
{
    memset(c, 0, sizeof *c);
    c->mode = dup_text(mode ? mode : "?");
    c->threshold = threshold;
    c->nodes = calloc((size_t)(nranks > 0 ? nranks : 1), sizeof *c->nodes);
    if (!c->mode || !c->nodes) {
        cluster_free(c);
        return false;
    }
    c->nnodes = nranks;
    for (int i = 0; i < nranks; i++) {
        c->nodes[i].rank = i;
        c->nodes[i].exit_status = -1;
        c->nodes[i].steps_lost_at = -1;
        clear_figures(&c->nodes[i]);
    }
    return true;
}

static void node_clear_record(cluster_node *n)
{
    free(n->error);
    free(n->document);
    free(n->reasons);
    n->error = n->document = n->reasons = NULL;
    n->document_len = 0;
    for (int s = 0; s < SIG_COUNT; s++) {
        free(n->signature[s]);
        n->signature[s] = NULL;
    }
    n->outlier = false;
    clear_figures(n);
}

void cluster_free(cluster *c)
{
    for (int i = 0; c->nodes && i < c->nnodes; i++) {
        node_clear_record(&c->nodes[i]);
        free(c->nodes[i].host);
    }
    for (int s = 0; s < SIG_COUNT; s++)
        free(c->majority[s]);
    free(c->nodes);
    free(c->mode);
    memset(c, 0, sizeof *c);
}

void cluster_set_host(cluster *c, int rank, const char *host)
{
    if (rank < 0 || rank >= c->nnodes)
        return;
    free(c->nodes[rank].host);
    c->nodes[rank].host = dup_text(host);
}

/* The figure's index, added the first time a node has it; -1 when the table is full. */
static int figure_index(cluster *c, const char *name, bool higher_is_better)
{
    for (int f = 0; f < c->nfigures; f++)
        if (strcmp(c->figures[f].name, name) == 0)
            return f;
    if (c->nfigures == CLUSTER_MAX_FIGURES)
        return -1;
    cluster_figure *f = &c->figures[c->nfigures];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->higher_is_better = higher_is_better;
    f->median = f->min = f->max = NAN;
    return c->nfigures++;
}

static void figure_name(const loaded_record *r, char *buf, size_t size)
{
    bool bw = strcmp(r->metric, "bandwidth") == 0;
    snprintf(buf, size, "%s %s", r->operation, r->unit ? r->unit : bw ? "MB/s" : "ns");
}

/* The headline figures: STREAM's Triad; otherwise every operation's best
 * bandwidth, and its latency at the largest size (the median of the cells there,
 * for a matrix). */
static void read_figures(cluster *c, cluster_node *n, const loaded_run *run)
{
    bool stream = run->mode && strcmp(run->mode, "stream") == 0;
    double *at_largest = malloc((run->count ? run->count : 1) * sizeof *at_largest);
    if (!at_largest)
        return;
    for (size_t i = 0; i < run->count; i++) {
        const loaded_record *r = &run->records[i];
        bool bw = strcmp(r->metric, "bandwidth") == 0;
        if ((!bw && strcmp(r->metric, "latency") != 0) || (stream && strcmp(r->operation, "triad") != 0))
            continue;
        char name[96];
        figure_name(r, name, sizeof name);
        int f = figure_index(c, name, bw);
        if (f < 0 || !isnan(n->values[f]))
            continue; /* not room for it, or this figure is done */
        if (bw) {
            double best = r->value;
            for (size_t k = i + 1; k < run->count; k++) {
                char other[96];
                figure_name(&run->records[k], other, sizeof other);
                if (strcmp(other, name) == 0 && run->records[k].value > best)
                    best = run->records[k].value;
            }
            n->values[f] = best;
            continue;
        }
        unsigned long long largest = 0;
        for (size_t k = i; k < run->count; k++) {
            char other[96];
            figure_name(&run->records[k], other, sizeof other);
            if (strcmp(other, name) == 0 && run->records[k].size_bytes > largest)
                largest = run->records[k].size_bytes;
        }
        size_t m = 0;
        for (size_t k = i; k < run->count; k++) {
            char other[96];
            figure_name(&run->records[k], other, sizeof other);
            if (strcmp(other, name) == 0 && run->records[k].size_bytes == largest)
                at_largest[m++] = run->records[k].value;
        }
        n->values[f] = stats_compute(at_largest, m).median;
    }
    free(at_largest);
}

/* "4k,thp (THP madvise)": every page method the results used, in order of first
 * use, and the THP mode. */
static char *pages_signature(const json_value *doc)
{
    const char *seen[8];
    size_t nseen = 0;
    char buf[256] = "";
    const json_value *results = json_get_array(doc, "results");
    for (size_t i = 0; results && i < results->count; i++) {
        const char *m = json_get_text(json_get_object(&results->items[i], "pages"), "method");
        bool known = !m;
        for (size_t k = 0; !known && k < nseen; k++)
            known = strcmp(seen[k], m) == 0;
        if (known || nseen == sizeof seen / sizeof seen[0])
            continue;
        seen[nseen++] = m;
        size_t used = strlen(buf);
        snprintf(buf + used, sizeof buf - used, "%s%s", used ? "," : "", m);
    }
    const char *thp = json_get_text(json_get_object(doc, "topology"), "thp_mode");
    char out[320];
    snprintf(out, sizeof out, "%s (THP %s)", nseen ? buf : "-", thp ? thp : "?");
    return strdup(out);
}

/* "spread, 2 threads, pinned": the policy and the team, not the CPU numbers (which
 * differ between nodes, and between ranks that split a host). */
static char *placement_signature(const json_value *doc)
{
    const json_value *p = json_get_object(doc, "placement");
    const char *policy = json_get_text(p, "policy");
    const json_value *threads = json_get_array(p, "threads");
    const json_value *pinned = json_get(p, "pinned");
    char out[160];
    snprintf(out, sizeof out, "%s, %zu thread%s%s", policy ? policy : "?", threads ? threads->count : 0,
             threads && threads->count == 1 ? "" : "s",
             pinned && pinned->type == JV_BOOL ? (pinned->boolean ? ", pinned" : ", not pinned") : "");
    return strdup(out);
}

void cluster_set_record(cluster *c, int rank, int exit_status, const char *document, size_t len, const char *error)
{
    if (rank < 0 || rank >= c->nnodes)
        return;
    cluster_node *n = &c->nodes[rank];
    node_clear_record(n);
    n->exit_status = exit_status;
    n->status = exit_status == 0 ? NODE_OK : NODE_FAILED;
    n->error = dup_text(error);
    if (!document) {
        n->status = NODE_FAILED;
        if (!n->error)
            n->error = strdup("no document");
        return;
    }
    loaded_run run;
    char err[512];
    if (!run_load_text(document, len, &run, err, sizeof err)) {
        char why[600];
        snprintf(why, sizeof why, "its document cannot be read: %s", err);
        free(n->error);
        n->error = strdup(why);
        n->status = NODE_FAILED;
        return;
    }
    n->document = malloc(len + 1);
    if (n->document) {
        memcpy(n->document, document, len);
        n->document[len] = '\0';
        n->document_len = len;
    }
    if (n->status == NODE_OK)
        read_figures(c, n, &run);
    n->signature[SIG_KERNEL] = dup_text(run.kernel ? run.kernel : "?");
    n->signature[SIG_PAGES] = pages_signature(&run.doc);
    n->signature[SIG_PLACEMENT] = placement_signature(&run.doc);
    if (n->status == NODE_FAILED && !n->error) {
        const json_value *errors = json_get_array(&run.doc, "errors");
        const char *first = errors && errors->count && errors->items[0].type == JV_STRING ? errors->items[0].text
                                                                                           : NULL;
        const char *stopped = json_get_text(&run.doc, "stopped_by");
        char why[96];
        if (stopped) /* a signal (scancel, Ctrl-C) or -t: what it measured is in the document */
            snprintf(why, sizeof why, "stopped by %s (exit status %d)", stopped, exit_status);
        else
            snprintf(why, sizeof why, "exit status %d", exit_status);
        n->error = strdup(first ? first : why);
    }
    run_free(&run);
}

void cluster_set_times(cluster *c, int rank, double started, double ended)
{
    if (rank >= 0 && rank < c->nnodes) {
        c->nodes[rank].started = started;
        c->nodes[rank].ended = ended;
    }
}

void cluster_set_steps(cluster *c, int rank, int together, int lost_at)
{
    if (rank >= 0 && rank < c->nnodes) {
        c->nodes[rank].steps_together = together;
        c->nodes[rank].steps_lost_at = lost_at;
    }
}

void cluster_set_missing(cluster *c, int rank, node_status status, const char *why)
{
    if (rank < 0 || rank >= c->nnodes)
        return;
    cluster_node *n = &c->nodes[rank];
    node_clear_record(n);
    n->status = status;
    n->error = dup_text(why);
}
