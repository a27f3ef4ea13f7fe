/* Stopping a run early: a signal (SIGINT/SIGTERM) or the -t deadline. Measuring
 * loops poll stop_requested() between passes, so a stop lands within one pass. */
#ifndef MEMBENCH_STOP_H
#define MEMBENCH_STOP_H

#include <stdbool.h>

/* Installs SIGINT/SIGTERM handlers that request a stop. */
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

#endif
