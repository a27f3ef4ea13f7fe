/* Pointer chasing for latency: a buffer cut into nodes of `stride` bytes, linked in
 * one random cycle that visits every node exactly once before returning to the
 * start, so no prefetcher can guess the next address and every load depends on the
 * one before. The order comes from a seeded generator, so a run can be repeated. */
#ifndef MEMBENCH_CHASE_H
#define MEMBENCH_CHASE_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64: the documented generator behind every random order (--seed). */
uint64_t chase_random(uint64_t *state);

/* Links buf (bytes long) into one cycle of bytes/stride nodes; returns the start.
 * stride must be >= sizeof(void *) and divide bytes. NULL if it cannot allocate. */
void *chase_build(void *buf, size_t bytes, size_t stride, uint64_t seed);

/* Follows steps links from p; returns where it ended (callers keep the result so
 * the loads cannot be removed). */
void *chase_run(void *p, uint64_t steps);

#endif
