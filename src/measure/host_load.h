/* What else the host did during a run: CPU time stolen by the hypervisor
 * (/proc/stat "steal") and time some task waited for CPU or memory (pressure
 * stall information, /proc/pressure/cpu and memory, "some" totals). Read at the
 * run's start and at every result; each record gets the shares over its own
 * interval, the run over its whole time. */
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

/* Shares in % between two readings; -1 where a source is missing. */
typedef struct {
    double steal_pct;           /* stolen CPU time over all CPU time */
    double cpu_pressure_pct;    /* wall time with some task waiting for a CPU */
    double memory_pressure_pct; /* wall time with some task stalled on memory */
} host_load_delta;

/* The aggregate "cpu" line of /proc/stat: steal (8th value) and the sum of all. */
bool host_load_parse_stat(const char *text, uint64_t *steal, uint64_t *total);
/* total= of the "some" line of a /proc/pressure file, in microseconds. */
bool host_load_parse_psi_some(const char *text, uint64_t *total_us);

host_load host_load_read(void);
host_load_delta host_load_between(const host_load *from, const host_load *to);

#endif
