/* SPDX-License-Identifier: MIT */
/* Which nodes fall short: a figure below the threshold share of the cluster's
 * median (Intel Cluster Checker's rule: 90%), or a kernel, huge-page setting or
 * placement unlike the majority's. Only nodes whose run succeeded count. */
#include "cluster/cluster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"

static void add_reason(cluster_node *n, const char *text)
{
    size_t old = n->reasons ? strlen(n->reasons) : 0;
    char *r = realloc(n->reasons, old + strlen(text) + 3);
    if (!r)
        return;
    if (old)
        memcpy(r + old, "; ", 3);
    else
        r[0] = '\0';
    strcat(r, text);
    n->reasons = r;
    n->outlier = true;
}

static void summarise_figure(cluster *c, int f)
{
    cluster_figure *fig = &c->figures[f];
    double *v = malloc((size_t)(c->nnodes > 0 ? c->nnodes : 1) * sizeof *v);
    size_t n = 0;
    for (int i = 0; v && i < c->nnodes; i++)
        if (c->nodes[i].status == NODE_OK && !isnan(c->nodes[i].values[f]))
            v[n++] = c->nodes[i].values[f];
    fig->n = (int)n;
    if (n == 0) {
        fig->median = fig->min = fig->max = NAN;
    } else {
        sample_stats st = stats_compute(v, n); /* median of an even count: the middle two's mean */
        fig->median = st.median;
        fig->min = st.min;
        fig->max = st.max;
    }
    free(v);
}

/* The value more than half of the succeeded nodes hold, or NULL (none, or a tie). */
static char *majority_of(const cluster *c, int sig, int *kinds)
{
    int counted = 0, best = 0;
    const char *winner = NULL;
    *kinds = 0;
    for (int i = 0; i < c->nnodes; i++) {
        const char *v = c->nodes[i].signature[sig];
        if (c->nodes[i].status != NODE_OK || !v)
            continue;
        counted++;
        bool first = true; /* the first node holding this value counts it */
        for (int k = 0; k < i && first; k++)
            first = !(c->nodes[k].status == NODE_OK && c->nodes[k].signature[sig] &&
                      strcmp(c->nodes[k].signature[sig], v) == 0);
        if (!first)
            continue;
        (*kinds)++;
        int same = 0;
        for (int k = i; k < c->nnodes; k++)
            same += c->nodes[k].status == NODE_OK && c->nodes[k].signature[sig] &&
                    strcmp(c->nodes[k].signature[sig], v) == 0;
        if (same > best) {
            best = same;
            winner = v;
        }
    }
    return winner && 2 * best > counted ? strdup(winner) : NULL;
}

void cluster_analyse(cluster *c)
{
    for (int i = 0; i < c->nnodes; i++) {
        cluster_node *n = &c->nodes[i];
        free(n->reasons);
        n->reasons = NULL;
        n->outlier = false;
        for (int f = 0; f < CLUSTER_MAX_FIGURES; f++)
            n->ratio[f] = NAN;
    }
    for (int f = 0; f < c->nfigures; f++) {
        summarise_figure(c, f);
        const cluster_figure *fig = &c->figures[f];
        for (int i = 0; i < c->nnodes; i++) {
            cluster_node *n = &c->nodes[i];
            double v = n->values[f];
            if (n->status != NODE_OK || isnan(v) || isnan(fig->median) || fig->median <= 0 || v <= 0)
                continue;
            /* performance relative to the median: for latency, lower is better */
            n->ratio[f] = fig->higher_is_better ? v / fig->median : fig->median / v;
            if (n->ratio[f] < c->threshold) { /* exactly at the threshold is not below it */
                char why[160];
                if (fig->higher_is_better)
                    snprintf(why, sizeof why, "%s %.0f%% of the median", fig->name, v / fig->median * 100);
                else
                    snprintf(why, sizeof why, "%s %.2fx the median", fig->name, v / fig->median);
                add_reason(n, why);
            }
        }
    }
    for (int s = 0; s < SIG_COUNT; s++) {
        free(c->majority[s]);
        int kinds;
        c->majority[s] = majority_of(c, s, &kinds);
        if (kinds < 2)
            continue; /* every node alike */
        for (int i = 0; i < c->nnodes; i++) {
            cluster_node *n = &c->nodes[i];
            if (n->status != NODE_OK || !n->signature[s] || (c->majority[s] && !strcmp(n->signature[s], c->majority[s])))
                continue;
            char why[600];
            if (c->majority[s])
                snprintf(why, sizeof why, "%s %s (the majority: %s)", cluster_signature_name(s), n->signature[s],
                         c->majority[s]);
            else /* no value held by most nodes: every node is flagged, none can be called right */
                snprintf(why, sizeof why, "%s %s (no majority among %d kinds)", cluster_signature_name(s),
                         n->signature[s], kinds);
            add_reason(n, why);
        }
    }
}

int cluster_exit_status(const cluster *c)
{
    for (int i = 0; i < c->nnodes; i++)
        if (c->nodes[i].status != NODE_OK || c->nodes[i].outlier)
            return CLUSTER_EXIT_OUTLIER;
    return 0;
}
