/* SPDX-License-Identifier: MIT */
/* CPU lists in the kernel's notation ("0-3,8,10-11"), as used by sysfs
 * (cpulist, shared_cpu_list) and by --cpus. Order is kept as written, which
 * matters for --cpus: thread i is pinned to the i-th CPU listed. */
#ifndef MEMBENCH_CPU_LIST_H
#define MEMBENCH_CPU_LIST_H

#include <stdbool.h>
#include <stddef.h>

#define CPU_LIST_MAX_ID 65535 /* larger ids are rejected rather than trusted */

typedef struct {
    int *ids;
    size_t count;
} cpu_list;

/* Parses text into list (allocated; free with cpu_list_free). Returns false on a
 * syntax error, a reversed range, an id above CPU_LIST_MAX_ID or a duplicate. An
 * empty string (or only a newline, as sysfs prints for empty sets) is an empty list. */
bool cpu_list_parse(const char *text, cpu_list *list);
void cpu_list_free(cpu_list *list);
bool cpu_list_contains(const cpu_list *list, int id);

/* Writes the compact form ("0-3,8") into buf; returns buf. Entries that do not
 * fit are left out (whole), so prefer cpu_list_format_alloc for reports. */
char *cpu_list_format(const int *ids, size_t count, char *buf, size_t size);
/* The whole compact form, allocated (free it); NULL when out of memory. */
char *cpu_list_format_alloc(const int *ids, size_t count);

#endif
