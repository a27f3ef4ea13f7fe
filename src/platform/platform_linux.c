/* SPDX-License-Identifier: MIT */
/* Linux implementation of platform.h. */
#include "platform/platform.h"

#include "platform/cpuinfo.h"
#include "util/read_file.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

bool platform_read_text(const char *path, char *buf, size_t size)
{
    if (size == 0)
        return false;
    long n = platform_read_binary(path, (unsigned char *)buf, size - 1);
    if (n < 0)
        return false;
    buf[n] = '\0';
    return true;
}

/* Only regular files (util/read_file.h: a FIFO or device planted in a --root
 * tree, or bound over a /proc file, is refused, never waited on): /proc and /sys
 * files are regular. */
long platform_read_binary(const char *path, unsigned char *buf, size_t size)
{
    unsigned long long ignored;
    int fd = open_regular(path, &ignored);
    if (fd < 0)
        return -1;
    size_t used = 0;
    while (used < size) {
        ssize_t n = read(fd, buf + used, size - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    return (long)used;
}

char *platform_read_whole(const char *path, size_t max, size_t *len)
{
    if (max < 2)
        return NULL;
    unsigned long long ignored;
    int fd = open_regular(path, &ignored);
    if (fd < 0)
        return NULL;
    size_t cap = max < ((size_t)1 << 16) ? max : (size_t)1 << 16, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (used + 1 == cap) { /* full: grow, unless at the limit */
            char *bigger = cap < max ? realloc(buf, cap * 2 > max ? max : cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            cap = cap * 2 > max ? max : cap * 2;
            buf = bigger;
        }
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            buf = NULL;
        } else if (n == 0) {
            break;
        } else {
            used += (size_t)n;
        }
    }
    close(fd);
    if (buf) {
        buf[used] = '\0';
        *len = used;
    }
    return buf;
}

static bool set_to_list(const cpu_set_t *set, cpu_list *out)
{
    out->count = 0;
    out->ids = malloc(sizeof(int) * CPU_SETSIZE);
    if (!out->ids)
        return false;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, set))
            out->ids[out->count++] = i;
    return true;
}

bool platform_usable_cpus(cpu_list *out)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return false;
    return set_to_list(&set, out);
}

bool platform_pin_self(const int *cpus, size_t count)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (size_t i = 0; i < count; i++) {
        if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE)
            return false;
        CPU_SET(cpus[i], &set);
    }
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

bool platform_self_affinity(cpu_list *out)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0)
        return false;
    return set_to_list(&set, out);
}

void platform_die_with_parent(void)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
}

bool platform_thread_times(double *user_s, double *system_s)
{
    struct rusage u;
    if (getrusage(RUSAGE_THREAD, &u) != 0)
        return false;
    *user_s = (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6;
    *system_s = (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
    return true;
}

int platform_current_cpu(void)
{
    return sched_getcpu();
}

bool platform_page_nodes(int pid, const void *const *addrs, int *nodes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        nodes[i] = -1;
#ifdef SYS_move_pages
    /* move_pages with a NULL node array only reports where each page lives. */
    long rc = syscall(SYS_move_pages, pid, (unsigned long)n, addrs, NULL, nodes, 0);
    if (rc != 0) {
        for (size_t i = 0; i < n; i++)
            nodes[i] = -1;
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (nodes[i] < 0)
            nodes[i] = -1; /* -ENOENT etc.: page not present */
    return true;
#else
    (void)pid;
    (void)addrs;
    return false;
#endif
}

bool platform_populate(void *addr, size_t len)
{
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older headers lack it, older kernels say EINVAL */
#endif
    static volatile int unsupported;
    long page = sysconf(_SC_PAGESIZE);
    if (unsupported || page <= 0)
        return false;
    uintptr_t start = ((uintptr_t)addr + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t end = ((uintptr_t)addr + len) & ~((uintptr_t)page - 1);
    if (end <= start)
        return true;
    if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) == 0)
        return true;
    if (errno == EINVAL)
        unsupported = 1;
    return false;
}

bool platform_bind_to_node(void *addr, size_t len, int node, bool strict)
{
#ifdef SYS_mbind
    if (node < 0 || node >= 1024)
        return false;
    unsigned long mask[1024 / (8 * sizeof(unsigned long))];
    memset(mask, 0, sizeof mask);
    mask[(size_t)node / (8 * sizeof(unsigned long))] |= 1UL << ((size_t)node % (8 * sizeof(unsigned long)));
    const int mpol_preferred = 1, mpol_bind = 2; /* <linux/mempolicy.h> values */
    return syscall(SYS_mbind, addr, len, strict ? mpol_bind : mpol_preferred, mask, (unsigned long)1024, 0U) == 0;
#else
    (void)addr;
    (void)len;
    (void)node;
    (void)strict;
    return false;
#endif
}

bool platform_numa_supported(void)
{
#ifdef SYS_get_mempolicy
    int mode = 0;
    return syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL) == 0;
#else
    return false;
#endif
}

/* One "Node N key: V kB" line of a node's sysfs meminfo in bytes, 0 when unknown. */
static uint64_t node_meminfo_bytes(int node, const char *key)
{
    char path[96], buf[4096];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%d/meminfo", node);
    if (node < 0 || !platform_read_text(path, buf, sizeof buf))
        return 0;
    const char *p = strstr(buf, key);
    unsigned long long kb;
    return p && sscanf(p + strlen(key), "%llu", &kb) == 1 ? kb * 1024ULL : 0;
}

uint64_t platform_node_free_bytes(int node)
{
    return node_meminfo_bytes(node, "MemFree:");
}

uint64_t platform_node_total_bytes(int node)
{
    return node_meminfo_bytes(node, "MemTotal:");
}

uint64_t platform_hugetlb_free_pages(uint64_t page_size)
{
    char path[128], buf[64];
    snprintf(path, sizeof path, "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB/free_hugepages",
             page_size / 1024);
    if (!platform_read_text(path, buf, sizeof buf))
        return 0;
    return strtoull(buf, NULL, 10);
}

static void copy_or_unknown(char *buf, size_t size, const char *value)
{
    snprintf(buf, size, "%s", value && *value ? value : "unknown");
}

void platform_cpu_model(char *buf, size_t size)
{
    /* The start of the file is enough (a machine with many CPUs has megabytes):
     * every model line comes early, POWER's machine lines after a few per CPU. */
    enum { INFO_BYTES = 1 << 18 };
    char *info = malloc(INFO_BYTES); /* not static: callable from any thread or session */
    if (info && !platform_read_text("/proc/cpuinfo", info, INFO_BYTES))
        info[0] = '\0';
    cpuinfo_model(info, buf, size); /* "unknown" without the file */
    free(info);
}

void platform_kernel(char *buf, size_t size)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, size, "%s %s %s", u.sysname, u.release, u.machine);
    else
        copy_or_unknown(buf, size, NULL);
}

void platform_hostname(char *buf, size_t size)
{
    if (gethostname(buf, size) != 0)
        copy_or_unknown(buf, size, NULL);
    buf[size - 1] = '\0';
}

bool platform_output_is_pipe(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

bool platform_output_reader_gone(int fd)
{
    struct pollfd p = {.fd = fd, .events = 0, .revents = 0};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}
