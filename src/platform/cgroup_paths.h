/* SPDX-License-Identifier: MIT */
/* Where the memory limits of this process's cgroups are: from the text of
 * /proc/self/cgroup and /proc/self/mountinfo (so it works wherever the hierarchy is
 * mounted, and inside containers whose mount root is a sub-cgroup), the list of
 * directories from the process's own cgroup up to the mounted root, each with the
 * names of its limit and usage files. Pure text processing, tested with fixtures. */
#ifndef MEMBENCH_CGROUP_PATHS_H
#define MEMBENCH_CGROUP_PATHS_H

#include <stddef.h>

#define CGROUP_PATH_MAX 4096

typedef struct {
    char dir[CGROUP_PATH_MAX];
    const char *limit_file; /* "memory.max" (v2) or "memory.limit_in_bytes" (v1) */
    const char *usage_file; /* "memory.current" or "memory.usage_in_bytes" */
} cgroup_dir;

/* Fills out[] (at most max entries), own cgroup first; returns the count, or
 * SIZE_MAX when its scratch memory could not be allocated (nothing is known). */
size_t cgroup_memory_dirs(const char *self_cgroup, const char *mountinfo, cgroup_dir *out, size_t max);

#endif
