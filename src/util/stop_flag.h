/* SPDX-License-Identifier: MIT */
/* The process-wide request to stop early, raised by a signal or the -t deadline
 * (measure/stop.c) and tested by every long loop: kernel passes, first touch,
 * building a chase chain, parsing. It lives at the bottom layer so memory/ and
 * kernels/ can test it without knowing who raised it. */
#ifndef MEMBENCH_STOP_FLAG_H
#define MEMBENCH_STOP_FLAG_H

#include <stdatomic.h>
#include <stdbool.h>

extern atomic_int stop_flag;

/* One relaxed atomic load: cheap enough after every kernel pass or megabyte. */
static inline bool stop_flagged(void)
{
    return atomic_load_explicit(&stop_flag, memory_order_relaxed) != 0;
}

/* Between chunks of untimed work (first touch, linking a chase chain): the flag, or
 * what the stop machinery watches besides it (measure/stop.c hooks in its look at
 * stdout's reader, rate-limited there; this layer cannot call it). Never in a timed
 * loop. */
bool stop_poll(void);
/* The hook stop_poll calls when the flag is down; NULL: none. Set before the
 * threads that poll start. */
void stop_poll_set_hook(bool (*hook)(void));

/* Bytes a loop may handle between two tests of the flag: about a millisecond
 * of work at memory speed, so a stop is seen long before a user notices. */
#define STOP_CHECK_BYTES ((size_t)1 << 22)

#endif
