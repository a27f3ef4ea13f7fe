/* SPDX-License-Identifier: MIT */
#include "output/traffic_sink.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    sink base;
    FILE *f;
    traffic_sink_kind kind;
    bool csv, per_thread;
} traffic_sink;

static double num(const result_record *r, const char *key)
{
    return params_get_number(&r->params, key, 0);
}

static const char *text(const result_record *r, const char *key)
{
    const char *t = params_get_text(&r->params, key);
    return t ? t : "";
}

static void begin(sink *s, const run_info *info)
{
    traffic_sink *k = (traffic_sink *)s;
    if (k->csv) {
        fputs(k->kind == TRAFFIC_SINK_PEAK ? PEAK_CSV_HEADER "\n" : LOADED_CSV_HEADER "\n", k->f);
        fflush(k->f);
        return;
    }
    fprintf(k->f, "# membench %s: %s\n", info->mode, params_get_text(&info->plan.values, "method"));
    fprintf(k->f, "# MB/s = 10^6 bytes/s. App: bytes the program loads and stores (what MLC prints). DRAM: plus one\n"
                  "# write-allocate read per line written with regular stores (a model, not a counter).\n");
    if (k->kind == TRAFFIC_SINK_PEAK)
        fprintf(k->f, "# App and DRAM: the median window; Best window: the fastest one, which a shared host's idle\n"
                      "# moments inflate.\n");
    if (k->kind == TRAFFIC_SINK_PEAK)
        fprintf(k->f, "%-7s %-5s %-14s %7s %12s %12s %12s %6s\n", "Traffic", "R:W", "Stores", "Delay", "App MB/s",
                "DRAM MB/s", "Best window", "CV");
    else
        fprintf(k->f, "%-7s %8s %10s %12s %12s %8s\n%-7s %8s %10s %12s %12s %8s\n%s\n", "Inject", "Delay", "Latency",
                "Bandwidth", "DRAM", "Samples", "Delay", "(ns)", "(ns)", "App MB/s", "MB/s", "",
                "=====================================================================");
    fflush(k->f);
}

static void per_thread_lines(const traffic_sink *k, const result_record *r)
{
    for (int i = 0; i < r->threads; i++) {
        char key[32];
        snprintf(key, sizeof key, "thread_%d_mb_s", i);
        const param *p = params_find(&r->params, key);
        if (p)
            fprintf(k->f, "    thread %d (CPU %d, memory node %d): %.1f MB/s\n", i,
                    r->placement ? r->placement[i].cpu : -1, r->placement ? r->placement[i].mem_node : -1,
                    params_get_number(&r->params, key, 0));
    }
}

static void peak_row(const traffic_sink *k, const result_record *r)
{
    double headline = result_value(r); /* the median window */
    if (k->csv) {
        fprintf(k->f, "%s,%s,%s,%.0f,%.1f,%.0f,%.1f,%.1f,%.1f,%.4f,%d\n", r->operation, text(r, "ratio"),
                r->kernel_store, num(r, "delay"), num(r, "delay_ns"), num(r, "traffic_threads"), headline,
                num(r, "dram_mb_s"), r->summary.max, r->summary.cv, r->nsamples);
        return;
    }
    fprintf(k->f, "%-7s %-5s %-14s %7.0f %12.1f %12.1f %12.1f %5.1f%%  %s\n", r->operation, text(r, "ratio"),
            r->kernel_store, num(r, "delay"), headline, num(r, "dram_mb_s"), r->summary.max, r->summary.cv * 100,
            text(r, "description"));
    if (params_find(&r->params, "delays_tried"))
        fprintf(k->f, "    delays tried (delay:MB/s): %s\n", text(r, "delays_tried"));
}

static void loaded_row(const traffic_sink *k, const result_record *r)
{
    bool idle = strcmp(text(r, "traffic"), "none") == 0;
    if (k->csv) {
        char delay[24] = "";
        if (!idle)
            snprintf(delay, sizeof delay, "%.0f", num(r, "delay"));
        fprintf(k->f, "%s,%s,%.1f,%.2f,%.2f,%d,%.1f,%.1f,%.0f\n", text(r, "traffic"), delay, num(r, "delay_ns"),
                r->summary.median, r->summary.stddev, r->nsamples, num(r, "bandwidth_mb_s"),
                num(r, "dram_bandwidth_mb_s"), num(r, "traffic_threads"));
        return;
    }
    char delay[16] = "idle";
    if (!idle)
        snprintf(delay, sizeof delay, "%05.0f", num(r, "delay"));
    fprintf(k->f, "%-7s %8.1f %10.2f %12.1f %12.1f %8d\n", delay, num(r, "delay_ns"), r->summary.median,
            num(r, "bandwidth_mb_s"), num(r, "dram_bandwidth_mb_s"), r->nsamples);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    traffic_sink *k = (traffic_sink *)s;
    if (k->kind == TRAFFIC_SINK_PEAK)
        peak_row(k, r);
    else
        loaded_row(k, r);
    if (k->per_thread && !k->csv)
        per_thread_lines(k, r);
    fflush(k->f);
}

static void end(sink *s, const run_info *info)
{
    traffic_sink *k = (traffic_sink *)s;
    const param_list *a = &info->analysis.values;
    if (k->csv || k->kind != TRAFFIC_SINK_LOADED || !params_find(a, "peak_bandwidth_mb_s"))
        return;
    fprintf(k->f, "\n");
    if (params_find(a, "idle_latency_ns"))
        fprintf(k->f, "Idle latency: %.2f ns\n", params_get_number(a, "idle_latency_ns", 0));
    fprintf(k->f, "Peak bandwidth: %.1f MB/s at delay %.0f, latency %.2f ns\n",
            params_get_number(a, "peak_bandwidth_mb_s", 0), params_get_number(a, "peak_delay", 0),
            params_get_number(a, "peak_latency_ns", 0));
    const param *back = params_find(a, "back_to_idle");
    if (back && back->kind == PARAM_BOOL)
        fprintf(k->f, "At the largest delay (%.0f): %.2f ns, %s\n", params_get_number(a, "largest_delay", 0),
                params_get_number(a, "largest_delay_latency_ns", 0),
                back->flag ? "back at idle (within 10% of it, the intervals meeting)" : "NOT back at idle");
    if (params_get_number(a, "below_idle_count", 0) > 0)
        fprintf(k->f, "Below idle by more than 10%% (delay:ns, a host phase, not the traffic): %s\n",
                params_get_text(a, "below_idle_delays"));
    if (params_get_number(a, "out_of_order_count", 0) > 0)
        fprintf(k->f, "Out of order (a larger delay with more bandwidth or higher latency): %s\n",
                params_get_text(a, "out_of_order_delays"));
    if (params_find(a, "knee_note"))
        fprintf(k->f, "No knee: %s\n", params_get_text(a, "knee_note"));
    if (params_find(a, "knee_bandwidth_mb_s"))
        fprintf(k->f, "The curve bends at %.1f MB/s (delay %.0f, latency %.2f ns): beyond it latency climbs fast\n",
                params_get_number(a, "knee_bandwidth_mb_s", 0), params_get_number(a, "knee_delay", 0),
                params_get_number(a, "knee_latency_ns", 0));
    fflush(k->f);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *traffic_sink_create(FILE *f, traffic_sink_kind kind, bool csv, bool per_thread)
{
    traffic_sink *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->base.ops = &ops;
    k->f = f;
    k->kind = kind;
    k->csv = csv;
    k->per_thread = per_thread;
    return &k->base;
}
