/* SPDX-License-Identifier: MIT */
/* Stopping a run (measure/stop) as the loops see it. Promised: a signal or the -t
 * deadline ends every phase promptly (first touch, kernel passes, a pass over a
 * buffer of gigabytes), and timed loops never read the clock to notice it (with -t,
 * a clock read per pass measured small buffers low): the deadline is kept by a
 * watcher thread that raises the flag. Nothing here is timed: a probe kernel
 * counts its calls and, at a chosen call, requests a stop as a signal would. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernels/kernel_impl.h"
#include "measure/clock.h"
#include "measure/bandwidth.h"
#include "measure/stop.h"
#include "memory/buffer.h"
#include "platform/platform.h"
#include "team/team.h"
#include "test.h"

/* Any clock_now() reading is later than this, so it is a deadline already passed. */
#define PASSED_DEADLINE 1e-9

static unsigned long probe_calls;
static unsigned long probe_deadline_at; /* call that moves the deadline into the past; 0 = none */
static unsigned long probe_signal_at;   /* call that requests a stop as SIGINT would; 0 = none */

static uint64_t probe_kernel(const kernel_args *args)
{
    (void)args;
    probe_calls++;
    if (probe_calls == probe_deadline_at)
        stop_set_deadline(PASSED_DEADLINE);
    if (probe_calls == probe_signal_at)
        stop_request(SIGINT);
    return 0;
}

/* Writes one buffer (so the harness allocates one) and is never verified: every
 * measurement here stops before that. */
static const kernel probe = KROW_SWEEP("write", OP_WRITE, "c", STORE_REGULAR, "regular", 0, 1, VERIFY_PATTERN,
                                       probe_kernel);

static void probe_reset(unsigned long deadline_at, unsigned long signal_at)
{
    stop_reset();
    probe_calls = 0;
    probe_deadline_at = deadline_at;
    probe_signal_at = signal_at;
}

static measure_status measure_probe(double min_sample_s)
{
    cpu_list usable;
    platform_usable_cpus(&usable);
    team_place p = {{usable.ids, 1}};
    team *t = team_create(&p, 1, NULL);
    cpu_list_free(&usable);
    bandwidth_request rq = {&probe, KERNEL_BLOCK, 1, min_sample_s, PAGES_NORMAL, 2 << 20, NULL, NULL};
    result_record r;
    memset(&r, 0, sizeof r);
    measure_status st = measure_bandwidth(t, &rq, &r);
    team_destroy(t);
    return st;
}

