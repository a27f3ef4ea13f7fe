/* SPDX-License-Identifier: MIT */
/* `membench peak-bandwidth`: MLC's peak injection bandwidth, and with --max its
 * max bandwidth. Plan: the traffic threads (all usable CPUs, or --cpus, or one per
 * core), their buffers on their own nodes, the traffic types; run: one phase per
 * type at delay 0 (or -d), or with --max the best over a delay search; one record
 * per type. */
#include "modes/peak_mode.h"

#include <stdio.h>
#include <string.h>

#include "measure/delay_search.h"
#include "measure/spin_delay.h"
#include "output/traffic_sink.h"
#include "modes/traffic_layout.h"

#define SEARCH_DROP 0.10 /* the delay search stops 10% below the best, twice running */

typedef struct {
    traffic_layout layout;
    const traffic_mix *mixes[TRAFFIC_MAX_MIXES];
    int nmixes;
} peak_state;

/* MLC's five, with the NT triad (W10) replaced by W11 where there are no NT stores. */
static int default_mixes(const traffic_options *o, const traffic_mix **out)
{
    static const char *const names[] = {"R", "W3", "W2", "W5", "W10"};
    char why[200];
    traffic_program p;
    int n = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const traffic_mix *m = traffic_mix_find(names[i]);
        if (m->stores == STORE_NONTEMPORAL && !traffic_program_make(&p, m, o->common.kernel_isa, 256, why, sizeof why))
            m = traffic_mix_find("W11");
        out[n++] = m;
    }
    return n;
}

static int peak_plan(session *s)
{
    peak_state *st = s->state;
    const traffic_options *o = s->opts;
    st->nmixes = o->nmixes ? o->nmixes : default_mixes(o, st->mixes);
    if (o->nmixes)
        memcpy(st->mixes, o->mixes, sizeof st->mixes);
    bool r2 = false, w = false;
    traffic_program p;
    for (int i = 0; i < st->nmixes; i++) {
        if (!traffic_layout_program(s, o, st->mixes[i], 0, 0, &p))
            return 2; /* said */
        r2 = r2 || traffic_mix_uses_second_read(st->mixes[i]);
        w = w || traffic_mix_uses_write(st->mixes[i]);
    }
    int rc = traffic_layout_plan(s, o, -1, 1 + r2 + w, &st->layout);
    if (rc)
        return rc;
    param_list *pl = &s->info.plan.values;
    params_textf(pl, "method",
                 "%d traffic thread%s, each %s its own buffers of %llu MiB on its node; %s; samples of %g ms "
                 "after one warm-up window, median reported (the best window beside it)",
                 st->layout.ntraffic, st->layout.ntraffic == 1 ? "" : "s",
                 o->random ? "at random places in (256-byte blocks)" : "streaming",
                 (unsigned long long)(st->layout.buffer_bytes >> 20),
                 o->search_max ? "best over a search of injection delays" : "no injection delay unless -d",
                 o->window_ms);
    params_int(pl, "write_buffers_per_thread", w); /* of buffers_per_thread; the rest are read */
    params_number(pl, "spin_ns_per_iteration", spin_ns_per_iteration());
    params_bool(pl, "max_search", o->search_max);
    params_text(pl, "access", o->random ? "random 256-byte blocks" : "sequential");
    return 0;
}

static void peak_open_sinks(session *s)
{
    const traffic_options *o = s->opts;
    session_add_sink(s, traffic_sink_create(s->env.out, TRAFFIC_SINK_PEAK, o->csv, o->per_thread));
}

typedef struct {
    session *s;
    traffic_run *run;
    const traffic_mix *mix;
    result_record best;
    bool have_best;
    measure_status status;
} probe_ctx;

static measure_status measure_at(session *s, traffic_run *run, const traffic_mix *m, uint64_t delay,
                                 result_record *r)
{
    const traffic_options *o = s->opts;
    peak_state *st = s->state;
    traffic_program prog;
    if (!traffic_layout_program(s, o, m, delay, st->layout.buffer_bytes, &prog))
        return MEASURE_WRONG_RESULT; /* checked in the plan: cannot happen */
    traffic_phase ph = {&prog, delay, o->window_ms / 1000.0, o->samples, o->per_thread};
    result_init(r, "peak-bandwidth", m->name, METRIC_BANDWIDTH);
    measure_status ms = traffic_measure(run, &ph, r);
    if (ms == MEASURE_OK) {
        session_record_placement(&st->layout.where, st->layout.where.n, r);
        params_text(&r->params, "ratio", m->ratio);
        params_text(&r->params, "label", m->label);
        params_text(&r->params, "description", m->description);
    }
    return ms;
}

