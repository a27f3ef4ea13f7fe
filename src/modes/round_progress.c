/* SPDX-License-Identifier: MIT */
#include "modes/round_progress.h"

#include <stdio.h>

round_eta round_progress_eta(const round_progress *p)
{
    round_eta e = {-1, false};
    if (p->round <= 1 || p->done_visits == 0)
        return e; /* no round done: nothing to scale from */
    double per = p->elapsed_s / (double)p->done_visits;
    double round_s = (double)p->nvisits * per;
    double this_left = (double)(p->nvisits - p->visit) * per;
    int last = p->round <= p->planned ? p->planned : p->max_rounds;
    if (last >= p->round) {
        e.s = this_left + (double)(last - p->round) * round_s;
        e.at_most = p->round > p->planned;
    }
    if (p->max_time_s > 0) { /* the round under way when it passes is the last */
        double left = p->max_time_s - p->elapsed_s;
        double bound = left <= this_left ? this_left : left + round_s;
        if (e.s < 0 || bound < e.s)
            e = (round_eta){bound, true};
    }
    if (p->limit_left_s >= 0 && (e.s < 0 || p->limit_left_s < e.s))
        e = (round_eta){p->limit_left_s, true};
    return e;
}

static void duration(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, len, "%ld s", t);
    else if (t < 3600)
        snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
    else
        snprintf(buf, len, "%ld h %02ld min", t / 3600, t / 60 % 60);
}

void round_progress_text(const round_progress *p, char *buf, size_t len)
{
    int n = 0;
    if (p->round <= p->planned)
        n = snprintf(buf, len, "round %d/%d", p->round, p->planned);
    else
        n = snprintf(buf, len, "round %d", p->round);
    if (n < 0 || (size_t)n >= len)
        return;
    if (p->max_rounds > p->planned)
        n += snprintf(buf + n, len - (size_t)n, " (up to %d)", p->max_rounds);
    else if (p->max_rounds == 0)
        n += snprintf(buf + n, len - (size_t)n, " (%s --target-ci or --max-time)",
                      p->round <= p->planned ? "then more until" : "until");
    if (n < 0 || (size_t)n >= len)
        return;
    round_eta e = round_progress_eta(p);
    char d[32] = "--";
    if (e.s >= 0)
        duration(e.s, d, sizeof d);
    snprintf(buf + n, len - (size_t)n, ", ETA %s%s", e.s >= 0 && e.at_most ? "<= " : "", d);
}
