/* SPDX-License-Identifier: MIT */
/* Work cut into parts, done at once by the calling thread and helper threads, each
 * pinned to one CPU the caller names (idle CPUs of its node, so first-touched pages
 * land where the caller's own touch would put them): first touch of a chain's
 * buffer, then its linking (measure/latency.c). */
#ifndef MEMBENCH_BESIDE_H
#define MEMBENCH_BESIDE_H

#include <stdbool.h>
#include <stddef.h>

/* One part of parts; false ends the work as failed (a stop requested). */
typedef bool (*beside_part_fn)(void *arg, size_t part, size_t parts);

/* Runs fn for parts 0 .. parts-1: part 0 on the caller, part k on a helper thread
 * pinned to helpers[k - 1] (parts - 1 <= nhelpers, or fewer parts run beside). A
 * helper that cannot start or be pinned leaves its part to the caller, after its
 * own. Returns when every part has ended: true when every part returned true. */
bool beside_run(size_t parts, const int *helpers, size_t nhelpers, beside_part_fn fn, void *arg);

/* Helpers beside_run starts at most. */
#define BESIDE_MAX_HELPERS 7

#endif
