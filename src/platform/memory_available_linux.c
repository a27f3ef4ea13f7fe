/* SPDX-License-Identifier: MIT */
/* Linux: how much memory the process may allocate (platform.h), from /proc/meminfo
 * and the memory cgroups above the process. Every number read is checked: a value
 * that does not fit 64 bits of bytes saturates, and MemAvailable beyond the
 * machine's memory is clamped to it, with a warning, never wrapped. */
#include "platform/platform.h"

#include "platform/cgroup_paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A meminfo value ("  123 kB") in bytes, UINT64_MAX when it does not fit. */
static uint64_t kb_bytes(const char *text)
{
    errno = 0;
    unsigned long long kb = strtoull(text, NULL, 10);
    if (errno == ERANGE || kb > UINT64_MAX / 1024)
        return UINT64_MAX;
    return (uint64_t)kb * 1024;
}

/* One value of a meminfo file (/proc/meminfo) in bytes. False when the file cannot
 * be read (errno says why) or has no such line (errno 0). */
static bool meminfo_bytes(const char *path, const char *key, uint64_t *out)
{
    enum { MEMINFO_BYTES = 8192 };
    char *buf = malloc(MEMINFO_BYTES); /* not on the stack: it may be 64 KiB in all (ulimit -s 64) */
    if (!buf) {
        errno = ENOMEM;
        return false;
    }
    if (!platform_read_text(path, buf, MEMINFO_BYTES)) {
        int e = errno;
        free(buf);
        errno = e;
        return false;
    }
    size_t klen = strlen(key);
    bool found = false;
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            *out = kb_bytes(line + klen + 1);
            found = true;
            break;
        }
    }
    free(buf);
    errno = 0;
    return found;
}

static bool cannot_read(const char *path, char *why, size_t whylen)
{
    snprintf(why, whylen, "cannot read %s (%s)", path, strerror(errno));
    return false;
}

typedef enum { CGROUP_NUMBER, CGROUP_NO_LIMIT, CGROUP_UNREADABLE } cgroup_value;

/* One number from a cgroup file. A missing file, "max" (v2) and absurd v1 values
 * mean no limit; a file that exists but cannot be read is said as such. */
static cgroup_value read_cgroup_number(const char *path, uint64_t *out)
{
    char buf[64];
    if (!platform_read_text(path, buf, sizeof buf))
        return errno == ENOENT ? CGROUP_NO_LIMIT : CGROUP_UNREADABLE;
    if (buf[0] < '0' || buf[0] > '9')
        return CGROUP_NO_LIMIT;
    *out = strtoull(buf, NULL, 10); /* ERANGE: ULLONG_MAX, no limit below */
    return *out < (UINT64_C(1) << 60) ? CGROUP_NUMBER : CGROUP_NO_LIMIT;
}

/* Smallest (limit - usage) over the cgroup and its ancestors, for v2 and v1,
 * wherever the hierarchies are mounted (platform/cgroup_paths.c); UINT64_MAX when
 * nothing limits memory. False when a file that may hold a limit cannot be read.
 * A cgroup directory that is not there at all (an empty root or a container
 * without the cgroup filesystem mounted: /proc/self/cgroup names a cgroup this
 * process cannot see) is no limit read, and why says so: the budget is then
 * MemAvailable alone, not a limit that was never looked at.
 * Every path is read under root ("" on the machine itself). */
