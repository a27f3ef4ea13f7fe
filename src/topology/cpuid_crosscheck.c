/* Cross-check of sysfs cache sizes against CPUID's deterministic cache parameters
 * (Intel leaf 4, AMD leaf 0x8000001D). Hypervisors sometimes pass through one and
 * invent the other; a user should hear when the two disagree. */
#include "topology/topology.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <string.h>

typedef struct {
    uint64_t size[4]; /* by level, data or unified; 0 = not reported */
} cpuid_caches;

static bool read_leaf(unsigned leaf, cpuid_caches *out)
{
    bool any = false;
    for (unsigned sub = 0; sub < 16; sub++) {
        unsigned a, b, c, d;
        if (!__get_cpuid_count(leaf, sub, &a, &b, &c, &d))
            return any;
        unsigned type = a & 0x1f;
        if (type == 0)
            break;
        unsigned level = (a >> 5) & 0x7;
        if (type == 2 || level == 0 || level > 3)
            continue; /* instruction cache, or a level we do not compare */
        uint64_t ways = ((b >> 22) & 0x3ff) + 1, parts = ((b >> 12) & 0x3ff) + 1;
        uint64_t line = (b & 0xfff) + 1, sets = (uint64_t)c + 1;
        out->size[level] = ways * parts * line * sets;
        any = true;
    }
    return any;
}

static bool cpuid_cache_sizes(cpuid_caches *out)
{
    memset(out, 0, sizeof *out);
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return false;
    bool amd = b == 0x68747541 || b == 0x6f677948; /* "Auth"enticAMD, "Hygo"nGenuine */
    if (amd) {
        if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 22)))
            return read_leaf(0x8000001d, out);
        return false;
    }
    return a >= 4 && read_leaf(4, out);
}

void topology_crosscheck_cpuid(topology *t)
{
    cpuid_caches cc;
    if (!cpuid_cache_sizes(&cc))
        return;
    for (int level = 1; level <= 3; level++) {
        cache_level sys = topology_cache_level(t, level);
        uint64_t cpuid = cc.size[level];
        if (sys.defaulted && cpuid) {
            topology_warn(t, "L%d: sysfs reports none, CPUID reports %llu KiB", level,
                          (unsigned long long)(cpuid / 1024));
        } else if (!sys.defaulted && cpuid && cpuid != sys.size) {
            topology_warn(t, "L%d: sysfs reports %llu KiB, CPUID reports %llu KiB", level,
                          (unsigned long long)(sys.size / 1024), (unsigned long long)(cpuid / 1024));
        }
    }
}
#else
void topology_crosscheck_cpuid(topology *t)
{
    (void)t; /* no CPUID on this architecture: sysfs is all we have */
}
#endif
