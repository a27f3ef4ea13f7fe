/* SPDX-License-Identifier: MIT */
#include "topology/memory_peak.h"

#include <stdio.h>

#include "platform/platform.h"

static unsigned word(const unsigned char *p)
{
    return (unsigned)p[0] | ((unsigned)p[1] << 8);
}

bool smbios_type17_parse(const unsigned char *raw, size_t len, unsigned *size_mb, unsigned *mts, unsigned *width_bits)
{
    if (len < 0x17 || raw[0] != 17 || raw[1] < 0x17 || raw[1] > len)
        return false;
    unsigned size = word(raw + 0x0C);
    if (size == 0 || size == 0xFFFF)
        return false; /* empty slot, or size unknown */
    if (size == 0x7FFF && raw[1] >= 0x20)
        size = (unsigned)(word(raw + 0x1C) | (word(raw + 0x1E) << 16)); /* extended size, MB */
    else if (size & 0x8000)
        size = (size & 0x7FFF) / 1024; /* KB granularity */
    else
        size &= 0x7FFF;
    unsigned speed = word(raw + 0x15);
    if (raw[1] >= 0x22 && word(raw + 0x20) != 0 && word(raw + 0x20) != 0xFFFF)
        speed = word(raw + 0x20); /* configured speed beats rated speed */
    unsigned width = word(raw + 0x0A);
    *size_mb = size;
    *mts = speed;
    *width_bits = width == 0xFFFF ? 0 : width;
    return size > 0 && speed > 0 && speed != 0xFFFF;
}

bool memory_peak_detect(const char *sys_root, memory_peak *out)
{
    out->devices = 0;
    out->mts = 0;
    out->bus_bytes = 8;
    out->gbs = 0;
    for (int i = 0; i < 1024; i++) {
        char path[512];
        unsigned char raw[256];
        snprintf(path, sizeof path, "%s/firmware/dmi/entries/17-%d/raw", sys_root, i);
        long len = platform_read_binary(path, raw, sizeof raw);
        if (len < 0)
            break;
        unsigned size, mts, width;
        if (!smbios_type17_parse(raw, (size_t)len, &size, &mts, &width))
            continue;
        out->devices++;
        if (out->mts == 0 || (int)mts < out->mts)
            out->mts = (int)mts; /* the bus runs at the slowest device's speed */
        if (width == 32)
            out->bus_bytes = 4; /* some boards describe DDR5 sub-channels */
    }
    if (out->devices == 0)
        return false;
    out->gbs = (double)out->devices * out->mts * out->bus_bytes / 1000.0;
    return true;
}
