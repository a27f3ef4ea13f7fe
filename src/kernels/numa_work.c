/* SPDX-License-Identifier: MIT */
/* perf bench numa mem's per-buffer work (numa_work.h). A pass is cut into runs of
 * contiguous words, visited upward or downward; each run is cut again where the
 * stop flag is due, so the inner loops are plain loops over uint64_t with no call,
 * no division and no stop test per word. The sequential pass's loop is perf's own
 * (its option flags read at every word, perf_up), unless asked for the tight one. */
#include "kernels/numa_work.h"

#include <string.h>

uint32_t numa_work_lfsr(uint32_t state)
{
    uint32_t lsb = state & 1u;
    state >>= 1;
    if (lsb)
        state ^= 0x80000062u;
    return state;
}

typedef enum { OP_READ, OP_WRITE, OP_RMW, OP_ZERO } work_op;

typedef struct {
    work_op op;
    bool perf_loop;           /* sequential runs in perf's word loop (perf_up, perf_down) */
    size_t words;             /* the buffer's, for perf's wrap test */
    const unsigned char *reads, *writes; /* the options, read again at every word there */
    uint64_t v;               /* the running value */
    size_t done;              /* words visited */
    size_t budget;            /* words left before the next look at the stop flag */
    size_t poll;              /* words between two looks */
    const volatile int *stop; /* NULL: never looked at */
    bool stopped;
} pass_state;

/* Reads sum into four accumulators: addition mod 2^64 does not care about the
 * order, so the value is the one-chain sum, and loads are not held to one add a
 * cycle (perf's build vectorises its read loop; a single chain ran at 0.78x of it
 * in the random walk). */
static uint64_t sum_words(const uint64_t *p, size_t n)
{
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a += p[i];
        b += p[i + 1];
        c += p[i + 2];
        d += p[i + 3];
    }
    for (; i < n; i++)
        a += p[i];
    return a + b + c + d;
}

/* The same, visiting the words from the last down (-B's other direction). */
static uint64_t sum_words_down(const uint64_t *p, size_t n)
{
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = n;
    for (; i >= 4; i -= 4) {
        a += p[i - 1];
        b += p[i - 2];
        c += p[i - 3];
        d += p[i - 4];
    }
    while (i > 0)
        a += p[--i];
    return a + b + c + d;
}

static uint64_t run_up(uint64_t *p, size_t n, work_op op, uint64_t v)
{
    switch (op) {
    case OP_READ:
        v += sum_words(p, n);
        break;
    case OP_WRITE: {
        uint64_t x = v + 1;
        for (size_t i = 0; i < n; i++)
            p[i] = x;
        break;
    }
    case OP_RMW:
        for (size_t i = 0; i < n; i++) {
            v += p[i];
            p[i] = v + 1;
        }
        break;
    case OP_ZERO:
        memset(p, 0, n * sizeof *p);
        break;
    }
    return v;
}

static uint64_t run_down(uint64_t *p, size_t n, work_op op, uint64_t v)
{
    switch (op) {
    case OP_READ:
        v += sum_words_down(p, n);
        break;
    case OP_WRITE: {
        uint64_t x = v + 1;
        for (size_t i = n; i-- > 0;)
            p[i] = x;
        break;
    }
    case OP_RMW:
        for (size_t i = n; i-- > 0;) {
            v += p[i];
            p[i] = v + 1;
        }
        break;
    case OP_ZERO: /* only upward passes zero; kept for completeness */
        memset(p, 0, n * sizeof *p);
        break;
    }
    return v;
}

/* perf's sequential walk as its build runs it, word for word: both option flags
 * read again at every word, the wrap test (a compare and a move) and the end test,
 * 12 instructions a word against 5 in run_up's loop, and 1.4-1.5x less sequential
 * read-modify-write per second (BENCHMARKS, "numa mem against perf"). A figure
 * under perf's keys means perf's figure, so this is the loop timed there. perf's
 * flags sit in memory its word stores may alias, so its compiler reloads them;
 * here they are read through unsigned char, which C lets a word store alias, so
 * the compiler reloads them too (the same cmpb/je pair perf 6.1's Debian build
 * has). Each visits [lo, hi) (lo < hi) of a buffer of `words` words, upward from lo
 * or downward from hi - 1, as perf's loop turned to test after the word, not
 * before; the wrap test fires only past the buffer's last word or below its first,
 * where the run ends. The values read and written are run_up's and run_down's. */
static uint64_t perf_up(uint64_t *buf, size_t words, size_t lo, size_t hi, const unsigned char *reads,
                        const unsigned char *writes, uint64_t v)
{
    size_t end = hi == words ? 0 : hi; /* where the index is after hi - 1 and the wrap test */
    for (size_t i = lo;;) {
        if (*reads)
            v += buf[i];
        if (*writes)
            buf[i] = v + 1;
        i++;
        if (i >= words) /* perf's wrap test */
            i = 0;
        if (i == end)
            break;
    }
    return v;
}

