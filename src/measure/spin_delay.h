/* SPDX-License-Identifier: MIT */
/* The injection delay of traffic threads (MLC's -d): a busy loop of a given number
 * of iterations after every traffic step, one dependent add and a branch each,
 * about one core clock on current CPUs. Iterations are the unit users type (MLC's
 * delay list is in them); spin_ns_per_iteration says what one costs on this CPU, so
 * every delay is also reported in nanoseconds. */
#ifndef MEMBENCH_SPIN_DELAY_H
#define MEMBENCH_SPIN_DELAY_H

#include <stdint.h>

/* Spins n iterations (n = 0: returns at once); returns the iterations done, so a
 * caller can show the delay it names was spun (traffic's spins_per_step). */
uint64_t spin_delay(uint64_t n);

/* How long n iterations take, in seconds: spin_delay timed, or a fake in tests. */
typedef double (*spin_timer)(uint64_t n, void *ctx);

/* Nanoseconds per iteration from the timer: the best of several timings of n and
 * 2n iterations, and the slope between them, so the fixed cost of calling and
 * timing (which would inflate short delays) cancels out. */
double spin_calibrate(spin_timer timer, void *ctx, uint64_t n);

/* This CPU's ns per iteration, calibrated once (a few milliseconds) and kept. */
double spin_ns_per_iteration(void);

#endif
