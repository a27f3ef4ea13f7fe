/* SPDX-License-Identifier: MIT */
/* Human-readable sizes and rates in sc-membench's -R style. */
#ifndef MEMBENCH_FORMAT_H
#define MEMBENCH_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/stats.h"

/* "32 KB", "4 MB", "2 GB" (binary units, truncating, as sc-membench prints). */
const char *format_size_kb(uint64_t size_kb, char *buf, size_t size);
/* "9.3 TB/s", "464.4 GB/s", "512.0 MB/s" from MB/s. */
const char *format_rate_mb_s(double mb_s, char *buf, size_t size);

/* The half-width of st's median interval in % of the median, "±12%" (the larger
 * side); "±12%*" when its coverage is below 95% (2 to 5 samples: [min, max]);
 * "-" with one sample. */
const char *format_interval_pct(const sample_stats *st, char *buf, size_t size);

/* st's median interval as the latency table prints it, with the level it really
 * has: "-3/+5% (96%)", "±4% (98%)" when both sides round alike; "-" with one
 * sample. The level is the interval's own (0.961 with 9 samples, 0.75 with 3):
 * never a 95% it does not have. */
const char *format_interval_level(const sample_stats *st, char *buf, size_t size);

#endif
