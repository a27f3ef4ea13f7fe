/* SPDX-License-Identifier: MIT */
#include "plan/traffic_plan.h"


static bool same_core(const cpu_info *a, const cpu_info *b)
{
    return a->core_id >= 0 && a->core_id == b->core_id && a->package_id == b->package_id;
}

size_t traffic_cpus(const topology *t, const cpu_list *only, bool one_per_core, int chaser_cpu, bool share_core,
                    int *out, size_t cap)
{
    const cpu_info *chaser = chaser_cpu >= 0 ? topology_cpu(t, chaser_cpu) : NULL;
    size_t n = 0;
    for (size_t i = 0; i < t->ncpus && n < cap; i++) {
        const cpu_info *c = &t->cpus[i];
        if (!c->usable || (only && !cpu_list_contains(only, c->id)) || c->id == chaser_cpu)
            continue;
        if (chaser && !share_core && same_core(c, chaser))
            continue;
        bool taken = false;
        for (size_t k = 0; one_per_core && k < n && !taken; k++)
            taken = same_core(topology_cpu(t, out[k]), c);
        if (!taken)
            out[n++] = c->id;
    }
    return n;
}

uint64_t traffic_buffer_default(uint64_t dram_total, int threads, int buffers, uint64_t budget, bool *capped)
{
    const uint64_t mib = 1 << 20;
    *capped = false;
    if (threads < 1 || buffers < 1)
        return 0;
    /* rounded up: together the threads' buffers reach the rule, never just short of it */
    uint64_t s = (dram_total + (uint64_t)threads - 1) / (uint64_t)threads;
    s += (mib - s % mib) % mib;
    if (s < TRAFFIC_MIN_BUFFER)
        s = TRAFFIC_MIN_BUFFER;
    uint64_t cap = budget / 2 / ((uint64_t)threads * (uint64_t)buffers);
    if (s > cap) {
        s = cap - cap % mib;
        *capped = true;
    }
    return s;
}

size_t traffic_unit(uint64_t delay, uint64_t buffer_bytes)
{
    size_t unit = delay == 0 ? TRAFFIC_UNIT_FAST : TRAFFIC_UNIT_PACED;
    uint64_t fit = buffer_bytes / TRAFFIC_MAX_UNITS_PER_STEP;
    fit -= fit % TRAFFIC_UNIT_PACED;
    if (buffer_bytes && fit < unit)
        unit = fit > TRAFFIC_UNIT_PACED ? (size_t)fit : TRAFFIC_UNIT_PACED;
    return unit;
}
