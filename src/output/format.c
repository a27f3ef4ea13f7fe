/* SPDX-License-Identifier: MIT */
#include "output/format.h"

#include <math.h>
#include <stdio.h>

const char *format_size_kb(uint64_t size_kb, char *buf, size_t size)
{
    if (size_kb >= 1024ULL * 1024ULL)
        snprintf(buf, size, "%llu GB", (unsigned long long)(size_kb / (1024ULL * 1024ULL)));
    else if (size_kb >= 1024ULL)
        snprintf(buf, size, "%llu MB", (unsigned long long)(size_kb / 1024ULL));
    else
        snprintf(buf, size, "%llu KB", (unsigned long long)size_kb);
    return buf;
}

const char *format_rate_mb_s(double mb_s, char *buf, size_t size)
{
    if (mb_s >= 1e6)
        snprintf(buf, size, "%.1f TB/s", mb_s / 1e6);
    else if (mb_s >= 1e3)
        snprintf(buf, size, "%.1f GB/s", mb_s / 1e3);
    else
        snprintf(buf, size, "%.1f MB/s", mb_s);
    return buf;
}

const char *format_interval_pct(const sample_stats *st, char *buf, size_t size)
{
    double median = st->median;
    if (!(st->median_level > 0) || !(median > 0)) {
        snprintf(buf, size, "-");
        return buf;
    }
    double up = st->median_high - median, down = median - st->median_low;
    snprintf(buf, size, "\xc2\xb1%.0f%%%s", 100 * (up > down ? up : down) / median,
             st->median_level < STATS_MEDIAN_LEVEL ? "*" : "");
    return buf;
}

const char *format_interval_level(const sample_stats *st, char *buf, size_t size)
{
    double median = st->median;
    if (!(st->median_level > 0) || !(median > 0)) {
        snprintf(buf, size, "-");
        return buf;
    }
    double down = 100 * (median - st->median_low) / median, up = 100 * (st->median_high - median) / median;
    long d = lround(down), u = lround(up);
    if (d == u)
        snprintf(buf, size, "\xc2\xb1%ld%% (%.0f%%)", u, 100 * st->median_level);
    else
        snprintf(buf, size, "-%ld/+%ld%% (%.0f%%)", d, u, 100 * st->median_level);
    return buf;
}
