/* Stopping a run early: a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE) or the -t deadline.
 *
 * Two checks, because a timed loop must not read the clock:
 *   stop_flagged()   the stop flag alone, one relaxed atomic load. Timed loops test
 *                    it after every kernel pass, so a signal lands within one pass.
 *   stop_requested() the poll: the flag, or the deadline reached (reads the clock,
 *                    and raises the flag once the deadline has passed). Call it
 *                    between samples, never inside timed code: at L1 sizes one pass
 *                    takes tens of ns and a clock read per pass shows in the result. */
#ifndef MEMBENCH_STOP_H
#define MEMBENCH_STOP_H

#include <stdatomic.h>
#include <stdbool.h>

/* Installs SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that request a stop. */
void stop_install_signal_handlers(void);
/* Deadline in clock_now() seconds; 0 = none. */
void stop_set_deadline(double when);
bool stop_requested(void);
/* Signal that caused the stop (SIGINT, SIGTERM), or 0. */
int stop_signal(void);
bool stop_deadline_passed(void);
/* For tests and internal use: request a stop as if by signal sig (0 = no signal). */
void stop_request(int sig);
void stop_reset(void);

/* The flag itself, visible here only so stop_flagged() inlines into timed loops. */
extern atomic_int stop_flag;

static inline bool stop_flagged(void)
{
    return atomic_load_explicit(&stop_flag, memory_order_relaxed) != 0;
}

#endif
