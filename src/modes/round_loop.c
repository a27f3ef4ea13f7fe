/* SPDX-License-Identifier: MIT */
#include "modes/round_loop.h"

#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "modes/round_progress.h"

round_loop_result round_loop_run(session *s, const round_loop *l, double start)
{
    return round_loop_run_budget(s, l, start, 0);
}

round_loop_result round_loop_run_budget(session *s, const round_loop *l, double start, double budget_s)
{
    round_loop_result res = {0, false, false, false};
    size_t *visit = calloc(l->n + 1, sizeof *visit);
    round_point *rps = calloc(l->n + 1, sizeof *rps);
    bool *done = calloc(l->n + 1, sizeof *done);
    double *last_visit_s = calloc(l->n + 1, sizeof *last_visit_s); /* each point's last visit, for the budget */
    bool go_on = visit && rps && done && last_visit_s;
    if (!go_on)
        session_error(s, "out of memory");
    size_t visits_done = 0;
    double limit = params_get_number(&s->info.options, "max_runtime_s", 0); /* -t, from the session's start */
    while (go_on && !session_stopped(s)) {
        for (size_t i = 0; i < l->n; i++) {
            rps[i] = *l->schedule(l->ctx, i);
            rps[i].finished = rps[i].finished || done[i];
        }
        size_t n = round_next(rps, l->n, l->target, visit);
        if (n == 0)
            break;
        if (res.rounds > 0 && l->max_time_s > 0 && clock_now() - start >= l->max_time_s) {
            res.out_of_time = true;
            break;
        }
        double estimate = 0;
        for (size_t v = 0; v < n; v++)
            estimate += last_visit_s[visit[v]];
        bool owed = round_owes_samples(res.rounds + 1, l->planned_rounds, rps, visit, n);
        if (!round_budget_allows(owed, clock_now() - start, estimate, budget_s)) {
            res.over_budget = true;
            break;
        }
        res.rounds++;
        for (size_t v = 0; v < n && go_on && !session_stopped(s); v++) {
            size_t i = visit[v];
            char name[96];
            l->name(l->ctx, i, name, sizeof name);
            double now = clock_now();
            round_progress rp = {res.rounds, l->planned_rounds, l->max_rounds, v, n, visits_done, now - start,
                                 l->max_time_s, limit > 0 ? (limit > now - s->start ? limit - (now - s->start) : 0) : -1};
            char where[128];
            round_progress_text(&rp, where, sizeof where);
            session_progress(s, "%s: [%zu/%zu] %s ...", where, v + 1, n, name);
            session_step_begin(s); /* once per visit: membench-mpi starts every node's visits together */
            host_load before = host_load_read();
            go_on = l->visit(s, l->ctx, i, res.rounds);
            last_visit_s[i] = clock_now() - now;
            visits_done++;
            host_load after = host_load_read();
            host_load_span_add(l->load(l->ctx, i), &before, &after);
            session_between_visits(s); /* the rounds emit at their end: probe the host between visits */
            if (!round_point_wants(l->schedule(l->ctx, i), l->target)) {
                done[i] = true;
                session_burst(s, true); /* a finish may let the points waiting on it out too */
                l->finish(s, l->ctx, i);
                session_burst(s, false);
            }
        }
    }
    res.stopped = !go_on || session_stopped(s);
    params_int(&s->info.plan.values, "rounds", res.rounds);
    if (budget_s > 0) /* whether the budget refused a round some points wanted (their records say which CV missed) */
        params_bool(&s->info.plan.values, "time_budget_cut", res.over_budget);
    session_burst(s, true); /* the points still wanting samples: all their records now */
    for (size_t i = 0; i < l->n; i++)
        if (!done || !done[i])
            l->finish(s, l->ctx, i);
    session_burst(s, false);
    free(visit);
    free(rps);
    free(done);
    free(last_visit_s);
    return res;
}

void round_loop_report(session *s, const round_loop *l, const round_loop_result *res, const char *asked,
                       double target_ci_pct)
{
    size_t short_points = 0;
    for (size_t i = 0; i < l->n; i++) {
        const round_point *p = l->schedule(l->ctx, i);
        if (p->samples > 0 && p->samples < p->needed)
            short_points++;
    }
    if (res->out_of_time && short_points)
        session_warn(s, WARN_ROUNDS_CUT, "--max-time %g s: rounds stopped after %d; %zu point(s) have fewer samples than %s asks",
                     l->max_time_s, res->rounds, short_points, asked);
    if (target_ci_pct <= 0)
        return;
    char missed[1024] = "";
    size_t nmissed = 0, ntotal = 0, shown = 0;
    for (size_t i = 0; i < l->n; i++) {
        const round_point *p = l->schedule(l->ctx, i);
        if (p->samples == 0)
            continue;
        ntotal++;
        if (round_point_within(p, target_ci_pct / 100))
            continue;
        nmissed++;
        size_t len = strlen(missed);
        if (len < sizeof missed - 128) {
            char name[96], pm[32];
            l->name(l->ctx, i, name, sizeof name);
            if (p->half_width >= 0 && p->level < ROUND_TARGET_LEVEL) /* narrow, but not yet at 95% */
                snprintf(pm, sizeof pm, "\xc2\xb1%.1f%% at %.0f%%", 100 * p->half_width, 100 * p->level);
            else if (p->half_width >= 0)
                snprintf(pm, sizeof pm, "\xc2\xb1%.1f%%", 100 * p->half_width);
            else
                snprintf(pm, sizeof pm, "no interval");
            snprintf(missed + len, sizeof missed - len, "%s%s (%s)", len ? ", " : "", name, pm);
            shown++;
        }
    }
    if (nmissed > shown)
        snprintf(missed + strlen(missed), sizeof missed - strlen(missed), ", and %zu more", nmissed - shown);
    param_list *v = &s->info.plan.values;
    params_int(v, "target_ci_figures", (long long)ntotal);
    params_int(v, "target_ci_met_figures", (long long)(ntotal - nmissed));
    params_text(v, "target_ci_missed", nmissed ? missed : "");
    if (nmissed)
        session_warn(s, WARN_TARGET_CI, "--target-ci %g: %zu of %zu figures not within \xc2\xb1%g%% when --max-time %g s ran out: %s",
                     target_ci_pct, nmissed, ntotal, target_ci_pct, l->max_time_s, missed);
    else if (ntotal)
        session_progress(s, "--target-ci %g: all %zu figures within \xc2\xb1%g%%", target_ci_pct, ntotal,
                         target_ci_pct);
}
