/* SPDX-License-Identifier: MIT */
#include "topology/cpuid_caches.h"

#include <string.h>

#define MAX_SUBLEAVES 16

/* Three registers' bytes, least significant first, up to the first NUL; anything
 * but printable ASCII becomes '?' (the text goes to terminals and JSON). Shifts,
 * not memcpy, so a big-endian host decodes a dump the same way. */
static void signature(char out[13], uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r[3] = {a, b, c};
    size_t n = 0;
    for (int i = 0; i < 12; i++) {
        char ch = (char)(r[i / 4] >> (8 * (i % 4)) & 0xff);
        if (ch == '\0')
            break;
        out[n++] = ch >= 0x20 && ch < 0x7f ? ch : '?';
    }
    out[n] = '\0';
}

static void add(cpuid_caches *out, cache_source src, int level, uint64_t size, int line, int sharing, bool per_package)
{
    if (size == 0 || line <= 0 || line > 4096 || out->nlevels == CPUID_CACHES_MAX)
        return; /* no such cache, or a value no cache has */
    out->levels[out->nlevels++] = (cache_report){src, level, size, line, sharing, per_package};
}

/* Intel's leaf 4 and AMD's 0x8000001D share one layout: a subleaf per cache,
 * type 0 ends the list. */
static void deterministic(const cpuid_dump *d, uint32_t leaf, cache_source src, cpuid_caches *out)
{
    uint32_t r[4];
    for (uint32_t sub = 0; sub < MAX_SUBLEAVES && cpuid_dump_get(d, leaf, sub, r); sub++) {
        unsigned type = r[0] & 0x1f, level = r[0] >> 5 & 0x7;
        if (type == 0)
            break;
        if ((type != 1 && type != 3) || level == 0)
            continue; /* instruction cache (2) or a reserved type */
        uint64_t ways = (r[1] >> 22 & 0x3ff) + 1, parts = (r[1] >> 12 & 0x3ff) + 1;
        uint64_t line = (r[1] & 0xfff) + 1, sets = (uint64_t)r[2] + 1;
        int sharing = (int)(r[0] >> 14 & 0xfff) + 1;
        add(out, src, (int)level, ways * parts * line * sets, (int)line, sharing, false);
    }
}

/* AMD's older fields: sizes and line sizes only, sharing unsaid (L1 and L2 are a
 * core's), and L3 as the whole package's in 512 KiB units. */
static void amd_legacy(const cpuid_dump *d, uint32_t max_ext, cpuid_caches *out)
{
    uint32_t r[4];
    if (max_ext >= 0x80000005 && cpuid_dump_get(d, 0x80000005, 0, r))
        add(out, CACHE_FROM_CPUID_AMD_LEGACY, 1, (uint64_t)(r[2] >> 24) * 1024, (int)(r[2] & 0xff), 0, false);
    if (max_ext >= 0x80000006 && cpuid_dump_get(d, 0x80000006, 0, r)) {
        add(out, CACHE_FROM_CPUID_AMD_LEGACY, 2, (uint64_t)(r[2] >> 16) * 1024, (int)(r[2] & 0xff), 0, false);
        add(out, CACHE_FROM_CPUID_AMD_LEGACY, 3, (uint64_t)(r[3] >> 18) * 512 * 1024, (int)(r[3] & 0xff), 0,
            true);
    }
}

void cpuid_caches_decode(const cpuid_dump *d, cpuid_caches *out)
{
    memset(out, 0, sizeof *out);
    uint32_t r[4];
    if (!cpuid_dump_get(d, 0, 0, r))
        return;
    uint32_t max_basic = r[0];
    signature(out->vendor, r[1], r[3], r[2]);
    bool amd = strcmp(out->vendor, "AuthenticAMD") == 0 || strcmp(out->vendor, "HygonGenuine") == 0;

    if (max_basic >= 1 && cpuid_dump_get(d, 1, 0, r) && r[2] >> 31 && cpuid_dump_get(d, 0x40000000, 0, r))
        signature(out->hypervisor, r[1], r[2], r[3]);

    uint32_t max_ext = 0;
    if (cpuid_dump_get(d, 0x80000000, 0, r) && (r[0] & 0xffff0000) == 0x80000000)
        max_ext = r[0];
    if (amd && max_ext >= 0x80000001 && cpuid_dump_get(d, 0x80000001, 0, r))
        out->topoext = r[2] >> 22 & 1;

    if (!amd && max_basic >= 4)
        deterministic(d, 4, CACHE_FROM_CPUID_LEAF4, out);
    if (amd && out->topoext && max_ext >= 0x8000001d)
        deterministic(d, 0x8000001d, CACHE_FROM_CPUID_TOPOEXT, out);
    if (amd)
        amd_legacy(d, max_ext, out);
}
