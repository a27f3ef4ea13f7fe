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

static double share_pct(uint64_t from, uint64_t to, double whole)
{
    if (to < from || !(whole > 0))
        return -1;
    double pct = 100.0 * (double)(to - from) / whole;
    return pct > 100 ? 100 : pct;
}

host_load_delta host_load_between(const host_load *from, const host_load *to)
{
    host_load_delta d = {-1, -1, -1};
    if (from->have_stat && to->have_stat && to->total_ticks > from->total_ticks)
        d.steal_pct = share_pct(from->steal_ticks, to->steal_ticks, (double)(to->total_ticks - from->total_ticks));
    double wall_us = (to->at_s - from->at_s) * 1e6;
    if (from->have_psi_cpu && to->have_psi_cpu)
        d.cpu_pressure_pct = share_pct(from->psi_cpu_some_us, to->psi_cpu_some_us, wall_us);
    if (from->have_psi_memory && to->have_psi_memory)
        d.memory_pressure_pct = share_pct(from->psi_memory_some_us, to->psi_memory_some_us, wall_us);
    return d;
}
