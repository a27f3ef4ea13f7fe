/* SPDX-License-Identifier: MIT */
#include "output/table_sink.h"

#include <stdlib.h>
#include <string.h>

#include "output/format.h"

#define RULE_EQ "================================================================================\n"
#define RULE_DASH "--------------------------------------------------------------------------------\n"

void table_write_header(FILE *f)
{
    fprintf(f, "\n%-10s %-8s %12s %12s %8s %12s  %s\n", "Size", "Op", "Bandwidth", "Latency", "Threads", "Median",
            "Interval (level)");
    fprintf(f, "%-10s %-8s %12s %12s %8s %12s  %s\n", "----", "--", "---------", "-------", "-------", "------",
            "----------------");
}

/* The last two columns are ours: the median of the samples and its interval, each
 * side and the level it really has ("-6/+31% (75%)": 3 rounds give [min, max] of
 * their medians). The Bandwidth column is sc-membench's best sample. */
void table_write_record(FILE *f, const result_record *r)
{
    char size[32], rate[32], median[32], pm[48];
    const sample_stats *st = &r->summary;
    format_size_kb(r->size_bytes / 1024, size, sizeof size);
    format_interval_level(st, pm, sizeof pm);
    if (r->metric == METRIC_LATENCY) {
        snprintf(median, sizeof median, "%.1f ns", st->median);
        fprintf(f, "%-10s %-8s %12s %9.1f ns %8d %12s  %s\n", size, r->operation, "-", result_value(r), r->threads,
                median, pm);
    } else {
        fprintf(f, "%-10s %-8s %12s %12s %8d %12s  %s\n", size, r->operation,
                format_rate_mb_s(result_value(r), rate, sizeof rate), "-", r->threads,
                format_rate_mb_s(st->median, median, sizeof median), pm);
    }
}

static void op_line(FILE *f, const char *name, const op_summary *o)
{
    if (o->count > 0)
        fprintf(f, "  %-19s %12.0f %12.0f %12.0f\n", name, o->peak_mb_s, o->weighted_avg_mb_s, o->peak_median_mb_s);
}

void table_write_summary(FILE *f, const run_summary *s, const comparability *c)
{
    fprintf(f, "\n" RULE_EQ "                           BENCHMARK SUMMARY\n" RULE_EQ "\n");
    fprintf(f, "BANDWIDTH (MB/s):\n");
    fprintf(f, "  %-19s %12s %12s %12s\n", "Operation", "Peak", "Weighted Avg", "Peak median");
    fprintf(f, "  %-19s %12s %12s %12s\n", "---------", "----", "------------", "-----------");
    op_line(f, "Read", &s->read);
    op_line(f, "Write", &s->write);
    op_line(f, "Copy (counted once)", &s->copy); /* sc-membench's counting; STREAM's Copy counts twice */
    if (s->read.count + s->write.count + s->copy.count > 0) {
        /* sc-membench's Peak is a best sample, so it rises with -r; say so. */
        if (c->rounds > 0)
            fprintf(f, "\n  Samples: %s%d per point, taken in %d rounds%s (each round visits every size and operation once).",
                    c->more_rounds ? "at least " : "", c->rounds, c->rounds,
                    c->more_rounds ? " and more for --target-ci" : "");
        fprintf(f, "\n  Peak: the best of -r samples at any size (more tries, higher peak);\n"
                   "  Peak median: the highest per-size median of the samples (does not grow with -r).\n");
        /* Ours: the peaks come from L1; the largest size is what RAM delivers. */
        fprintf(f, "\n  Largest size (%llu KB per thread):", (unsigned long long)(s->largest_bw_size / 1024));
        if (s->read.count)
            fprintf(f, " read %.0f", s->read.largest_mb_s);
        if (s->write.count)
            fprintf(f, " write %.0f", s->write.largest_mb_s);
        if (s->copy.count)
            fprintf(f, " copy (counted once) %.0f", s->copy.largest_mb_s);
        fprintf(f, " MB/s\n");
    }
    if (s->latency_count > 0 && s->latency_ns > 0) {
        const char *note = s->largest_size < 1024ULL * 1024ULL           ? " (L2/L3 cache)"
                           : s->largest_size < 64ULL * 1024ULL * 1024ULL ? " (L3 cache/RAM)"
                                                                         : " (RAM)";
        fprintf(f, "\nLATENCY:\n  Best latency: %.1f ns%s at %llu KB buffer\n", s->latency_ns, note,
                (unsigned long long)(s->largest_size / 1024));
        if (c->latency_below_target > 0)
            fprintf(f, "  Note: %d latency point(s) did not reach CV < 5%% (see -v or --json)\n",
                    c->latency_below_target);
    }
    fprintf(f, "\n" RULE_DASH "BENCHMARK SCORE (higher is better):\n\n");
    if (s->bandwidth_score > 0)
        fprintf(f, "  Bandwidth Score:    %8.1f  (avg peak bandwidth in GB/s, best samples; from the peak medians: %.1f)\n",
                s->bandwidth_score, s->bandwidth_score_median);
    if (s->latency_score > 0)
        fprintf(f, "  Latency Score:      %8.1f  (1000 / latency_ns)\n", s->latency_score);
    if (s->bandwidth_score > 0 && s->latency_score > 0)
        fprintf(f, "\n  >> COMBINED SCORE:  %8.0f  (sqrt(bw_score \xc3\x97 latency_score) \xc3\x97 100)\n",
                s->combined_score);
    else if (s->bandwidth_score > 0)
        fprintf(f, "\n  >> COMBINED SCORE:  %8.0f  (bandwidth only, no latency data)\n", s->combined_score);
    fprintf(f, RULE_DASH);
    if (c->max_runtime > 0 || c->fixed_threads > 0 || c->single_size_kb > 0 || c->max_size_kb > 0 || c->stopped_by) {
        fprintf(f, "\nWARNING: Scores may not be comparable due to non-default options:\n");
        if (c->max_runtime > 0)
            fprintf(f, "  - Time limit (-t %g) may have prevented testing larger buffer sizes\n", c->max_runtime);
        if (c->fixed_threads > 0) {
            if (c->fixed_threads_source && c->fixed_threads_source[0] != '-')
                fprintf(f, "  - Fixed thread count (%s=%d) instead of using all CPUs (%d)\n",
                        c->fixed_threads_source, c->fixed_threads, c->usable_cpus);
            else
                fprintf(f, "  - Fixed thread count (-p %d) instead of using all CPUs (%d)\n", c->fixed_threads,
                        c->usable_cpus);
        }
        if (c->single_size_kb > 0)
            fprintf(f, "  - Single buffer size (-s %llu KB) instead of full sweep\n", c->single_size_kb);
        if (c->max_size_kb > 0)
            fprintf(f, "  - Sizes up to --max-size %llu KB instead of the whole sweep\n", c->max_size_kb);
        if (c->stopped_by)
            fprintf(f, "  - Run stopped early (%s): not every point got its -r samples\n", c->stopped_by);
        fprintf(f, "For comparable scores, run without -t, -p, or -s options.\n");
    }
    fprintf(f, "\n");
}

