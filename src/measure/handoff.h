/* SPDX-License-Identifier: MIT */
/* The writer/reader handshake of `membench c2c`: two pinned threads take turns on
 * a window of lines. The writer posts "sample k is ready" with a release store
 * after its last store to the window; the reader waits for it with acquire loads,
 * so on weak memory models (arm64, POWER, RISC-V) it cannot chase before the
 * writer's stores are visible; the reader posts "done" the same way before the
 * writer touches the next window.
 *
 * Every wait has a deadline and never hangs: it spins briefly (a handoff is
 * microseconds on real hardware), then yields, then sleeps in short naps, so a
 * guest whose vCPUs outnumber the host's CPUs still makes progress. The deadline
 * counts from the partner's last sign of life (a post or a beat), so long setup
 * work (linking gigabytes of windows) is not taken for silence. A side that fails
 * raises abort and the other stops waiting at once. */
#ifndef MEMBENCH_HANDOFF_H
#define MEMBENCH_HANDOFF_H

#include <stdatomic.h>

typedef struct {
    /* each on its own lines: a poll on one does not disturb the other or the window */
    _Alignas(128) atomic_uint ready; /* windows the writer has prepared */
    _Alignas(128) atomic_uint done;  /* windows the reader has chased */
    _Alignas(128) atomic_int abort;  /* a side failed or gave up */
    atomic_uint beat;                /* bumped by a side busy for long (building windows) */
} handoff;

typedef enum {
    HANDOFF_OK,
    HANDOFF_TIMEOUT, /* the partner did not answer before the deadline */
    HANDOFF_ABORTED, /* the partner failed (abort was raised) */
    HANDOFF_STOPPED  /* a signal or -t asked to stop */
} handoff_result;

void handoff_init(handoff *h);
/* Release store of value into flag. */
void handoff_post(atomic_uint *flag, unsigned value);
/* Waits until *flag >= want (acquire), at most timeout_s seconds. */
handoff_result handoff_wait(handoff *h, atomic_uint *flag, unsigned want, double timeout_s);
void handoff_abort(handoff *h);
/* A sign of life during long work: restarts the partner's deadline. */
void handoff_beat(handoff *h);

#endif
