/* SPDX-License-Identifier: MIT */
/* `membench loaded-latency`: MLC's loaded latency. Plan: the chaser's CPU (-c, or
 * the first usable), the traffic threads on the other CPUs but the chaser's core,
 * buffers on each thread's node, the delays; run: one idle phase (traffic quiet),
 * then one phase per delay, each a record of latency samples with the bandwidth of
 * the same window; analysis: idle latency, peak bandwidth, and the knee. */
#include "modes/loaded_latency_mode.h"

#include <stdlib.h>
#include <string.h>

#include "measure/curve_knee.h"
#include "measure/loaded_curve.h"
#include "measure/spin_delay.h"
#include "modes/traffic_layout.h"
#include "output/traffic_sink.h"

typedef struct {
    traffic_layout layout;
    const traffic_mix *mix;
    const uint64_t *delays;
    int ndelays;
    int chaser_cpu;
} loaded_state;

static int loaded_plan(session *s)
{
    loaded_state *st = s->state;
    const traffic_options *o = s->opts;
    st->mix = o->nmixes ? o->mixes[0] : traffic_mix_find("R");
    st->delays = o->ndelays ? o->delays : traffic_default_delays;
    st->ndelays = o->ndelays ? o->ndelays : traffic_default_ndelays;
    st->chaser_cpu = o->latency_cpu_given ? o->latency_cpu : s->topo.usable.ids[0];
    const cpu_info *c = topology_cpu(&s->topo, st->chaser_cpu);
    if (!c || !c->usable)
        return session_bad_input(s, "--latency-cpu %d: not available to this process", st->chaser_cpu);
    traffic_program p;
    if (!traffic_layout_program(s, o, st->mix, 0, 0, &p))
        return 2; /* said */
    int buffers = 1 + traffic_mix_uses_second_read(st->mix) + traffic_mix_uses_write(st->mix);
    int rc = traffic_layout_plan(s, o, st->chaser_cpu, buffers, &st->layout);
    if (rc)
        return rc;
    size_t line = (size_t)topology_cache_level(&s->topo, 1).line_size;
    if (o->chase_range) { /* MLC's -D: each range's lines in random order, then the next range */
        if (o->chase_range % line)
            return session_bad_input(s, "--chase-range %llu: not a whole number of %zu-byte cache lines",
                                     (unsigned long long)o->chase_range, line);
        if (o->chase_range > st->layout.chase_bytes)
            return session_bad_input(s, "--chase-range %llu: larger than the chased buffer (%llu bytes)",
                                     (unsigned long long)o->chase_range, (unsigned long long)st->layout.chase_bytes);
        st->layout.chase_bytes -= st->layout.chase_bytes % o->chase_range;
        params_int(&s->info.plan.values, "chase_bytes", (long long)st->layout.chase_bytes);
    } else if (st->layout.chase_bytes > CHASE_TLB_GROUP_BYTES) {
        /* the idle latency's order (latency-matrix, MLC's idle line): whole groups */
        st->layout.chase_bytes -= st->layout.chase_bytes % CHASE_TLB_GROUP_BYTES;
        params_int(&s->info.plan.values, "chase_bytes", (long long)st->layout.chase_bytes);
    }
    param_list *pl = &s->info.plan.values;
    params_textf(pl, "method",
                 "%s chase of %llu MiB on CPU %d (node %d) while %d thread%s %s%s traffic (%s); %d delays; "
                 "latency median of %d samples, bandwidth over the same window",
                 o->chase_range ? "range-local random" : "TLB-local random (multichase's order)",
                 (unsigned long long)(st->layout.chase_bytes >> 20), st->chaser_cpu, c->node, st->layout.ntraffic,
                 st->layout.ntraffic == 1 ? " makes" : "s make", o->random ? "random-access " : "", st->mix->name,
                 st->mix->description, st->ndelays, o->samples);
    params_int(pl, "latency_cpu", st->chaser_cpu);
    params_int(pl, "chase_range_bytes", (long long)o->chase_range); /* 0: multichase's order, as below */
    params_text(pl, "chase_order", chase_order_key(o->chase_range ? CHASE_PAGE_LOCAL : CHASE_TLB_LOCAL));
    params_int(pl, "write_buffers_per_thread", traffic_mix_uses_write(st->mix)); /* of buffers_per_thread */
    params_text(pl, "traffic", st->mix->name);
    params_text(pl, "access", o->random ? "random 256-byte blocks" : "sequential");
    params_number(pl, "spin_ns_per_iteration", spin_ns_per_iteration());
    param_table *dt = section_table(&s->info.plan, "delays");
    for (int i = 0; i < st->ndelays; i++) {
        param_list *row = table_add_row(dt);
        params_int(row, "delay", (long long)st->delays[i]);
        params_number(row, "delay_ns", (double)st->delays[i] * spin_ns_per_iteration());
    }
    return 0;
}