static bool cgroup_headroom(const char *root, uint64_t *best, char *why, size_t whylen)
{
    enum { MAX_DIRS = 64, MOUNTINFO_BYTES = 1 << 18, CG_BYTES = 8192, PATH_BYTES = CGROUP_PATH_MAX * 2 + 64 };
    *best = UINT64_MAX;
    /* Every buffer on the heap: the stack may be 64 KiB in all (ulimit -s 64). */
    char *cg = malloc(CG_BYTES), *path = malloc(PATH_BYTES), *lp = malloc(PATH_BYTES), *up = malloc(PATH_BYTES);
    char *mountinfo = malloc(MOUNTINFO_BYTES);
    cgroup_dir *dirs = malloc(sizeof *dirs * MAX_DIRS);
    bool ok = cg && path && lp && up && mountinfo && dirs;
    if (!ok) {
        errno = ENOMEM;
        cannot_read(root[0] ? root : "/proc/self/cgroup", why, whylen);
    } else {
        snprintf(path, PATH_BYTES, "%s/proc/self/cgroup", root);
        if (!platform_read_text(path, cg, CG_BYTES)) {
            if (errno != ENOENT) /* ENOENT: no cgroups */
                ok = cannot_read(path, why, whylen);
            cg[0] = '\0';
        }
    }
    if (ok && cg[0]) {
        snprintf(path, PATH_BYTES, "%s/proc/self/mountinfo", root);
        if (!platform_read_text(path, mountinfo, MOUNTINFO_BYTES)) {
            if (errno == ENOENT)
                mountinfo[0] = '\0'; /* the usual mount points are tried */
            else
                ok = cannot_read(path, why, whylen);
        }
    }
    size_t n = ok && cg[0] ? cgroup_memory_dirs(cg, mountinfo, dirs, MAX_DIRS) : 0;
    if (n == SIZE_MAX) {
        errno = ENOMEM;
        ok = cannot_read(path, why, whylen);
    }
    for (size_t i = 0; ok && i < n; i++) {
        snprintf(lp, PATH_BYTES, "%s%s/%s", root, dirs[i].dir, dirs[i].limit_file);
        snprintf(up, PATH_BYTES, "%s%s/%s", root, dirs[i].dir, dirs[i].usage_file);
        uint64_t limit, usage = 0;
        struct stat st;
        snprintf(path, PATH_BYTES, "%s%s", root, dirs[i].dir);
        if (stat(path, &st) != 0 && errno == ENOENT && !why[0])
            snprintf(why, whylen,
                     "no cgroup memory limit read: %s is not there (no cgroup filesystem mounted?), "
                     "so the budget is MemAvailable alone",
                     path);
        cgroup_value v = read_cgroup_number(lp, &limit);
        if (v == CGROUP_UNREADABLE)
            ok = cannot_read(lp, why, whylen);
        else if (v == CGROUP_NUMBER) {
            if (read_cgroup_number(up, &usage) == CGROUP_UNREADABLE)
                ok = cannot_read(up, why, whylen);
            uint64_t room = limit > usage ? limit - usage : 0;
            if (room < *best)
                *best = room;
        }
    }
    free(cg);
    free(path);
    free(lp);
    free(up);
    free(mountinfo);
    free(dirs);
    return ok;
}

/* The machine's memory as the kernel counts its pages (a bind-mounted meminfo
 * cannot change it); 0 when unknown. */
static uint64_t physical_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0 || (uint64_t)pages > UINT64_MAX / (uint64_t)page)
        return 0;
    return (uint64_t)pages * (uint64_t)page;
}

/* MemAvailable beyond MemTotal or the machine's pages (a corrupt or planted
 * meminfo) is clamped to the smaller of them, and why says so. */
static uint64_t clamp_available(const char *meminfo, uint64_t avail, char *why, size_t whylen)
{
    uint64_t total = 0, phys = physical_bytes(), ceiling;
    if (!meminfo_bytes(meminfo, "MemTotal", &total))
        total = 0;
    ceiling = total && (!phys || total < phys) ? total : phys;
    if (!ceiling || avail <= ceiling)
        return avail;
    snprintf(why, whylen, "%s: MemAvailable is more than the machine has: taken as %llu MiB (%s)", meminfo,
             (unsigned long long)(ceiling >> 20), ceiling == total ? "its MemTotal" : "the kernel's count of physical pages");
    return ceiling;
}

bool platform_memory_available(uint64_t *bytes, char *why, size_t whylen)
{
    return platform_memory_available_at("", bytes, why, whylen);
}

bool platform_memory_available_at(const char *root, uint64_t *bytes, char *why, size_t whylen)
{
    uint64_t avail, cg;
    char meminfo[CGROUP_PATH_MAX];
    snprintf(meminfo, sizeof meminfo, "%s/proc/meminfo", root);
    *bytes = 0;
    if (whylen)
        why[0] = '\0'; /* on success, a note when not empty */
    if (!meminfo_bytes(meminfo, "MemAvailable", &avail)) {
        if (errno)
            return cannot_read(meminfo, why, whylen);
        snprintf(why, whylen, "%s has no MemAvailable line (Linux 3.14 or later has it)", meminfo);
        return false;
    }
    avail = clamp_available(meminfo, avail, why, whylen);
    if (!cgroup_headroom(root, &cg, why, whylen))
        return false;
    *bytes = cg < avail ? cg : avail;
    return true;
}

uint64_t platform_memory_total(void)
{
    uint64_t total;
    return meminfo_bytes("/proc/meminfo", "MemTotal", &total) ? total : 0;
}
