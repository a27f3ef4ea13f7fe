/* SPDX-License-Identifier: MIT */
#include "measure/handoff.h"

#include <sched.h>
#include <time.h>

#include "measure/clock.h"
#include "util/stop_flag.h"

#define SPIN_S 200e-6   /* spin this long before yielding */
#define YIELD_S 5e-3    /* then yield this long before napping */
#define NAP_NS 100000   /* 0.1 ms naps: a slow partner costs no CPU */
#define CHECK_EVERY 256 /* spins between clock reads */

static inline void spin_hint(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

void handoff_init(handoff *h)
{
    atomic_init(&h->ready, 0);
    atomic_init(&h->done, 0);
    atomic_init(&h->abort, 0);
    atomic_init(&h->beat, 0);
}

void handoff_beat(handoff *h)
{
    atomic_fetch_add_explicit(&h->beat, 1, memory_order_relaxed);
}

void handoff_post(atomic_uint *flag, unsigned value)
{
    atomic_store_explicit(flag, value, memory_order_release);
}

void handoff_abort(handoff *h)
{
    atomic_store_explicit(&h->abort, 1, memory_order_release);
}

handoff_result handoff_wait(handoff *h, atomic_uint *flag, unsigned want, double timeout_s)
{
    double start = clock_now();
    unsigned beat = atomic_load_explicit(&h->beat, memory_order_relaxed);
    for (unsigned n = 0;; n++) {
        if (atomic_load_explicit(flag, memory_order_acquire) >= want)
            return HANDOFF_OK;
        if (n % CHECK_EVERY != 0) {
            spin_hint();
            continue;
        }
        if (atomic_load_explicit(&h->abort, memory_order_acquire))
            return HANDOFF_ABORTED;
        if (stop_flagged())
            return HANDOFF_STOPPED;
        unsigned now_beat = atomic_load_explicit(&h->beat, memory_order_relaxed);
        if (now_beat != beat) {
            beat = now_beat;
            start = clock_now();
        }
        double waited = clock_now() - start;
        if (waited > timeout_s)
            return HANDOFF_TIMEOUT;
        if (waited > YIELD_S)
            nanosleep(&(struct timespec){0, NAP_NS}, NULL);
        else if (waited > SPIN_S)
            sched_yield();
    }
}
