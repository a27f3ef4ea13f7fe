/* SPDX-License-Identifier: MIT */
/* The rounds' progress line (modes/round_progress): the round of how many, and an
 * ETA only once it can be estimated. */
#include "modes/round_progress.h"
#include "test.h"

static round_progress at(int round, int planned, int max_rounds, size_t visit, size_t n, size_t done, double elapsed)
{
    round_progress p = {round, planned, max_rounds, visit, n, done, elapsed, 0, -1};
    return p;
}

TEST(round_progress_says_the_round_of_the_planned_ones)
{
    char b[128];
    round_progress p = at(1, 3, 3, 0, 10, 0, 0);
    round_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "round 1/3, ETA --"); /* no round done: no estimate */
    p = at(1, 3, 3, 5, 10, 5, 5); /* visits done, but not a round: still none */
    round_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "round 1/3, ETA --");
    p = at(2, 3, 7, 4, 10, 14, 14);
    round_progress_text(&p, b, sizeof b);
    /* 1 s a visit: 6 left of round 2, 10 of round 3 */
    CHECK_STR(b, "round 2/3 (up to 7), ETA 16 s");
    p = at(5, 3, 7, 0, 2, 30, 60);
    round_progress_text(&p, b, sizeof b);
    /* past the plan: a bound to round 7, 2 visits a round at 2 s */
    CHECK_STR(b, "round 5 (up to 7), ETA <= 12 s");
    p = at(4, 3, 0, 0, 2, 30, 60);
    round_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "round 4 (until --target-ci or --max-time), ETA --");
    p.max_time_s = 100; /* 40 s left, then the round under way: 4 s */
    round_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "round 4 (until --target-ci or --max-time), ETA <= 44 s");
}

TEST(round_progress_eta_is_bounded_by_the_time_limits)
{
    round_progress p = at(2, 10, 10, 0, 100, 100, 100); /* 900 s of planned work left */
    round_eta e = round_progress_eta(&p);
    CHECK_NEAR(e.s, 900, 1e-9);
    CHECK(!e.at_most);
    p.limit_left_s = 30;
    e = round_progress_eta(&p);
    CHECK_NEAR(e.s, 30, 1e-9);
    CHECK(e.at_most);
    p.limit_left_s = -1;
    p.max_time_s = 100; /* passed: this round is the last */
    e = round_progress_eta(&p);
    CHECK_NEAR(e.s, 100, 1e-9);
    char b[128];
    p = at(2, 3, 3, 0, 4000, 4000, 4000);
    round_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "round 2/3, ETA 2 h 13 min");
}
