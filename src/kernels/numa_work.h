/* SPDX-License-Identifier: MIT */
/* The work perf bench numa mem's threads do on a buffer, once per loop: a pass
 * over one buffer, chosen by the options -R (reads), -W (writes), -B (alternate
 * direction), -r (random walk) and -Z (zeroing), for thread `index` of `count`
 * sharing the buffer, at loop number `loop`. Re-implemented from the behaviour
 * (see README): the random walk visits max(1, buffer_words / 1024) blocks of up
 * to 1024 words (8 KiB) chosen by a 32-bit Galois LFSR (taps 0x80000062) seeded
 * from index + loop + the thread's running value; the sequential pass starts at
 * the thread's share of the buffer and goes once round it, forward or (with -B,
 * on even index + loop) backward; a word read adds into the running value, a word
 * written gets the running value + 1 (read and write: a read-modify-write chain
 * the compiler cannot drop). Two counts come out: perf's "data processed" (8
 * bytes a word visited, whatever the access: a read-modify-write word counts once,
 * as perf counts a buffer's size once a loop) and, beside it, the bytes actually
 * read and written (a read-modify-write counts as a read and a write). A pass polls
 * a stop flag every NUMA_WORK_POLL_WORDS words so a time limit is kept within
 * milliseconds, not after a whole loop.
 *
 * Where membench departs from perf on purpose:
 * - a buffer under 1024 words still gets one random block (perf: none, the
 *   buffer is silently untouched);
 * - a random block may end at the buffer's last word (perf never touches it);
 * - a zero LFSR seed (perf's fixed point: every block at word 0) becomes 1;
 * - the sequential pass visits every word exactly once, ending with its start
 *   word (perf skips the start word).
 * Kept from perf: the seed is truncated to 32 bits, so random blocks start in
 * the first 2^32 words (32 GiB) of a larger buffer. */
#ifndef MEMBENCH_NUMA_WORK_H
#define MEMBENCH_NUMA_WORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NUMA_WORK_BLOCK_WORDS 1024
#define NUMA_WORK_POLL_WORDS (64 * 1024) /* 512 KiB between two looks at the stop flag */
/* Zeroing a whole buffer (-Z without the walk) looks every 1 GiB instead (tens of
 * ms at DRAM speed): memset of calls that large streams past the caches, as perf's
 * single call over the buffer does. 512 KiB calls went through the cache (about
 * 0.6x on Zen 5); 64 MiB calls were still 0.7x of perf on Zen 3 (glibc 2.36, 512 MiB
 * buffer), 1 GiB calls on a par. */
#define NUMA_WORK_ZERO_POLL_WORDS (128 * 1024 * 1024)

typedef struct {
    bool reads, writes, backwards, random_walk, zero;
    /* Sequential passes in membench's tight loop (5 instructions a word) instead
     * of perf's (12: the flags and a wrap test at every word), which is the
     * default because perf's keys time perf's loop. The same words, values and
     * counts either way; only the pace differs. */
    bool tight_loop;
} numa_access;

typedef struct {
    uint64_t bytes_processed;            /* perf's data: 8 a word visited, once whatever the access */
    uint64_t bytes_read, bytes_written;  /* membench's: a read-modify-write word counts in both */
    bool stopped; /* the stop flag ended the pass early */
} numa_pass_count;

/* One pass over words 64-bit words at buf. value: the thread's running value
 * (in: seeds the walk; out: what the pass read into it; unchanged without reads).
 * stop: polled before the first word and then every NUMA_WORK_POLL_WORDS words
 * (may be NULL); when non-zero the pass returns at once, sets c->stopped (never
 * clears it) and counts only what it did. Adds what it did to *c (processed: 8
 * bytes a word visited; read: 8 a word read; written: 8 a word written or zeroed). -Z without -r zeroes the whole buffer
 * and ignores R/W/B; with -r it zeroes the random blocks. Neither reads, writes
 * nor zeroing: nothing is touched or counted. The sequential start is index * (words / count)
 * reduced modulo words (count 0 is taken as 1). words 0: nothing. */
void numa_work_pass(uint64_t *buf, size_t words, const numa_access *a, unsigned index, unsigned count,
                    uint64_t loop, uint64_t *value, const volatile int *stop, numa_pass_count *c);

/* The LFSR step (exposed for tests). */
uint32_t numa_work_lfsr(uint32_t state);

#endif
