/* SPDX-License-Identifier: MIT */
/* Stopping a run early: a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE) or the -t deadline.
 *
 * Both raise one flag (util/stop_flag.h) that every long loop tests, in every
 * phase: allocation and first touch, kernel passes, chain building. The deadline
 * is kept by a watcher thread that sleeps until it and raises the flag, so no
 * loop reads the clock to notice it (at L1 sizes one pass takes tens of ns and a
 * clock read per pass shows in the result).
 *   stop_flagged()   the flag alone, one relaxed atomic load; for timed loops.
 *   stop_requested() the flag, or, when the watcher could not be started, the
 *                    deadline read from the clock; between samples only.
 * A reader of stdout that went away (| head) raises SIGPIPE only at the next write,
 * which may come minutes later (a matrix writes its rows at the end); so
 * stop_requested() also asks, at most every STOP_OUTPUT_CHECK_S, whether the output
 * pipe's reader is gone, and stops the run as SIGPIPE would. Not the watcher's job:
 * numa mem forks its workers from a parent that must stay single-threaded. */
#ifndef MEMBENCH_STOP_H
#define MEMBENCH_STOP_H

#include <stdbool.h>

#include "util/stop_flag.h"

/* Installs SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that request a stop. */
void stop_install_signal_handlers(void);
/* Seconds between two looks at the output's reader: a closed pipe is noticed
 * within about this (plus one sample). */
#define STOP_OUTPUT_CHECK_S 0.2
/* Watches fd (stdout) from now on when it is a pipe or socket; -1: nothing. */
void stop_watch_output(int fd);
/* Looks at the watched output now: when its reader is gone, requests a stop as
 * SIGPIPE and returns true. */
bool stop_check_output(void);
/* Deadline in clock_now() seconds; 0 = none. One already passed raises the flag at
 * once; a later one starts the watcher (replacing any earlier deadline). */
void stop_set_deadline(double when);
bool stop_requested(void);
/* Signal that caused the stop (SIGINT, SIGTERM), or 0. */
int stop_signal(void);
/* "SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE" (the signals handled), "signal" for
 * another, NULL for 0. */
const char *stop_signal_name(int sig);
bool stop_deadline_passed(void);
/* For tests and internal use: request a stop as if by signal sig (0 = no signal). */
void stop_request(int sig);
/* Clears the flag and the signal, ends the watcher without raising anything and
 * watches no output. */
void stop_reset(void);
/* Ends the watcher, keeping the flag as it is: a deadline after the work is done
 * cuts nothing. */
void stop_disarm(void);

#endif
