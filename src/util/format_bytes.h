/* SPDX-License-Identifier: MIT */
/* Byte counts for people: "48 KiB", "2 MiB", "1 GiB" (exact units only, else KiB). */
#ifndef MEMBENCH_FORMAT_BYTES_H
#define MEMBENCH_FORMAT_BYTES_H

#include <stddef.h>
#include <stdint.h>

const char *format_bytes(uint64_t bytes, char *buf, size_t size);

#endif
