/* How much a run may allocate: never beyond what the machine and its cgroup can
 * give. The margin leaves room for the page cache, our own code and other tenants. */
#ifndef MEMBENCH_MEMORY_BUDGET_H
#define MEMBENCH_MEMORY_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEMORY_MARGIN_FIXED (64ULL << 20) /* bytes always left free */
#define MEMORY_MARGIN_PERCENT 10          /* and this share of what is available */

/* Budget for benchmark buffers given the bytes available (MemAvailable and cgroup
 * headroom, whichever is smaller): available - 10% - 64 MiB, never negative. */
uint64_t memory_budget_from(uint64_t available);

/* The budget on this machine now. False when it cannot be known (MemAvailable or
 * a cgroup limit unreadable): why names the file and the reason, and nothing may
 * be allocated. */
bool memory_budget(uint64_t *bytes, char *why, size_t whylen);

#endif
