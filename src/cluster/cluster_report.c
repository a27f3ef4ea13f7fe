/* SPDX-License-Identifier: MIT */
#include "cluster/cluster_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/json.h"
#include "util/one_line.h"

/* Columns past this many figures go to JSON only, so the table stays readable. */
#define TABLE_MAX_FIGURES 8

static void cell_number(char *buf, size_t size, double v)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.1f", v);
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

enum { HOST_TEXT = 256 };

/* The rank's host name as the table shows it: neutralised (util/one_line.h), a
 * name is the node's to choose. */
static const char *host_of(const cluster_node *n, char *buf)
{
    return one_line_copy(buf, HOST_TEXT, n->host ? n->host : "?");
}

/* Whether every node's steps started together, and where that stopped if not. */
static void steps_line(FILE *f, const cluster *c)
{
    int lo = -1, hi = -1, lost = 0;
    char host[HOST_TEXT];
    for (int i = 0; i < c->nnodes; i++) {
        const cluster_node *n = &c->nodes[i];
        if (n->status == NODE_WAITING || n->status == NODE_NO_ANSWER)
            continue;
        lo = lo < 0 || n->steps_together < lo ? n->steps_together : lo;
        hi = n->steps_together > hi ? n->steps_together : hi;
        lost += n->steps_lost_at >= 0;
    }
    if (lo < 0)
        return;
    if (!lost) {
        fprintf(f, "\nEvery measured step started on every node at once (%d step%s, a barrier before each)\n", hi,
                hi == 1 ? "" : "s");
        return;
    }
    fprintf(f, "\nSteps started together until a wait passed --rank-timeout:\n");
    for (int i = 0; i < c->nnodes; i++) {
        const cluster_node *n = &c->nodes[i];
        if (n->steps_lost_at >= 0 && n->status != NODE_WAITING && n->status != NODE_NO_ANSWER)
            fprintf(f, "  rank %d %s: %d steps together, then alone from step %d\n", n->rank, host_of(n, host),
                    n->steps_together, n->steps_lost_at + 1);
    }
}

void cluster_table_write(FILE *f, const cluster *c, const cluster_run *run)
{
    int nfig = c->nfigures < TABLE_MAX_FIGURES ? c->nfigures : TABLE_MAX_FIGURES;
    int host_w = 4, status_w = 6, fig_w[TABLE_MAX_FIGURES];
    char host[HOST_TEXT];
    for (int i = 0; i < c->nnodes; i++) {
        host_w = max_int(host_w, (int)strlen(host_of(&c->nodes[i], host)));
        status_w = max_int(status_w, (int)strlen(node_status_name(c->nodes[i].status)));
    }
    for (int k = 0; k < nfig; k++)
        fig_w[k] = max_int(10, (int)strlen(c->figures[k].name));
    int ok = 0;
    for (int i = 0; i < c->nnodes; i++)
        ok += c->nodes[i].status == NODE_OK;
    fprintf(f, "membench-mpi %s: %d rank%s, %d succeeded, measured %s\n", c->mode, c->nnodes,
            c->nnodes == 1 ? "" : "s", ok, run && run->one_at_a_time ? "one at a time" : "together");
    fprintf(f, "%-6s  %-*s  %-*s", "rank", host_w, "host", status_w, "status");
    for (int k = 0; k < nfig; k++)
        fprintf(f, "  %*s", fig_w[k], c->figures[k].name);
    fprintf(f, "  outlier\n");
    for (int i = 0; i < c->nnodes; i++) {
        const cluster_node *n = &c->nodes[i];
        fprintf(f, "%-6d  %-*s  %-*s", n->rank, host_w, host_of(n, host), status_w, node_status_name(n->status));
        for (int k = 0; k < nfig; k++) {
            char cell[32];
            cell_number(cell, sizeof cell, n->status == NODE_OK ? n->values[k] : NAN);
            fprintf(f, "  %*s", fig_w[k], cell);
        }
        fprintf(f, "  %s\n", n->outlier || n->status != NODE_OK ? "yes" : "");
    }
    static const char *const rows[] = {"median", "min", "max"};
    for (int r = 0; r < 3; r++) {
        fprintf(f, "%-6s  %-*s  %-*s", rows[r], host_w, "", status_w, "");
        for (int k = 0; k < nfig; k++) {
            const cluster_figure *fig = &c->figures[k];
            char cell[32];
            cell_number(cell, sizeof cell, r == 0 ? fig->median : r == 1 ? fig->min : fig->max);
            fprintf(f, "  %*s", fig_w[k], cell);
        }
        fputc('\n', f);
    }
    if (c->nfigures > nfig)
        fprintf(f, "(%d more figures in the JSON)\n", c->nfigures - nfig);
    int bad = 0;
    for (int i = 0; i < c->nnodes; i++)
        bad += c->nodes[i].outlier || c->nodes[i].status != NODE_OK;
    fprintf(f, "\n%d outlier%s (below %.0f%% of the median, unlike the majority, failed or silent)%s\n", bad,
            bad == 1 ? "" : "s", c->threshold * 100, bad ? ":" : "");
    for (int i = 0; i < c->nnodes; i++) {
        const cluster_node *n = &c->nodes[i];
        char line[1024] = "";
        if (n->status != NODE_OK) /* the error is the rank's own text */
            snprintf(line, sizeof line, "  rank %d %s: %s: %s", n->rank, host_of(n, host), node_status_name(n->status),
                     n->error ? n->error : "no reason given");
        else if (n->outlier)
            snprintf(line, sizeof line, "  rank %d %s: %s", n->rank, host_of(n, host), n->reasons ? n->reasons : "");
        if (*line)
            fprintf(f, "%s\n", one_line(line));
    }
    if (run && !run->one_at_a_time)
        steps_line(f, c);
}

