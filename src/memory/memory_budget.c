#include "memory/memory_budget.h"

#include "platform/platform.h"

uint64_t memory_budget_from(uint64_t available)
{
    uint64_t margin = available / 100 * MEMORY_MARGIN_PERCENT + MEMORY_MARGIN_FIXED;
    return available > margin ? available - margin : 0;
}

uint64_t memory_budget(void)
{
    return memory_budget_from(platform_memory_available());
}
