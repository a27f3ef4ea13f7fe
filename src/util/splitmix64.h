/* SPDX-License-Identifier: MIT */
/* splitmix64: the one pseudo-random generator behind every seeded order (the chase
 * permutation keys, hence --seed). It is kept in one place and documented so another
 * tool can reproduce a chain exactly: seeded with 0, the first two outputs are
 * 0xE220A8397B1DCDAF and 0x6E789E6AA1B965F4. Not for anything security-related. */
#ifndef MEMBENCH_SPLITMIX64_H
#define MEMBENCH_SPLITMIX64_H

#include <stdint.h>

/* Advances *state and returns the next 64-bit output. */
uint64_t splitmix64_next(uint64_t *state);

#endif