static void number_or_null(json_writer *j, const char *key, double v)
{
    if (isnan(v))
        json_null(j, key);
    else
        json_number(j, key, v);
}

static void write_node(json_writer *j, const cluster *c, const cluster_node *n)
{
    json_object_begin(j, NULL);
    json_int(j, "rank", n->rank);
    json_string(j, "host", n->host);
    json_string(j, "status", node_status_name(n->status));
    json_string(j, "error", n->error);
    if (n->exit_status >= 0)
        json_int(j, "exit_status", n->exit_status);
    else
        json_null(j, "exit_status");
    if (n->started > 0) { /* when it measured: together, or in turn */
        json_number(j, "measured_from_unix_s", n->started);
        json_number(j, "measured_to_unix_s", n->ended);
    }
    if (n->status != NODE_WAITING && n->status != NODE_NO_ANSWER) {
        json_int(j, "steps_started_together", n->steps_together);
        if (n->steps_lost_at >= 0)
            json_int(j, "steps_together_lost_at", n->steps_lost_at);
        else
            json_null(j, "steps_together_lost_at");
    }
    json_bool(j, "outlier", n->outlier || n->status != NODE_OK);
    json_array_begin(j, "reasons");
    if (n->status != NODE_OK)
        json_string(j, NULL, node_status_name(n->status));
    for (const char *r = n->reasons; r && *r;) { /* "; "-joined in the node */
        const char *end = strstr(r, "; ");
        size_t len = end ? (size_t)(end - r) : strlen(r);
        char *one = strndup(r, len);
        json_string(j, NULL, one);
        free(one);
        r += len + (end ? 2 : 0);
    }
    json_array_end(j);
    json_object_begin(j, "figures");
    for (int k = 0; k < c->nfigures; k++)
        if (!isnan(n->values[k])) {
            json_object_begin(j, c->figures[k].name);
            json_number(j, "value", n->values[k]);
            number_or_null(j, "of_median", n->ratio[k]);
            json_object_end(j);
        }
    json_object_end(j);
    json_object_begin(j, "signature");
    for (int s = 0; s < SIG_COUNT; s++)
        json_string(j, cluster_signature_name(s), n->signature[s]);
    json_object_end(j);
    if (n->document)
        json_raw(j, "document", n->document, n->document_len);
    else
        json_null(j, "document");
    json_object_end(j);
}

void cluster_json_write(FILE *f, const cluster *c, const cluster_run *run)
{
    json_writer jw, *j = &jw;
    json_init(j, f);
    json_object_begin(j, NULL);
    json_string(j, "tool", "membench");
    json_string(j, "version", MEMBENCH_VERSION);
    json_string(j, "mode", "cluster");
    json_int(j, "cluster_schema", 1);
    json_string(j, "measured_mode", c->mode);
    json_bool(j, "complete", run->complete);
    json_string(j, "stopped_by", run->stopped_by);
    json_int(j, "exit_status", run->exit_status);
    json_array_begin(j, "command_line");
    for (int i = 0; i < run->argc; i++)
        json_string(j, NULL, run->argv[i]);
    json_array_end(j);
    json_string(j, "started_at", run->started_at);
    json_int(j, "ranks", c->nnodes);
    json_bool(j, "one_at_a_time", run->one_at_a_time);
    json_string(j, "share_host", run->share_host);
    json_number(j, "rank_timeout_s", run->rank_timeout_s);
    json_number(j, "outlier_threshold", c->threshold);
    json_object_begin(j, "gather");
    json_int(j, "records", run->gathered);
    json_number(j, "bytes", run->gather_bytes);
    json_number(j, "seconds", run->gather_s);
    json_number(j, "json_write_seconds", run->json_write_s);
    json_object_end(j);
    json_array_begin(j, "figures");
    for (int k = 0; k < c->nfigures; k++) {
        const cluster_figure *fig = &c->figures[k];
        json_object_begin(j, NULL);
        json_string(j, "name", fig->name);
        json_bool(j, "higher_is_better", fig->higher_is_better);
        json_int(j, "nodes", fig->n);
        number_or_null(j, "median", fig->median);
        number_or_null(j, "min", fig->min);
        number_or_null(j, "max", fig->max);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_begin(j, "majority");
    for (int s = 0; s < SIG_COUNT; s++)
        json_string(j, cluster_signature_name(s), c->majority[s]);
    json_object_end(j);
    json_array_begin(j, "outliers");
    for (int i = 0; i < c->nnodes; i++)
        if (c->nodes[i].outlier || c->nodes[i].status != NODE_OK)
            json_int(j, NULL, c->nodes[i].rank);
    json_array_end(j);
    json_array_begin(j, "nodes");
    for (int i = 0; i < c->nnodes; i++)
        write_node(j, c, &c->nodes[i]);
    json_array_end(j);
    json_object_end(j);
    fputc('\n', f);
}