static void loaded_open_sinks(session *s)
{
    const traffic_options *o = s->opts;
    session_add_sink(s, traffic_sink_create(s->env.out, TRAFFIC_SINK_LOADED, o->csv, o->per_thread));
}

/* One phase: prog NULL is the idle phase (traffic quiet). */
static measure_status phase(session *s, traffic_run *run, const traffic_program *prog, uint64_t delay)
{
    loaded_state *st = s->state;
    const traffic_options *o = s->opts;
    traffic_phase ph = {prog, delay, 0, o->samples, o->per_thread};
    result_record r;
    result_init(&r, "loaded-latency", prog ? "loaded-latency" : "idle-latency", METRIC_LATENCY);
    measure_status ms = traffic_measure(run, &ph, &r);
    if (ms == MEASURE_OK) {
        session_record_placement(&st->layout.where, st->layout.where.n, &r);
        session_emit(s, &r);
    }
    result_free(&r);
    return ms;
}

static void loaded_run(session *s)
{
    loaded_state *st = s->state;
    const traffic_options *o = s->opts;
    team *t = session_team(s, &st->layout.where, st->layout.where.n);
    if (!t)
        return; /* said */
    traffic_setup setup = traffic_layout_setup(&st->layout, true, traffic_mix_uses_second_read(st->mix),
                                               traffic_mix_uses_write(st->mix));
    size_t line = (size_t)topology_cache_level(&s->topo, 1).line_size;
    setup.layout = o->chase_range ? (chase_layout){CHASE_PAGE_LOCAL, line, (size_t)o->chase_range, o->seed, 0}
                                  : (chase_layout){CHASE_TLB_LOCAL, line, CHASE_TLB_GROUP_BYTES, o->seed, CHASE_TLB_SPREAD};
    if (!o->chase_range && st->layout.chase_bytes <= CHASE_TLB_GROUP_BYTES)
        setup.layout.page_bytes = st->layout.chase_bytes; /* one group: random over all of it */
    setup.chase_sample_s = o->sample_ms / 1000.0;
    traffic_run *run = NULL;
    session_progress(s, "allocating the chase chain and the buffers of %d traffic threads", st->layout.ntraffic);
    measure_status ms = traffic_prepare(t, &setup, &run);
    if (ms == MEASURE_NO_MEMORY)
        session_fail(s, "the chase or traffic buffers could not be allocated (%d threads x %llu MiB, chase %llu MiB)",
                     st->layout.ntraffic, (unsigned long long)(st->layout.buffer_bytes >> 20),
                     (unsigned long long)(st->layout.chase_bytes >> 20));
    if (ms == MEASURE_OK) {
        session_step_begin(s); /* the idle chase is a step too */
        ms = phase(s, run, NULL, 0);
    }
    for (int i = 0; ms == MEASURE_OK && i < st->ndelays && !session_stopped(s); i++) {
        session_progress(s, "[%d/%d] delay %llu", i + 1, st->ndelays, (unsigned long long)st->delays[i]);
        session_step_begin(s);
        traffic_program prog;
        if (!traffic_layout_program(s, o, st->mix, st->delays[i], st->layout.buffer_bytes, &prog))
            break; /* checked in the plan */
        ms = phase(s, run, &prog, st->delays[i]);
    }
    traffic_release(run);
    team_destroy(t);
}

static int by_delay(const void *a, const void *b)
{
    double x = ((const loaded_point *)a)->delay, y = ((const loaded_point *)b)->delay;
    return (x > y) - (x < y);
}

