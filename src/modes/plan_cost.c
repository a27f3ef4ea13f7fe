/* SPDX-License-Identifier: MIT */
#include "modes/plan_cost.h"

#include <stdbool.h>
#include <stdlib.h>

#include "memory/memory_budget.h"
#include "util/cpu_list.h"

static int by_id(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The CPUs of the threads whose CPU is on node (any node: -2), compactly, in
 * ascending order: each thread's CPU (a CPU two threads share is listed twice), or
 * where a thread's place has several CPUs (unpinned, OMP_PLACES=cores) every CPU of
 * the places once. */
static char *node_cpus(const run_placement *place, int node, long long *count)
{
    size_t n = 0, cap = (size_t)place->n + 1;
    int *ids = malloc(cap * sizeof(int));
    bool spans = false;
    *count = 0;
    for (int i = 0; ids && i < place->n; i++) {
        cpu_list l = {NULL, 0};
        if (node != -2 && place->threads[i].node != node)
            continue;
        ++*count;
        if (!cpu_list_parse(place->threads[i].cpus, &l))
            continue;
        spans = spans || l.count > 1;
        for (size_t k = 0; k < l.count; k++) {
            if (n == cap) {
                int *more = realloc(ids, (cap *= 2) * sizeof(int));
                if (!more)
                    break;
                ids = more;
            }
            ids[n++] = l.ids[k];
        }
        cpu_list_free(&l);
    }
    if (!ids)
        return NULL;
    qsort(ids, n, sizeof *ids, by_id);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!spans || kept == 0 || ids[kept - 1] != ids[i])
            ids[kept++] = ids[i];
    char *text = cpu_list_format_alloc(ids, kept);
    free(ids);
    return text;
}

void plan_cost_describe(param_section *plan, const topology *topo, const run_placement *place,
                        const sweep_estimate *e, const estimate_request *rq, const uint64_t *node_bytes,
                        uint64_t total, uint64_t budget)
{
    param_list *v = &plan->values;
    long long count;
    char *all = node_cpus(place, -2, &count);
    params_int(v, "threads", count);
    params_text(v, "thread_cpus", all ? all : "");
    free(all);
    params_int(v, "memory_peak_bytes", (long long)total);
    params_int(v, "memory_budget_bytes", (long long)budget);
    param_table *t = section_table(plan, "nodes");
    for (size_t i = 0; i <= topo->nnodes; i++) {
        bool unbound = i == topo->nnodes;
        if (unbound && node_bytes[i] == 0)
            break;
        const numa_node *nd = unbound ? NULL : &topo->nodes[i];
        char *cpus = node_cpus(place, unbound ? -1 : nd->id, &count);
        param_list *row = table_add_row(t);
        if (unbound)
            params_null(row, "node");
        else
            params_int(row, "node", nd->id);
        params_int(row, "threads", count);
        params_text(row, "cpus", cpus ? cpus : "");
        free(cpus);
        params_int(row, "memory_bytes", (long long)node_bytes[i]);
        if (nd && nd->mem_free) { /* what a bound allocation may take there (memory/buffer.c's margin) */
            uint64_t margin = node_margin_bytes(nd->mem_total);
            params_int(row, "free_bytes", (long long)nd->mem_free);
            params_int(row, "budget_bytes", (long long)(nd->mem_free > margin ? nd->mem_free - margin : 0));
        }
    }
    params_number(v, "estimate_s", e->total_s);
    params_number(v, "estimate_bound_s", e->bound_s);
    params_number(v, "estimate_budget_s", PLAN_TIME_BUDGET_S);
    params_number(v, "estimate_samples_s", e->samples_s);
    params_number(v, "estimate_warmup_s", e->warmup_s);
    params_number(v, "estimate_touch_s", e->touch_s);
    params_number(v, "estimate_chains_s", e->chains_s);
    params_number(v, "estimate_other_s", e->other_s);
    params_int(v, "estimate_rounds", rq->rounds);
    params_int(v, "estimate_latency_rounds", rq->latency_rounds);
    params_textf(v, "estimate_model",
                 "per round, every point: bandwidth a warm-up (round 1: a first pass and a calibration sample), a "
                 "sample of max(%.3g ms x %.2f, one pass) and a check pass where the kernel writes; latency %d x %.3g "
                 "ms samples and a warm-up chase; chains linked at %.3g GB/s (once when kept or in the pool); "
                 "buffers allocated and first-touched at %.3g GB/s (the pool once, kept buffers once, others at "
                 "every visit; a chain outside the pool as it is linked, at one thread's rate); a pass in DRAM "
                 "at %.3g GB/s (%.3g GB/s a thread, at most %.3g a package); "
                 "%.0f ns a DRAM load; +%.0f%% for the host probes; %.1f ms to start each thread. Assumed rates, not "
                 "measured: a real run differs with the machine",
                 rq->sample_s * 1e3, EST_CALIBRATE_HEADROOM, rq->latency_per_visit, rq->latency_sample_s * 1e3,
                 EST_LINK_BYTES_S / 1e9, e->touch_bytes_s / 1e9, e->dram_bytes_s / 1e9, EST_DRAM_BYTES_S_THREAD / 1e9,
                 EST_DRAM_BYTES_S_PACKAGE / 1e9, EST_DRAM_NS, EST_HOST_PROBE_SHARE * 100, EST_THREAD_START_S * 1e3);
}