static uint64_t perf_down(uint64_t *buf, size_t words, size_t lo, size_t hi, const unsigned char *reads,
                          const unsigned char *writes, uint64_t v)
{
    size_t end = lo == 0 ? words - 1 : lo - 1;
    for (size_t i = hi - 1;;) {
        if (*reads)
            v += buf[i];
        if (*writes)
            buf[i] = v + 1;
        i--;
        if (i >= words) /* perf's wrap test: 0 - 1 wraps round to the last word */
            i = words - 1;
        if (i == end)
            break;
    }
    return v;
}

/* Visits words [lo, hi): upward from lo, or downward from hi - 1. Looks at the
 * stop flag whenever a poll chunk's budget is used up (and so before the pass's
 * first word). Returns false when the flag ended the pass. */
static bool visit(pass_state *s, uint64_t *buf, size_t lo, size_t hi, bool down)
{
    while (lo < hi) {
        if (s->budget == 0) {
            if (s->stop && *s->stop) {
                s->stopped = true;
                return false;
            }
            s->budget = s->stop ? s->poll : SIZE_MAX;
        }
        size_t n = hi - lo < s->budget ? hi - lo : s->budget;
        if (s->perf_loop && down) {
            s->v = perf_down(buf, s->words, hi - n, hi, s->reads, s->writes, s->v);
            hi -= n;
        } else if (s->perf_loop) {
            s->v = perf_up(buf, s->words, lo, lo + n, s->reads, s->writes, s->v);
            lo += n;
        } else if (down) {
            s->v = run_down(buf + (hi - n), n, s->op, s->v);
            hi -= n;
        } else {
            s->v = run_up(buf + lo, n, s->op, s->v);
            lo += n;
        }
        s->budget -= n;
        s->done += n;
    }
    return true;
}

static void random_walk(pass_state *s, uint64_t *buf, size_t words, uint32_t state)
{
    size_t blocks = words / NUMA_WORK_BLOCK_WORDS;
    if (blocks == 0) /* perf: none, the buffer untouched; membench: one */
        blocks = 1;
    for (size_t b = 0; b < blocks; b++) {
        state = numa_work_lfsr(state);
        if (state == 0) /* only from a zero seed: perf's fixed point */
            state = 1;
        size_t start = (size_t)(state % words);
        size_t end = words - start > NUMA_WORK_BLOCK_WORDS ? start + NUMA_WORK_BLOCK_WORDS : words;
        if (!visit(s, buf, start, end, false))
            return;
    }
}

static void sequential(pass_state *s, uint64_t *buf, size_t words, size_t off, bool forward)
{
    if (forward) { /* off + 1, ..., words - 1, 0, ..., off */
        if (visit(s, buf, off + 1, words, false))
            visit(s, buf, 0, off + 1, false);
    } else { /* off - 1, ..., 0, words - 1, ..., off */
        if (visit(s, buf, 0, off, true))
            visit(s, buf, off, words, true);
    }
}

void numa_work_pass(uint64_t *buf, size_t words, const numa_access *a, unsigned index, unsigned count,
                    uint64_t loop, uint64_t *value, const volatile int *stop, numa_pass_count *c)
{
    if (words == 0)
        return;
    pass_state s = {.v = *value, .stop = stop, .poll = NUMA_WORK_POLL_WORDS};
    if (a->zero)
        s.op = OP_ZERO;
    else if (a->reads && a->writes)
        s.op = OP_RMW;
    else if (a->reads)
        s.op = OP_READ;
    else if (a->writes)
        s.op = OP_WRITE;
    else
        return; /* nothing asked: nothing touched, nothing counted */

    if (a->zero && !a->random_walk) {
        s.poll = NUMA_WORK_ZERO_POLL_WORDS;
        visit(&s, buf, 0, words, false);
    } else if (a->random_walk) {
        random_walk(&s, buf, words, (uint32_t)(index + loop + *value));
    } else {
        s.perf_loop = !a->tight_loop; /* zeroing took the branch above */
        s.words = words;
        s.reads = (const unsigned char *)&a->reads;
        s.writes = (const unsigned char *)&a->writes;
        size_t share = words / (count ? count : 1);
        size_t off = (size_t)((uint64_t)index * share % words);
        sequential(&s, buf, words, off, !a->backwards || ((index + loop) & 1));
    }

    uint64_t bytes = (uint64_t)s.done * sizeof *buf;
    c->bytes_processed += bytes;
    if (s.op == OP_READ || s.op == OP_RMW)
        c->bytes_read += bytes;
    if (s.op != OP_READ)
        c->bytes_written += bytes;
    if (s.stopped)
        c->stopped = true;
    *value = s.v;
}
