/* Stopping a run (measure/stop) as the timed loops see it. The defect guarded
 * against: the bandwidth loop checked the -t deadline after every kernel pass, and
 * that check reads the clock, so with -t small buffers measured low. Timed loops
 * must test only the stop flag; the deadline is polled between samples.
 * Nothing here is timed: a probe kernel counts its calls and, at a chosen call,
 * moves the deadline into the past or requests a stop as a signal would. */
#include <signal.h>
#include <string.h>

#include "kernels/kernel_impl.h"
#include "measure/bandwidth.h"
#include "measure/stop.h"
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
    bandwidth_request rq = {&probe, KERNEL_BLOCK, 1, min_sample_s, PAGES_NORMAL, 2 << 20, NULL};
    result_record r;
    memset(&r, 0, sizeof r);
    measure_status st = measure_bandwidth(t, &rq, &r);
    team_destroy(t);
    return st;
}

TEST(stop_flag_ignores_a_passed_deadline_until_it_is_polled)
{
    stop_reset();
    stop_set_deadline(PASSED_DEADLINE);
    CHECK(!stop_flagged()); /* the flag test reads no clock, so it cannot know yet */
    CHECK(!stop_flagged());
    CHECK(stop_requested()); /* the poll reads the clock and raises the flag */
    CHECK(stop_flagged());
    CHECK(stop_deadline_passed());
    CHECK_INT(stop_signal(), 0);
    stop_reset();
    CHECK(!stop_flagged());
    stop_request(SIGTERM); /* a signal raises the flag at once */
    CHECK(stop_flagged());
    CHECK_INT(stop_signal(), SIGTERM);
    CHECK(!stop_deadline_passed());
    stop_reset();
}

TEST(deadline_passing_inside_a_sample_does_not_cut_it_short_but_a_signal_does)
{
    /* The deadline passes at call 2, the first pass of the warm-up sample. A timed
     * loop that checks the deadline stops right there (2 calls); one that tests only
     * the flag runs on until the probe raises the flag at call 1000, and stops after
     * exactly that pass. The 5 s minimum sample makes the warm-up sample far longer
     * than 1000 passes of a kernel that does nothing. */
    probe_reset(2, 1000);
    CHECK_INT(measure_probe(5.0), MEASURE_STOPPED);
    CHECK_INT(probe_calls, 1000);
    CHECK(stop_flagged());
    CHECK_INT(stop_signal(), SIGINT);
    stop_reset();
}

TEST(passed_deadline_stops_measure_bandwidth_within_one_pass)
{
    probe_reset(0, 0);
    stop_set_deadline(PASSED_DEADLINE);
    CHECK_INT(measure_probe(0.002), MEASURE_STOPPED);
    CHECK(probe_calls <= 1);
    CHECK(stop_deadline_passed());
    stop_reset();
}
