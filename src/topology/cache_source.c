/* SPDX-License-Identifier: MIT */
#include "topology/cache_source.h"

#include <string.h>

static const char *const names[CACHE_NSOURCES] = {
    [CACHE_FROM_DEFAULT] = "default",
    [CACHE_FROM_SYSFS] = "sysfs",
    [CACHE_FROM_CPUID_LEAF4] = "CPUID leaf 4",
    [CACHE_FROM_CPUID_TOPOEXT] = "CPUID 0x8000001D",
    [CACHE_FROM_CPUID_AMD_LEGACY] = "CPUID 0x80000005/6",
    [CACHE_FROM_DEVICE_TREE] = "device tree",
    [CACHE_FROM_CPUINFO] = "/proc/cpuinfo",
    [CACHE_FROM_MEASURED] = "measured",
};

static const char *const keys[CACHE_NSOURCES] = {
    [CACHE_FROM_DEFAULT] = "default",
    [CACHE_FROM_SYSFS] = "sysfs",
    [CACHE_FROM_CPUID_LEAF4] = "cpuid_leaf4",
    [CACHE_FROM_CPUID_TOPOEXT] = "cpuid_8000001d",
    [CACHE_FROM_CPUID_AMD_LEGACY] = "cpuid_amd_legacy",
    [CACHE_FROM_DEVICE_TREE] = "device_tree",
    [CACHE_FROM_CPUINFO] = "cpuinfo",
    [CACHE_FROM_MEASURED] = "measured",
};

const char *cache_source_name(cache_source s)
{
    return (unsigned)s < CACHE_NSOURCES ? names[s] : "unknown";
}

const char *cache_source_key(cache_source s)
{
    return (unsigned)s < CACHE_NSOURCES ? keys[s] : "unknown";
}

const char *cache_source_name_of_key(const char *key)
{
    for (int s = 0; key && s < CACHE_NSOURCES; s++)
        if (strcmp(keys[s], key) == 0)
            return names[s];
    return NULL;
}
