/* SPDX-License-Identifier: MIT */
/* What else the host did during a run: CPU time stolen by the hypervisor
 * (/proc/stat "steal") and time some task waited for CPU or memory (pressure
 * stall information, /proc/pressure/cpu and memory, "some" totals). Read at the
 * run's start and at every result, and around every visit of the modes that
 * measure in rounds; each record gets the shares over its own time (its visits,
 * or the interval since the record before it), the run over its whole time. */
#ifndef MEMBENCH_HOST_LOAD_H
#define MEMBENCH_HOST_LOAD_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    double at_s; /* clock_now() when read */
    bool have_stat, have_psi_cpu, have_psi_memory;
    uint64_t steal_ticks, total_ticks; /* /proc/stat "cpu" line, all CPUs */
    uint64_t psi_cpu_some_us, psi_memory_some_us;
} host_load;

/* Shares in % over some time; -1 where a source is missing. */
typedef struct {
    double steal_pct;           /* stolen CPU time over all CPU time */
    double cpu_pressure_pct;    /* wall time with some task waiting for a CPU */
    double memory_pressure_pct; /* wall time with some task stalled on memory */
    double span_s;              /* the wall time these shares are over */
} host_load_delta;

/* Several intervals summed: one point's visits across the rounds. A source counts
 * only when every interval had it. */
typedef struct {
    int intervals, with_stat, with_psi_cpu, with_psi_memory;
    double wall_s;
    uint64_t steal_ticks, total_ticks, psi_cpu_us, psi_memory_us;
} host_load_span;

/* The aggregate "cpu" line of /proc/stat: steal (8th value) and the sum of all. */
bool host_load_parse_stat(const char *text, uint64_t *steal, uint64_t *total);
/* total= of the "some" line of a /proc/pressure file, in microseconds. */
bool host_load_parse_psi_some(const char *text, uint64_t *total_us);

host_load host_load_read(void);
host_load_delta host_load_between(const host_load *from, const host_load *to);
/* Adds the interval between two readings to a span (zeroed to begin). */
void host_load_span_add(host_load_span *s, const host_load *from, const host_load *to);
host_load_delta host_load_span_shares(const host_load_span *s);

#endif