/* Waits (sleeping, up to 10 s) for the flag, testing only the flag. */
static bool flag_rises(void)
{
    for (int i = 0; i < 1000 && !stop_flagged(); i++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    return stop_flagged();
}

TEST(a_deadline_raises_the_flag_without_anyone_polling)
{
    stop_reset();
    stop_set_deadline(PASSED_DEADLINE); /* already passed: raised at once */
    CHECK(stop_flagged());
    CHECK(stop_deadline_passed());
    CHECK_INT(stop_signal(), 0);
    stop_reset();
    CHECK(!stop_flagged());
    CHECK(!stop_deadline_passed());
    stop_set_deadline(clock_now() + 0.02); /* the watcher raises it; no poll here */
    CHECK(flag_rises());
    CHECK(stop_deadline_passed());
    CHECK_INT(stop_signal(), 0);
    stop_reset();
    stop_request(SIGTERM); /* a signal raises the flag at once */
    CHECK(stop_flagged());
    CHECK_INT(stop_signal(), SIGTERM);
    CHECK(!stop_deadline_passed());
    stop_reset();
}

TEST(reset_and_disarm_end_a_pending_deadline)
{
    /* a run that ends before its -t must not be marked cut short afterwards, and
     * the next run in the same process must not inherit the deadline */
    stop_reset();
    stop_set_deadline(clock_now() + 0.05);
    stop_reset();
    nanosleep(&(struct timespec){0, 300 * 1000 * 1000}, NULL);
    CHECK(!stop_flagged());
    CHECK(!stop_deadline_passed());
    stop_set_deadline(clock_now() + 0.05);
    stop_disarm();
    nanosleep(&(struct timespec){0, 300 * 1000 * 1000}, NULL);
    CHECK(!stop_flagged());
    stop_set_deadline(clock_now() + 3600); /* a later deadline replaces an earlier one */
    stop_set_deadline(clock_now() + 0.02);
    CHECK(flag_rises());
    stop_reset();
}

TEST(a_signal_cuts_a_sample_within_one_pass)
{
    /* The probe raises the flag at call 1000, inside the warm-up sample (5 s
     * minimum: far longer than 1000 passes of a kernel that does nothing); the
     * timed loop stops after exactly that pass. */
    probe_reset(0, 1000);
    CHECK_INT(measure_probe(5.0), MEASURE_STOPPED);
    CHECK_INT(probe_calls, 1000);
    CHECK(stop_flagged());
    CHECK_INT(stop_signal(), SIGINT);
    stop_reset();
}

TEST(a_stop_before_the_first_pass_ends_in_first_touch)
{
    probe_reset(0, 0);
    stop_set_deadline(PASSED_DEADLINE);
    CHECK_INT(measure_probe(0.002), MEASURE_STOPPED);
    CHECK_INT(probe_calls, 0);
    CHECK(stop_deadline_passed());
    stop_reset();
}

TEST(buffer_fill_stops_on_the_flag)
{
    buffer b;
    CHECK(buffer_alloc(&b, 16 << 20, PAGES_NORMAL, 2 << 20, -1));
    stop_reset();
    stop_request(SIGINT);
    CHECK(!buffer_fill(&b, 7));
    CHECK(((const uint64_t *)b.ptr)[0] == 0); /* nothing written: a fresh mapping is zero */
    stop_reset();
    CHECK(buffer_fill(&b, 7));
    CHECK(((const uint64_t *)b.ptr)[(16 << 20) / 8 - 1] == pattern_word(7, (16 << 20) / 8 - 1));
    buffer_free(&b);
}

/* Records each slice kernel_pass hands the kernel; raises the flag at slice_stop. */
enum { MAX_SLICES = 64 };
static kernel_args slices[MAX_SLICES];
static int nslices, slice_stop;

static uint64_t slice_probe(const kernel_args *args)
{
    if (nslices < MAX_SLICES)
        slices[nslices] = *args;
    if (++nslices == slice_stop)
        stop_request(SIGINT);
    return (uint64_t)1 << nslices;
}

TEST(kernel_pass_slices_a_large_pass_and_stops_between_slices)
{
    static const kernel k = KROW_SWEEP("copy", OP_COPY, "c", STORE_REGULAR, "regular", 1, 1, VERIFY_EQUALS_SOURCE,
                                       slice_probe);
    /* addresses only: the probe touches nothing */
    char *out = (char *)(uintptr_t)0x100000000ULL, *in = (char *)(uintptr_t)0x900000000ULL;
    size_t bytes = 5 * KERNEL_SLICE_BYTES + 4096;
    kernel_args a = {.out = out, .in = {in, NULL}, .bytes = bytes, .pattern = 3};
    stop_reset();
    nslices = 0;
    slice_stop = 0;
    CHECK(kernel_pass(&k, &a) == 0x7e); /* XOR of the six slices' results */
    CHECK_INT(nslices, 6);
    size_t covered = 0;
    for (int i = 0; i < 6; i++) {
        CHECK(slices[i].out == out + covered && slices[i].in[0] == in + covered);
        CHECK(slices[i].in[1] == NULL && slices[i].pattern == 3);
        covered += slices[i].bytes;
    }
    CHECK(covered == bytes);
    CHECK(slices[5].bytes == 4096);
    nslices = 0;
    slice_stop = 2;
    kernel_pass(&k, &a);
    CHECK_INT(nslices, 2);
    stop_reset();
    /* a pass of up to two slices is one call, as before */
    nslices = 0;
    a.bytes = 2 * KERNEL_SLICE_BYTES;
    kernel_pass(&k, &a);
    CHECK_INT(nslices, 1);
    CHECK(slices[0].bytes == a.bytes);
}

TEST(a_closed_output_pipe_stops_as_sigpipe_between_samples_and_in_untimed_loops)
{
    /* `membench | head`: head gone, no write yet. The look is rate-limited: the
     * first poll after arming looks at once, later ones at most every
     * STOP_OUTPUT_CHECK_S, so the test waits that long between its polls. */
    int fds[2];
    CHECK(pipe(fds) == 0);
    CHECK(platform_output_is_pipe(fds[1]));
    CHECK(!platform_output_reader_gone(fds[1]));
    stop_reset();
    stop_watch_output(fds[1]);
    CHECK(!stop_requested()); /* the reader is there */
    CHECK(!stop_poll());
    close(fds[0]);
    CHECK(platform_output_reader_gone(fds[1]));
    nanosleep(&(struct timespec){0, (long)(STOP_OUTPUT_CHECK_S * 1.5e9)}, NULL);
    CHECK(stop_poll()); /* the loops below measure/ (first touch, chains) see it too */
    CHECK(stop_flagged());
    CHECK_INT(stop_signal(), SIGPIPE);
    stop_reset();
    CHECK(!stop_poll()); /* reset: no output watched */
    stop_watch_output(fds[1]);
    CHECK(stop_requested());
    CHECK_INT(stop_signal(), SIGPIPE);
    stop_reset();
    close(fds[1]);
    /* a file, or no stdout at all, is never watched */
    stop_watch_output(-1);
    CHECK(!stop_check_output());
    CHECK(!stop_requested());
    CHECK(!platform_output_is_pipe(-1));
}
