/* SPDX-License-Identifier: MIT */
/* The one interface to the operating system. Everything Linux-specific (syscalls,
 * /proc, cgroups) sits behind these calls so another system needs only a new
 * implementation file. Topology (sysfs) reads files under a root directory given by
 * the caller, so it is parsed from fixtures in tests; see topology/. */
#ifndef MEMBENCH_PLATFORM_H
#define MEMBENCH_PLATFORM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/cpu_list.h"

/* The whole of a (proc) file, read in one go and NUL-terminated, malloc'ed; its
 * length in *len. NULL when it cannot be read or is larger than max bytes. */
char *platform_read_whole(const char *path, size_t max, size_t *len);

/* CPUs this process may run on (sched_getaffinity: honours taskset and cpusets). */
bool platform_usable_cpus(cpu_list *out);

/* Pins the calling thread to the given CPUs; false if the kernel refused. */
bool platform_pin_self(const int *cpus, size_t count);

/* CPUs the calling thread is allowed on right now (for verifying a pin). */
bool platform_self_affinity(cpu_list *out);

/* A forked worker process dies with its parent (PR_SET_PDEATHSIG), so a parent
 * killed outright leaves no workers running. */
void platform_die_with_parent(void);
/* CPU time of the calling thread (user, system), seconds; false when unknown. */
bool platform_thread_times(double *user_s, double *system_s);
/* CPU the calling thread runs on now, or -1. */
int platform_current_cpu(void);

/* Sleeping until another thread changes a word (a futex on Linux: no lock that
 * each woken thread must take again). wait_on returns once *word may differ from
 * expected: at once when it already does, after a wake_all on word, and also on a
 * signal or spuriously, so callers re-check the word in a loop. The waker changes
 * the word first, then calls wake_all, which wakes every thread sleeping on it. */
void platform_wait_on(atomic_uint *word, unsigned expected);
void platform_wake_all(atomic_uint *word);

/* NUMA node holding each page (queried, not assumed) of process pid (0: this
 * one; another needs the right to ptrace it): nodes[i] is -1 where unknown.
 * Returns false when the query is not supported or not allowed. */
bool platform_page_nodes(int pid, const void *const *addrs, int *nodes, size_t n);

/* Places [addr, addr+len) on node before first touch: preferred (other nodes when
 * it is full) or, with strict, bound (numactl --membind). False if not supported. */
bool platform_bind_to_node(void *addr, size_t len, int node, bool strict);

/* Backs the whole pages inside [addr, addr+len) with memory now, as writing them
 * would (the calling thread's node, the range's policy and page size), in one
 * call instead of a fault a page: MADV_POPULATE_WRITE, Linux 5.14 and later. On a
 * guest whose faults are slow this was 20-35x faster than touching every 4 KiB
 * page (BENCHMARKS). False when the kernel cannot (the caller's writes fault the
 * pages in as before). */
bool platform_populate(void *addr, size_t len);

/* The kernel takes memory policies at all (get_mempolicy works): false for a kernel
 * built without NUMA and for emulators that do not pass the calls on. */
bool platform_numa_supported(void);

/* Free and total memory of a NUMA node (its sysfs meminfo), 0 when unknown. */
uint64_t platform_node_free_bytes(int node);
uint64_t platform_node_total_bytes(int node);

/* Bytes the process can allocate without pushing the machine or its cgroup into
 * reclaim: min(MemAvailable, cgroup limit - usage). False when that cannot be known
 * (/proc/meminfo unreadable or without MemAvailable, a cgroup file that exists but
 * cannot be read), with which file and why in why ("cannot read /proc/meminfo (Too
 * many open files)"). True with why not empty: a warning (a MemAvailable beyond
 * the machine's memory, clamped to it; a cgroup named in /proc/self/cgroup whose
 * directory is not there, so no limit was read). */
bool platform_memory_available(uint64_t *bytes, char *why, size_t whylen);
/* The same with every file read under root: root/proc/meminfo, root/proc/self/cgroup,
 * root/proc/self/mountinfo and the cgroup directories under root (a test's fixture
 * tree; "" is the machine). */
bool platform_memory_available_at(const char *root, uint64_t *bytes, char *why, size_t whylen);
uint64_t platform_memory_total(void);

/* Free pages in the explicit huge page pool of the given size, 0 if none. */
uint64_t platform_hugetlb_free_pages(uint64_t page_size);

/* Host description for reports. Each fills buf with "unknown" when unreadable. */
void platform_cpu_model(char *buf, size_t size);
void platform_kernel(char *buf, size_t size);
void platform_hostname(char *buf, size_t size);

/* fd is a pipe or a socket: a reader at its other end can go away (| head). */
bool platform_output_is_pipe(int fd);
/* The reader of pipe or socket fd has gone, so a write would raise SIGPIPE; asked
 * without waiting or writing (poll with no events: Linux reports POLLERR for a pipe
 * whose read end is closed, POLLHUP for a socket whose peer closed). */
bool platform_output_reader_gone(int fd);

/* Reads a whole small text file (sysfs/proc) into buf, NUL-terminated, trailing
 * newline kept. Returns false when missing or unreadable. */
bool platform_read_text(const char *path, char *buf, size_t size);

/* Reads a whole small binary file (e.g. an SMBIOS entry); returns bytes read or -1. */
long platform_read_binary(const char *path, unsigned char *buf, size_t size);

#endif
