/* SPDX-License-Identifier: MIT */
#include "modes/traffic_layout.h"

#include <stdlib.h>
#include <string.h>

#include "modes/dram_sizing.h"
#include "plan/traffic_plan.h"
#include "util/format_bytes.h"

int traffic_check_cpus(session *s, const traffic_options *o)
{
    for (size_t i = 0; o->common.cpus_given && i < o->common.cpus.count; i++) {
        const cpu_info *c = topology_cpu(&s->topo, o->common.cpus.ids[i]);
        if (!c || !c->usable)
            return session_bad_input(s, "--cpus: CPU %d is not available to this process", o->common.cpus.ids[i]);
    }
    return 0;
}

/* The DRAM rule for the traffic threads' CPUs (the chaser's left out) and for the
 * chaser's alone (plan/dram_size.h). */
static void traffic_bases(const session *s, const traffic_layout *L, dram_basis *traffic, dram_basis *chaser)
{
    int first = L->chaser ? 1 : 0;
    int *cpus = malloc(sizeof(int) * (size_t)(L->ntraffic + 1));
    for (int i = 0; cpus && i < L->ntraffic; i++)
        cpus[i] = L->where.places[first + i].cpu;
    *traffic = dram_basis_for(&s->topo, cpus, cpus ? (size_t)L->ntraffic : 0); /* out of memory: every CPU */
    free(cpus);
    *chaser = L->chaser ? dram_basis_for(&s->topo, &L->where.places[0].cpu, 1) : *traffic;
}

static int plan_memory(session *s, const traffic_options *o, int buffers, traffic_layout *L)
{
    uint64_t budget;
    if (!session_memory_budget(s, &budget))
        return 1; /* said */
    traffic_bases(s, L, &L->basis, &L->chase_basis);
    uint64_t dram = dram_rule_bytes(&L->basis);
    L->buffer_bytes = o->buffer_bytes ? o->buffer_bytes
                                      : traffic_buffer_default(dram, L->ntraffic, buffers, budget, &L->capped);
    L->buffer_bytes -= L->buffer_bytes % 4096;
    if (L->chaser) {
        uint64_t chase = dram_rule_bytes(&L->chase_basis);
        L->chase_bytes = o->chase_bytes ? o->chase_bytes : chase < TRAFFIC_MIN_BUFFER ? TRAFFIC_MIN_BUFFER : chase;
        L->chase_bytes += (4096 - L->chase_bytes % 4096) % 4096;
    }
    double total = (double)L->buffer_bytes * L->ntraffic * buffers + (double)L->chase_bytes;
    if (L->buffer_bytes < ((uint64_t)1 << 20) || total > (double)budget) {
        char want[32], have[32];
        format_bytes((uint64_t)total, want, sizeof want);
        format_bytes(budget, have, sizeof have);
        return session_bad_input(s,
                                 "%d traffic threads x %d buffers need %s: more than can be allocated safely (%s: "
                                 "MemAvailable and cgroup limit, less a margin); use fewer CPUs or a smaller -b",
                                 L->ntraffic, buffers, want, have);
    }
    page_policy_request pr = {(page_choice)o->common.pages, "--pages",
                              L->buffer_bytes > L->chase_bytes ? L->buffer_bytes : L->chase_bytes,
                              (uint64_t)L->ntraffic * (uint64_t)buffers + (L->chaser ? 1 : 0), NULL};
    char err[256];
    if (!page_policy_choose(&s->topo, &pr, &L->pages, err, sizeof err))
        return session_bad_input(s, "%s", err);
    return 0;
}

int traffic_layout_plan(session *s, const traffic_options *o, int chaser_cpu, int buffers, traffic_layout *L)
{
    memset(L, 0, sizeof *L);
    int rc = traffic_check_cpus(s, o);
    if (rc)
        return rc;
    const topology *t = &s->topo;
    int *cpus = calloc(t->ncpus + 1, sizeof *cpus);
    if (!cpus)
        return session_bad_input(s, "out of memory planning the threads");
    size_t n = traffic_cpus(t, o->common.cpus_given ? &o->common.cpus : NULL, o->one_per_core, chaser_cpu,
                            o->share_core, cpus, t->ncpus);
    if (n == 0) {
        free(cpus);
        if (chaser_cpu < 0)
            return session_bad_input(s, "no usable CPU for traffic threads");
        return session_bad_input(s, "no CPU is left for traffic: the chaser has CPU %d%s; loaded latency needs "
                                    "two usable CPUs",
                                 chaser_cpu, o->share_core ? "" : " and its core (--share-core lets SMT siblings work)");
    }
    L->chaser = chaser_cpu >= 0;
    L->ntraffic = (int)n;
    int total = (int)n + (L->chaser ? 1 : 0);
    if (L->chaser) { /* thread 0: the chaser */
        memmove(cpus + 1, cpus, n * sizeof *cpus);
        cpus[0] = chaser_cpu;
    }
    L->nodes = calloc((size_t)total, sizeof *L->nodes);
    bool ok = L->nodes && placement_one_per_cpu(t, cpus, total, &L->where);
    free(cpus);
    if (!ok)
        return session_bad_input(s, "out of memory planning the threads");
    for (int i = 0; i < total; i++)
        L->nodes[i] = L->where.places[i].mem_node;
    snprintf(L->where.policy, sizeof L->where.policy, "%s%s on %s%s; memory on each CPU's node",
             L->chaser ? "chaser, then " : "", o->one_per_core ? "one traffic thread per core" : "traffic threads",
             o->common.cpus_given ? "--cpus" : "usable CPUs", L->chaser && !o->share_core ? " off its core" : "");
    rc = plan_memory(s, o, buffers, L);
    if (rc)
        return rc;
    session_describe_placement(s, &L->where);
    session_dram_sized(s, &L->basis, DRAM_FIGURE_BANDWIDTH, "the traffic buffers", L->buffer_bytes * (uint64_t)L->ntraffic,
                       o->buffer_bytes != 0, L->capped, true);
    param_list *p = &s->info.plan.values;
    params_int(p, "traffic_threads", L->ntraffic);
    params_int(p, "buffer_bytes", (long long)L->buffer_bytes);
    params_int(p, "buffers_per_thread", buffers);
    params_int(p, "llc_total_bytes", (long long)L->basis.bytes);
    params_text(p, "pages", L->pages.name);
    if (L->chaser)
        params_int(p, "chase_bytes", (long long)L->chase_bytes);
    return 0;
}

traffic_setup traffic_layout_setup(const traffic_layout *L, int read, int read2, int write)
{
    return (traffic_setup){.bytes = L->buffer_bytes,
                           .read = read,
                           .read2 = read2,
                           .write = write,
                           .pages = L->pages.request,
                           .huge_size = L->pages.huge_size,
                           .nodes = L->nodes,
                           .strict = false,
                           .chaser = L->chaser,
                           .chase_bytes = L->chase_bytes};
}

bool traffic_layout_program(session *s, const traffic_options *o, const traffic_mix *m, uint64_t delay,
                            uint64_t buffer_bytes, traffic_program *p)
{
    char why[200];
    size_t unit = o->random ? TRAFFIC_UNIT_RANDOM : traffic_unit(delay, buffer_bytes);
    if (traffic_program_make(p, m, o->common.kernel_isa, unit, why, sizeof why)) {
        p->random = o->random;
        return true;
    }
    session_bad_input(s, "--traffic %s: %s", m->name, why);
    return false;
}

void traffic_layout_free(traffic_layout *L)
{
    placement_free(&L->where);
    free(L->nodes);
    L->nodes = NULL;
}