/* The curve's shape: back to idle at the largest delay, points out of order. */
static void check_curve(session *s, const loaded_point *pts, int m, const result_record *idle)
{
    param_list *a = &s->info.analysis.values;
    loaded_point *sorted = malloc((size_t)m * sizeof *sorted);
    int *flags = malloc((size_t)m * sizeof *flags);
    if (!sorted || !flags) {
        free(sorted);
        free(flags);
        return;
    }
    memcpy(sorted, pts, (size_t)m * sizeof *sorted);
    qsort(sorted, (size_t)m, sizeof *sorted, by_delay);
    const loaded_point *last = &sorted[m - 1];
    if (idle) {
        double idle_ns = idle->summary.median;
        bool back = loaded_back_to_idle(last, idle_ns, idle->summary.median_low, idle->summary.median_high);
        params_number(a, "largest_delay", last->delay);
        params_number(a, "largest_delay_latency_ns", last->latency_ns);
        params_bool(a, "back_to_idle", back);
        params_number(a, "idle_tolerance", LOADED_IDLE_TOLERANCE);
        if (!back)
            session_warn(s, WARN_LOADED_CURVE, "at the largest delay (%.0f, %.1f MB/s of traffic) latency is %.1f ns (%+.0f%%), "
                            "not back at idle (%.1f ns \xc2\xb1%.0f%%, interval %.1f-%.1f): the traffic still loads the "
                            "memory or the host moved; add larger delays (--delays) or re-run",
                         last->delay, last->bandwidth_mb_s, last->latency_ns, (last->latency_ns / idle_ns - 1) * 100,
                         idle_ns, LOADED_IDLE_TOLERANCE * 100, idle->summary.median_low, idle->summary.median_high);
        char below[512] = "";
        int nbelow = 0;
        for (int i = 0; i < m; i++)
            if (loaded_below_idle(&sorted[i], idle_ns)) {
                snprintf(below + strlen(below), sizeof below - strlen(below), "%s%.0f:%.1f", below[0] ? "," : "",
                         sorted[i].delay, sorted[i].latency_ns);
                nbelow++;
            }
        params_int(a, "below_idle_count", nbelow);
        params_text(a, "below_idle_delays", below);
        if (nbelow)
            session_warn(s, WARN_LOADED_CURVE, "latency under load below idle (%.1f ns) by more than %.0f%% at %d delay%s "
                            "(delay:ns %s): traffic cannot speed a chase up, so the idle figure or these caught "
                            "another phase of the host; re-run",
                         idle_ns, LOADED_IDLE_TOLERANCE * 100, nbelow, nbelow == 1 ? "" : "s", below);
    }
    int flagged = loaded_out_of_order(sorted, m, flags);
    char list[512] = "";
    for (int i = 0; i < m; i++)
        if (flags[i])
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.0f:%s", list[0] ? "," : "", sorted[i].delay,
                     flags[i] == 3 ? "bandwidth+latency" : flags[i] == 1 ? "bandwidth" : "latency");
    params_int(a, "out_of_order_count", flagged);
    params_text(a, "out_of_order_delays", list);
    if (flagged)
        session_warn(s, WARN_LOADED_CURVE, "%d delay%s broke the curve's order (a larger delay gave more bandwidth or a higher latency "
                        "than the one before: a host phase or a neighbour): %s",
                     flagged, flagged == 1 ? "" : "s", list);
    free(sorted);
    free(flags);
}

static void loaded_analyse(session *s)
{
    size_t n = s->results.n;
    double *bw = calloc(n ? n : 1, sizeof *bw), *lat = calloc(n ? n : 1, sizeof *lat);
    int *at = calloc(n ? n : 1, sizeof *at);
    loaded_point *pts = calloc(n ? n : 1, sizeof *pts);
    param_list *a = &s->info.analysis.values;
    const result_record *idle = NULL;
    int m = 0, peak = -1;
    for (size_t i = 0; bw && lat && at && pts && i < n; i++) {
        const result_record *r = &s->results.items[i];
        if (strcmp(r->operation, "idle-latency") == 0) {
            params_number(a, "idle_latency_ns", result_value(r));
            idle = r;
            continue;
        }
        bw[m] = params_get_number(&r->params, "bandwidth_mb_s", 0);
        lat[m] = result_value(r);
        at[m] = (int)i;
        pts[m] = (loaded_point){params_get_number(&r->params, "delay", 0), bw[m], lat[m], r->summary.median_low,
                                r->summary.median_high};
        if (peak < 0 || bw[m] > bw[peak])
            peak = m;
        m++;
    }
    if (peak >= 0) {
        const result_record *r = &s->results.items[at[peak]];
        params_number(a, "peak_bandwidth_mb_s", bw[peak]);
        params_number(a, "peak_delay", params_get_number(&r->params, "delay", 0));
        params_number(a, "peak_latency_ns", lat[peak]);
    }
    int knee = bw && lat ? curve_knee(bw, lat, m) : -1;
    /* stated only where latency beyond it rises clear of the intervals, idle's too */
    if (knee >= 0 && loaded_knee_significant(pts, m, knee, idle ? idle->summary.median_high : 0)) {
        const result_record *r = &s->results.items[at[knee]];
        params_number(a, "knee_bandwidth_mb_s", bw[knee]);
        params_number(a, "knee_delay", params_get_number(&r->params, "delay", 0));
        params_number(a, "knee_latency_ns", lat[knee]);
    } else if (knee >= 0) {
        params_text(a, "knee_note", "no bend stands out of the intervals: no point of more bandwidth has a latency "
                                    "interval above the candidate's and idle's");
    }
    if (m > 0 && pts)
        check_curve(s, pts, m, idle);
    free(bw);
    free(lat);
    free(at);
    free(pts);
}

static void loaded_release(session *s)
{
    loaded_state *st = s->state;
    traffic_layout_free(&st->layout);
}

/* The cache probe's auto setting: nothing to decide once the sizes are given. */

const mode_def loaded_latency_mode = {
    .name = "loaded-latency",
    .summary = "latency of a chasing thread under traffic at each injection delay, like MLC",
    .options = &loaded_latency_option_table,
    .options_size = sizeof(traffic_options),
    .defaults = loaded_latency_options_defaults,
    .check = loaded_latency_options_check,
    .state_size = sizeof(loaded_state),
    .plan = loaded_plan,
    .open_sinks = loaded_open_sinks,
    .run = loaded_run,
    .analyse = loaded_analyse,
    .release = loaded_release,
    .flags = MODE_DRAM_SIZES,
};
