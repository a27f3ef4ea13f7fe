/* SPDX-License-Identifier: MIT */
#include "memory/memory_budget.h"

#include "platform/platform.h"

uint64_t memory_budget_from(uint64_t available)
{
    uint64_t margin = available / 100 * MEMORY_MARGIN_PERCENT + memory_reserve_bytes(available);
    return available > margin ? available - margin : 0;
}

/* A share of bytes, at least NODE_MARGIN_MIN, at most MEMORY_MARGIN_FIXED; 0
 * (unknown): MEMORY_MARGIN_FIXED. */
static uint64_t reserve_share(uint64_t bytes, unsigned share)
{
    uint64_t margin = bytes / share;
    if (bytes == 0 || margin > MEMORY_MARGIN_FIXED)
        return MEMORY_MARGIN_FIXED;
    return margin < NODE_MARGIN_MIN ? NODE_MARGIN_MIN : margin;
}

uint64_t node_margin_bytes(uint64_t node_total)
{
    return reserve_share(node_total, NODE_MARGIN_SHARE);
}

uint64_t memory_reserve_bytes(uint64_t bytes)
{
    return reserve_share(bytes, MEMORY_RESERVE_SHARE);
}

uint64_t node_margin_bytes_of(int node)
{
    return node_margin_bytes(platform_node_total_bytes(node));
}

bool memory_budget(uint64_t *bytes, char *why, size_t whylen)
{
    uint64_t available;
    *bytes = 0;
    if (!platform_memory_available(&available, why, whylen))
        return false;
    *bytes = memory_budget_from(available);
    return true;
}