static double probe(uint64_t delay, void *arg)
{
    probe_ctx *c = arg;
    result_record r;
    c->status = measure_at(c->s, c->run, c->mix, delay, &r);
    if (c->status != MEASURE_OK) {
        result_free(&r);
        return -1;
    }
    double v = result_value(&r);
    if (!c->have_best || v > result_value(&c->best)) {
        if (c->have_best)
            result_free(&c->best);
        result_move(&c->best, &r);
        c->have_best = true;
    }
    result_free(&r);
    return v;
}

/* --max: the search; the best delay's record, with what was tried. */
static measure_status search(session *s, traffic_run *run, const traffic_mix *m, result_record *out)
{
    probe_ctx c = {.s = s, .run = run, .mix = m};
    delay_point tried[DELAY_SEARCH_MAX];
    int ntried = 0;
    int best = delay_search(probe, &c, delay_search_ladder, delay_search_ladder_len, SEARCH_DROP, tried, &ntried);
    if (best < 0 || !c.have_best)
        return c.status == MEASURE_OK ? MEASURE_STOPPED : c.status;
    result_free(out);
    result_move(out, &c.best);
    char text[DELAY_SEARCH_MAX * 24] = "";
    for (int i = 0; i < ntried; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%llu:%.1f", i ? "," : "",
                 (unsigned long long)tried[i].delay, tried[i].mb_s);
    params_text(&out->params, "delays_tried", text);
    params_bool(&out->params, "search_complete", c.status == MEASURE_OK);
    return MEASURE_OK;
}

static void peak_run(session *s)
{
    peak_state *st = s->state;
    const traffic_options *o = s->opts;
    team *t = session_team(s, &st->layout.where, st->layout.where.n);
    if (!t)
        return; /* said */
    bool r2 = false, w = false;
    for (int i = 0; i < st->nmixes; i++) {
        r2 = r2 || traffic_mix_uses_second_read(st->mixes[i]);
        w = w || traffic_mix_uses_write(st->mixes[i]);
    }
    traffic_setup setup = traffic_layout_setup(&st->layout, true, r2, w);
    traffic_run *run = NULL;
    session_progress(s, "allocating and touching the buffers of %d threads", st->layout.ntraffic);
    measure_status ms = traffic_prepare(t, &setup, &run);
    if (ms == MEASURE_NO_MEMORY)
        session_fail(s, "the traffic buffers could not be allocated (%d threads x %llu MiB)", st->layout.ntraffic,
                     (unsigned long long)(st->layout.buffer_bytes >> 20));
    for (int i = 0; ms == MEASURE_OK && i < st->nmixes && !session_stopped(s); i++) {
        session_progress(s, "[%d/%d] %s %s", i + 1, st->nmixes, st->mixes[i]->name, st->mixes[i]->description);
        session_step_begin(s);
        result_record r = {0};
        ms = o->search_max ? search(s, run, st->mixes[i], &r)
                           : measure_at(s, run, st->mixes[i], o->delay_given ? o->delay : 0, &r);
        if (ms == MEASURE_OK)
            session_emit(s, &r);
        result_free(&r);
    }
    traffic_release(run);
    team_destroy(t);
}

static void peak_release(session *s)
{
    peak_state *st = s->state;
    traffic_layout_free(&st->layout);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def peak_mode = {
    .name = "peak-bandwidth",
    .summary = "peak (and with --max, max) injection bandwidth per read:write mix, like MLC",
    .options = &peak_option_table,
    .options_size = sizeof(traffic_options),
    .defaults = peak_options_defaults,
    .check = peak_options_check,
    .state_size = sizeof(peak_state),
    .plan = peak_plan,
    .open_sinks = peak_open_sinks,
    .run = peak_run,
    .release = peak_release,
    .flags = MODE_DRAM_SIZES,
};