static void pct_or_unknown(FILE *f, const char *what, double pct)
{
    if (pct >= 0)
        fprintf(f, "%s %.1f%%", what, pct);
    else
        fprintf(f, "%s unknown", what);
}

void table_write_host_noise(FILE *f, const run_host_noise *n)
{
    if (!n->measured)
        return;
    fprintf(f, "HOST DURING THIS RUN:\n");
    if (n->known) {
        fprintf(f, "  varied \xc2\xb1%.1f%% (fixed CPU and memory probes timed %zu times); differences below %.0f%% are not "
                   "meaningful%s\n",
                n->varied_pct, n->probes, n->meaningful_pct, n->flagged ? "  << NOISY" : "");
        /* README "Uncertainty": what a run's own interval cannot see */
        fprintf(f, "  each \xc2\xb1 is this run's alone; widened by %.1f%% it is where this host's median is likely "
                   "(JSON summary.host_interval)\n",
                n->varied_pct);
    } else {
        fprintf(f, "  too short to judge its variation (%zu probe%s of a fixed CPU workload, 5 needed)\n", n->probes,
                n->probes == 1 ? "" : "s");
    }
    fprintf(f, "  ");
    pct_or_unknown(f, "steal", n->steal_pct);
    pct_or_unknown(f, ", CPU pressure", n->cpu_pressure_pct);
    pct_or_unknown(f, ", memory pressure", n->memory_pressure_pct);
    fprintf(f, "\n\n");
}

typedef struct {
    sink base;
    FILE *table_f, *summary_f;
    comparability c;
} table_sink;

static void begin(sink *s, const run_info *info)
{
    (void)info;
    table_sink *t = (table_sink *)s;
    table_write_header(t->table_f);
    fflush(t->table_f);
}

static void record(sink *s, const run_info *info, const result_record *r)
{
    (void)info;
    table_sink *t = (table_sink *)s;
    table_write_record(t->table_f, r);
    fflush(t->table_f);
}

static void end(sink *s, const run_info *info)
{
    table_sink *t = (table_sink *)s;
    const result_list *l = info->results;
    comparability c = t->c;
    c.stopped_by = info->stopped_by;
    c.latency_below_target = 0;
    for (size_t i = 0; l && i < l->n; i++)
        if (l->items[i].has_cv_target && !l->items[i].converged)
            c.latency_below_target++;
    run_summary sum = summary_compute(l ? l->items : NULL, l ? l->n : 0);
    table_write_summary(t->summary_f, &sum, &c);
    table_write_host_noise(t->summary_f, &info->noise);
}

static void destroy(sink *s)
{
    free(s);
}

static const sink_ops ops = {begin, record, end, destroy, NULL};

sink *table_sink_create(FILE *table_f, FILE *summary_f, const comparability *c)
{
    table_sink *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->base.ops = &ops;
    t->table_f = table_f;
    t->summary_f = summary_f;
    t->c = *c;
    return &t->base;
}
