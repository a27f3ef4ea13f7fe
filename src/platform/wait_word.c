/* SPDX-License-Identifier: MIT */
/* Sleeping on a word until another thread changes it (platform.h). Linux: a
 * private futex, so a wake-up is the kernel's business alone; with a mutex and
 * condition variable every woken thread must take the mutex again, one after the
 * other, which made a barrier of 4096 threads on 2 CPUs cost 200 ms (BENCHMARKS.md,
 * issue 38). Elsewhere: one mutex and condition variable for every word, correct
 * but with that cost. */
#include "platform/platform.h"

#if defined(__linux__)
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The futex is the word itself: a 32-bit integer. */
_Static_assert(sizeof(atomic_uint) == sizeof(unsigned) && sizeof(unsigned) == 4, "a futex word is 32 bits");

void platform_wait_on(atomic_uint *word, unsigned expected)
{
    /* Returns at once when *word != expected (EAGAIN), on a wake-up, on a signal
     * (EINTR) or spuriously: callers re-check, so the result says nothing more. */
    (void)syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void platform_wake_all(atomic_uint *word)
{
    (void)syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

#else
#include <pthread.h>

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_woken = PTHREAD_COND_INITIALIZER;

/* The waker changes the word before taking the lock to wake, and the waiter
 * checks it under the lock, so no wake-up is lost. */
void platform_wait_on(atomic_uint *word, unsigned expected)
{
    pthread_mutex_lock(&wait_lock);
    if (atomic_load(word) == expected)
        pthread_cond_wait(&wait_woken, &wait_lock);
    pthread_mutex_unlock(&wait_lock);
}

void platform_wake_all(atomic_uint *word)
{
    (void)word;
    pthread_mutex_lock(&wait_lock);
    pthread_cond_broadcast(&wait_woken);
    pthread_mutex_unlock(&wait_lock);
}
#endif
