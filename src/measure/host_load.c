/* SPDX-License-Identifier: MIT */
#include "measure/host_load.h"

#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "platform/platform.h"

bool host_load_parse_stat(const char *text, uint64_t *steal, uint64_t *total)
{
    if (strncmp(text, "cpu ", 4) != 0)
        return false;
    const char *p = text + 4;
    uint64_t sum = 0, v[10] = {0};
    int n = 0;
    while (n < 10) {
        while (*p == ' ')
            p++;
        if (*p < '0' || *p > '9')
            break;
        char *end;
        v[n++] = strtoull(p, &end, 10);
        p = end;
    }
    if (n < 8) /* steal is the 8th value (Linux 2.6.11 on) */
        return false;
    /* guest and guest_nice (9th, 10th) are already inside user and nice */
    for (int i = 0; i < 8; i++)
        sum += v[i];
    *steal = v[7];
    *total = sum;
    return true;
}

bool host_load_parse_psi_some(const char *text, uint64_t *total_us)
{
    if (strncmp(text, "some ", 5) != 0)
        return false;
    const char *eol = strchr(text, '\n');
    const char *t = strstr(text, " total=");
    if (!t || (eol && t > eol))
        return false;
    t += 7;
    if (*t < '0' || *t > '9')
        return false;
    *total_us = strtoull(t, NULL, 10);
    return true;
}

host_load host_load_read(void)
{
    host_load h;
    memset(&h, 0, sizeof h);
    h.at_s = clock_now();
    char buf[4096];
    if (platform_read_text("/proc/stat", buf, sizeof buf))
        h.have_stat = host_load_parse_stat(buf, &h.steal_ticks, &h.total_ticks);
    if (platform_read_text("/proc/pressure/cpu", buf, sizeof buf))
        h.have_psi_cpu = host_load_parse_psi_some(buf, &h.psi_cpu_some_us);
    if (platform_read_text("/proc/pressure/memory", buf, sizeof buf))
        h.have_psi_memory = host_load_parse_psi_some(buf, &h.psi_memory_some_us);
    return h;
}

static double share_pct(uint64_t part, double whole)
{
    if (!(whole > 0))
        return -1;
    double pct = 100.0 * (double)part / whole;
    return pct > 100 ? 100 : pct;
}

void host_load_span_add(host_load_span *s, const host_load *from, const host_load *to)
{
    s->intervals++;
    s->wall_s += to->at_s - from->at_s;
    /* a counter that went back (a reset) leaves the source unknown for the span */
    if (from->have_stat && to->have_stat && to->steal_ticks >= from->steal_ticks &&
        to->total_ticks >= from->total_ticks) {
        s->with_stat++;
        s->steal_ticks += to->steal_ticks - from->steal_ticks;
        s->total_ticks += to->total_ticks - from->total_ticks;
    }
    if (from->have_psi_cpu && to->have_psi_cpu && to->psi_cpu_some_us >= from->psi_cpu_some_us) {
        s->with_psi_cpu++;
        s->psi_cpu_us += to->psi_cpu_some_us - from->psi_cpu_some_us;
    }
    if (from->have_psi_memory && to->have_psi_memory && to->psi_memory_some_us >= from->psi_memory_some_us) {
        s->with_psi_memory++;
        s->psi_memory_us += to->psi_memory_some_us - from->psi_memory_some_us;
    }
}

host_load_delta host_load_span_shares(const host_load_span *s)
{
    host_load_delta d = {-1, -1, -1, s->wall_s};
    bool all = s->intervals > 0;
    /* /proc/stat counts in ticks: a span within one tick has no steal figure */
    if (all && s->with_stat == s->intervals)
        d.steal_pct = share_pct(s->steal_ticks, (double)s->total_ticks);
    if (all && s->with_psi_cpu == s->intervals)
        d.cpu_pressure_pct = share_pct(s->psi_cpu_us, s->wall_s * 1e6);
    if (all && s->with_psi_memory == s->intervals)
        d.memory_pressure_pct = share_pct(s->psi_memory_us, s->wall_s * 1e6);
    return d;
}

host_load_delta host_load_between(const host_load *from, const host_load *to)
{
    host_load_span s = {0};
    host_load_span_add(&s, from, to);
    return host_load_span_shares(&s);
}
