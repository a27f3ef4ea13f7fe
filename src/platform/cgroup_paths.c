/* SPDX-License-Identifier: MIT */
#include "platform/cgroup_paths.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The paths are long (CGROUP_PATH_MAX each), so the buffers live on the heap, in
 * one block: on the stack they took about 30 KiB, and with `ulimit -s 64` the memory
 * budget overflowed the main thread's stack (SIGSEGV in every measuring mode). */
typedef struct {
    char line[2 * CGROUP_PATH_MAX];         /* a mountinfo line */
    char r[CGROUP_PATH_MAX], p[CGROUP_PATH_MAX]; /* its root and mount point */
    char root[CGROUP_PATH_MAX], point[CGROUP_PATH_MAX], rel[CGROUP_PATH_MAX];
    char cgline[CGROUP_PATH_MAX + 256];     /* a /proc/self/cgroup line */
} scratch;

/* Copies the next line of text at *cursor into buf (without its newline) and moves
 * *cursor past it; lines that do not fit are skipped. False at the end. */
static bool next_line(const char **cursor, char *buf, size_t size)
{
    while (*cursor && **cursor) {
        const char *line = *cursor, *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        *cursor = end ? end + 1 : NULL;
        if (len < size) {
            memcpy(buf, line, len);
            buf[len] = '\0';
            return true;
        }
    }
    return false;
}

/* Finds the mount of the v2 hierarchy (v1: the one with the memory controller) in
 * mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE SOURCE SUPEROPTS".
 * Mount points with escaped characters (\040) are left alone: never cgroup mounts. */
static bool find_mount(const char *mountinfo, bool v2, scratch *s, char *root, char *point, size_t size)
{
    char *buf = s->line, *r = s->r, *p = s->p;
    for (const char *cursor = mountinfo; next_line(&cursor, buf, sizeof s->line);) {
        char fstype[64], super[512];
        const char *dash = strstr(buf, " - ");
        if (dash && sscanf(buf, "%*s %*s %*s %4095s %4095s", r, p) == 2 &&
            sscanf(dash + 3, "%63s %*s %511s", fstype, super) >= 1) {
            bool match = v2 ? strcmp(fstype, "cgroup2") == 0
                            : strcmp(fstype, "cgroup") == 0 && strstr(dash + 3, "memory") != NULL;
            if (match && strlen(r) < size && strlen(p) < size) {
                snprintf(root, size, "%s", r);
                snprintf(point, size, "%s", p);
                return true;
            }
        }
    }
    return false;
}

static size_t add_levels(const char *cgpath, bool v2, const char *mountinfo, scratch *s, cgroup_dir *out, size_t n,
                         size_t max)
{
    char *root = s->root, *point = s->point, *rel = s->rel;
    if (!find_mount(mountinfo, v2, s, root, point, CGROUP_PATH_MAX)) {
        snprintf(root, CGROUP_PATH_MAX, "/");
        snprintf(point, CGROUP_PATH_MAX, "%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory");
    }
    /* The part of our path below the mount's root; if the path is not under it (a
     * container that sees only its own cgroup), the mount point is our cgroup. */
    rel[0] = '\0';
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    if (strncmp(cgpath, root, rl) == 0 && (cgpath[rl] == '/' || cgpath[rl] == '\0'))
        snprintf(rel, CGROUP_PATH_MAX, "%s", cgpath + rl);
    for (;;) {
        if (n >= max)
            return n;
        int w = snprintf(out[n].dir, sizeof out[n].dir, "%s%s", point, strcmp(rel, "/") == 0 ? "" : rel);
        if (w > 0 && (size_t)w < sizeof out[n].dir) {
            out[n].limit_file = v2 ? "memory.max" : "memory.limit_in_bytes";
            out[n].usage_file = v2 ? "memory.current" : "memory.usage_in_bytes";
            n++;
        }
        char *slash = strrchr(rel, '/');
        if (!slash)
            return n;
        *slash = '\0';
    }
}

size_t cgroup_memory_dirs(const char *self_cgroup, const char *mountinfo, cgroup_dir *out, size_t max)
{
    size_t n = 0;
    scratch *s = malloc(sizeof *s);
    if (!s)
        return SIZE_MAX;
    char *buf = s->cgline;
    for (const char *cursor = self_cgroup; next_line(&cursor, buf, sizeof s->cgline);) {
        /* "0::/path" is v2; "N:ctrl,ctrl:/path" is v1, wanted when it has memory. */
        char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c1 || !c2 || c2[1] != '/')
            continue;
        *c1 = '\0';
        *c2 = '\0';
        const char *ctrls = c1 + 1, *path = c2 + 1;
        bool v2 = strcmp(buf, "0") == 0 && *ctrls == '\0';
        char tmp[256];
        snprintf(tmp, sizeof tmp, ",%s,", ctrls);
        if (v2 || strstr(tmp, ",memory,"))
            n = add_levels(path, v2, mountinfo, s, out, n, max);
    }
    free(s);
    return n;
}
