/* SPDX-License-Identifier: MIT */
/* Theoretical memory bandwidth from the SMBIOS memory devices (type 17), as seed
 * 001 computes it: populated channels x MT/s x 8 bytes. Each populated device is
 * counted as a channel, which overstates the peak on boards with two DIMMs per
 * channel; the report says how it was derived. VMs and unprivileged containers
 * usually cannot read these entries: then the peak is unknown. */
#ifndef MEMBENCH_MEMORY_PEAK_H
#define MEMBENCH_MEMORY_PEAK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int devices;    /* populated memory devices */
    int mts;        /* configured speed, MT/s (lowest over devices) */
    int bus_bytes;  /* data width in bytes (8 for 64-bit) */
    double gbs;     /* devices x mts x bus_bytes / 1000 */
} memory_peak;

/* Parses one SMBIOS type-17 structure; returns false if it is not one or the device
 * is empty. Fills size in MB (0 if empty), speed in MT/s and data width in bits. */
bool smbios_type17_parse(const unsigned char *raw, size_t len, unsigned *size_mb, unsigned *mts, unsigned *width_bits);

/* Reads the type-17 entries (firmware/dmi/entries/17-N/raw) under sys_root;
 * false when unknown. */
bool memory_peak_detect(const char *sys_root, memory_peak *out);

#endif
