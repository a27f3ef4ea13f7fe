/* SPDX-License-Identifier: MIT */
#include "output/json_report.h"

#include <stdio.h>

#include "output/document_sink.h"
#include "output/file_target.h"
#include "output/topology_report.h"

static void write_param(json_writer *j, const param *p)
{
    switch (p->kind) {
    case PARAM_NUMBER:
        json_number(j, p->key, p->number);
        break;
    case PARAM_INT:
        json_int(j, p->key, p->integer);
        break;
    case PARAM_TEXT:
        json_string(j, p->key, p->text);
        break;
    case PARAM_BOOL:
        json_bool(j, p->key, p->flag);
        break;
    case PARAM_NULL:
        json_null(j, p->key);
        break;
    }
}

void json_write_params(json_writer *j, const char *key, const param_list *l)
{
    json_object_begin(j, key);
    for (size_t i = 0; i < l->n; i++)
        write_param(j, &l->items[i]);
    json_object_end(j);
}

/* Values first, then each table as an array of row objects. */
static void write_section(json_writer *j, const char *key, const param_section *s)
{
    json_object_begin(j, key);
    for (size_t i = 0; i < s->values.n; i++)
        write_param(j, &s->values.items[i]);
    for (size_t t = 0; t < s->ntables; t++) {
        json_array_begin(j, s->tables[t].name);
        for (size_t r = 0; r < s->tables[t].nrows; r++)
            json_write_params(j, NULL, &s->tables[t].rows[r]);
        json_array_end(j);
    }
    json_object_end(j);
}

static void number_or_null(json_writer *j, const char *key, double v, bool known)
{
    if (known)
        json_number(j, key, v);
    else
        json_null(j, key);
}

/* The median interval sees only this run, and on a noisy host runs differ by more
 * than it holds (BENCHMARKS "Calibration": half the default runs' intervals miss
 * the median of twenty). Widened on each side by how much the host moved during
 * the run, it is where the host's median over a longer period is likely; null
 * until the run's verdict (at its end), or without one. */
static void write_host_interval(json_writer *j, const sample_stats *s, const run_host_noise *noise)
{
    if (!(s->median_level > 0) || !noise || !noise->measured || !noise->known) {
        json_null(j, "host_interval");
        return;
    }
    double widen = s->median * noise->varied_pct / 100;
    json_object_begin(j, "host_interval");
    json_number(j, "low", s->median_low - widen);
    json_number(j, "high", s->median_high + widen);
    json_number(j, "host_varied_pct", noise->varied_pct);
    json_string(j, "method", "median_interval widened on each side by host_noise.varied_pct of the median");
    json_object_end(j);
}

/* null: the samples are one level. */
static void write_two_levels(json_writer *j, const sample_stats *s)
{
    if (!s->low_level_n) {
        json_null(j, "two_levels");
        return;
    }
    json_object_begin(j, "two_levels");
    json_object_begin(j, "low");
    json_int(j, "n", (long long)s->low_level_n);
    json_number(j, "median", s->low_level_median);
    json_object_end(j);
    json_object_begin(j, "high");
    json_int(j, "n", (long long)s->high_level_n);
    json_number(j, "median", s->high_level_median);
    json_object_end(j);
    json_number(j, "jump", s->level_jump);
    char method[128];
    snprintf(method, sizeof method,
             "the largest ratio of neighbouring sorted samples with 2 or more on each side, when %g or more",
             STATS_LEVEL_JUMP);
    json_string(j, "method", method);
    json_object_end(j);
}

static void write_summary(json_writer *j, const sample_stats *s, const run_host_noise *noise)
{
    json_object_begin(j, "summary");
    json_int(j, "n", (long long)s->n);
    json_number(j, "min", s->min);
    json_number(j, "max", s->max);
    json_number(j, "median", s->median);
    json_number(j, "mean", s->mean);
    json_number(j, "stddev", s->stddev);
    json_number(j, "cv", s->cv);
    if (!(s->median_level > 0)) { /* under 2 samples, or all in one time batch */
        json_null(j, "median_interval");
    } else {
        json_object_begin(j, "median_interval");
        json_number(j, "low", s->median_low);
        json_number(j, "high", s->median_high);
        json_number(j, "level", s->median_level);
        json_string(j, "method", "order statistics of batch medians");
        /* no batching (samples independent): every sample its own batch */
        json_int(j, "batches", (long long)(s->median_batches ? s->median_batches : s->n));
        json_object_end(j);
    }
    write_host_interval(j, s, noise);
    write_two_levels(j, s);
    json_object_end(j);
}

/* An array of numbers (empty when xs is NULL). */
static void number_array(json_writer *j, const char *key, const double *xs, size_t n)
{
    json_array_begin(j, key);
    for (size_t i = 0; xs && i < n; i++)
        json_number(j, NULL, xs[i]);
    json_array_end(j);
}

/* null until the run ends (a document rewritten during the run has no verdict yet). */
static void write_host_noise(json_writer *j, const run_host_noise *n)
{
    if (!n->measured) {
        json_null(j, "host_noise");
        return;
    }
    json_object_begin(j, "host_noise");
    json_string(j, "method",
                "a fixed CPU probe (2^20 dependent multiply-adds) and a memory probe (a read of the next quarter of "
                "its buffer) timed at the start, between visits and after results, at most every 0.1 s; "
                "varied_pct the larger of the two variations (the CPU probe's when memory_counted is false)");
    json_int(j, "probes", (long long)n->probes);
    number_array(j, "probe_times_s", n->probe_times_s, n->probes);
    number_array(j, "probe_at_s", n->probe_at_s, n->probes);
    number_or_null(j, "probe_median_s", n->probe_median_s, n->cpu_known);
    number_or_null(j, "cpu_varied_pct", n->cpu_varied_pct, n->cpu_known);
    json_int(j, "memory_probe_bytes", (long long)n->memory_probe_bytes);
    number_array(j, "memory_probe_times_s", n->memory_probe_times_s, n->memory_probes);
    number_or_null(j, "memory_probe_median_s", n->memory_probe_median_s, n->memory_known);
    number_or_null(j, "memory_varied_pct", n->memory_varied_pct, n->memory_known);
    json_bool(j, "memory_counted", n->memory_counted);
    number_or_null(j, "varied_pct", n->varied_pct, n->known);
    number_or_null(j, "meaningful_difference_pct", n->meaningful_pct, n->known);
    json_bool(j, "flagged", n->flagged);
    number_or_null(j, "steal_pct", n->steal_pct, n->steal_pct >= 0);
    number_or_null(j, "cpu_pressure_pct", n->cpu_pressure_pct, n->cpu_pressure_pct >= 0);
    number_or_null(j, "memory_pressure_pct", n->memory_pressure_pct, n->memory_pressure_pct >= 0);
    json_object_end(j);
}

/* What a thread was seen doing (null and [] when the mode does not observe). */
static void int_or_null(json_writer *j, const char *key, int v)
{
    if (v >= 0)
        json_int(j, key, v);
    else
        json_null(j, key);
}

static void write_observed(json_writer *j, const result_observed *o)
{
    int_or_null(j, "observed_cpu", o ? o->cpu : -1);
    json_array_begin(j, "observed_memory_nodes");
    for (int b = 0; o && b < o->nbuffers; b++)
        int_or_null(j, NULL, o->mem_nodes[b]);
    json_array_end(j);
    number_or_null(j, "observed_memory_share", o ? o->mem_share : 0, o && o->mem_share >= 0);
}

/* The full random chase beside a TLB-local headline (result.h), when asked for. */
static void write_random_chase(json_writer *j, const result_record *r, const run_host_noise *noise)
{
    const char *state = random_chase_name(r->random_chase);
    if (!state)
        return;
    json_object_begin(j, "random_chase");
    json_string(j, "state", state);
    json_string(j, "pattern", "random over the whole buffer, one node a cache line: page walks included");
    if (r->random_chase == RANDOM_CHASE_MEASURED) {
        json_number(j, "value", r->random_summary.median);
        number_array(j, "samples", r->random_samples, (size_t)r->random_nsamples);
        write_summary(j, &r->random_summary, noise);
    } else if (r->random_chase == RANDOM_CHASE_SAME) {
        json_number(j, "value", result_value(r)); /* the headline's chase is random over one TLB group */
    } else {
        json_null(j, "value");
    }
    json_object_end(j);
}

/* The plateau check of a DRAM figure sized from the floor (result.h). */
static void write_dram_check(json_writer *j, const result_dram_check *c)
{
    if (!c->ran)
        return;
    json_object_begin(j, "dram_check");
    json_string(j, "kernel", c->kernel);
    json_string(j, "unit", c->unit);
    json_uint(j, "footprint_bytes", c->footprint_bytes);
    json_number(j, "at_footprint", c->at_footprint);
    json_uint(j, "twice_bytes", 2 * c->footprint_bytes);
    json_number(j, "at_twice", c->at_twice);
    json_string(j, "verdict", c->verdict);
    json_object_end(j);
}

void json_write_record(json_writer *j, const result_record *r, const run_host_noise *noise)
{
    json_object_begin(j, NULL);
    json_string(j, "mode", r->mode);
    json_string(j, "operation", r->operation);
    json_string(j, "metric", r->metric == METRIC_LATENCY ? "latency" : "bandwidth");
    json_string(j, "unit", result_unit(r));
    json_string(j, "statistic", result_statistic(r));
    json_number(j, "value", result_value(r));
    json_uint(j, "size_bytes", r->size_bytes);
    json_uint(j, "size_kb", r->size_bytes / 1024);
    if (r->size_basis)
        json_string(j, "size_basis", r->size_basis);
    if (r->dram_intent)
        json_bool(j, "may_fit_cache", r->may_fit_cache);
    if (r->dram_intent)
        write_dram_check(j, &r->dram_check);
    json_int(j, "threads", r->threads);
    json_array_begin(j, "placement");
    for (int i = 0; r->placement && i < r->threads; i++) {
        json_object_begin(j, NULL);
        json_int(j, "thread", i);
        json_int(j, "cpu", r->placement[i].cpu);
        json_int(j, "node", r->placement[i].node);
        json_int(j, "memory_node", r->placement[i].mem_node);
        write_observed(j, r->observed ? &r->observed[i] : NULL);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_begin(j, "kernel");
    json_string(j, "isa", r->kernel_isa);
    json_string(j, "stores", r->kernel_store);
    json_object_end(j);
    json_object_begin(j, "pages");
    json_string(j, "method", r->page_method);
    number_or_null(j, "huge_coverage", r->huge_coverage, r->huge_coverage >= 0);
    json_array_begin(j, "buffers");
    for (int i = 0; i < r->npages; i++) {
        const result_page_group *g = &r->pages[i];
        json_object_begin(j, NULL);
        json_string(j, "method", g->method);
        json_int(j, "count", g->buffers);
        json_number(j, "bytes", g->bytes);
        number_or_null(j, "huge_coverage", g->huge_bytes / g->bytes, g->huge_bytes >= 0 && g->bytes > 0);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
    number_or_null(j, "node_local_fraction", r->node_local_fraction, r->node_local_fraction >= 0);
    json_int(j, "pins_verified", r->pins_verified);
    json_array_begin(j, "samples");
    for (int i = 0; i < r->nsamples; i++)
        json_number(j, NULL, r->samples[i]);
    json_array_end(j);
    if (r->sample_rounds) {
        json_array_begin(j, "sample_rounds");
        for (int i = 0; i < r->nsamples; i++)
            json_int(j, NULL, r->sample_rounds[i]);
        json_array_end(j);
        json_array_begin(j, "sample_end_s");
        for (int i = 0; i < r->nsamples; i++)
            json_number(j, NULL, r->sample_times[i]);
        json_array_end(j);
    }
    json_int(j, "samples_wanted", r->samples_wanted);
    write_summary(j, &r->summary, noise);
    number_or_null(j, "bytes_per_sample", r->bytes_per_sample, r->metric == METRIC_BANDWIDTH);
    json_uint(j, "iterations", r->iterations);
    json_number(j, "elapsed_s", r->elapsed_s);
    number_or_null(j, "cv_target", r->cv_target, r->has_cv_target);
    if (r->has_cv_target)
        json_bool(j, "converged", r->converged);
    else
        json_null(j, "converged");
    json_bool(j, "complete", r->complete);
    write_random_chase(j, r, noise);
    json_write_params(j, "params", &r->params);
    json_object_end(j);
}

static void write_host(json_writer *j, const run_info *info)
{
    json_object_begin(j, "host");
    json_string(j, "hostname", info->hostname);
    json_string(j, "cpu_model", info->cpu_model);
    json_string(j, "kernel", info->os_kernel);
    json_string(j, "arch", info->arch);
    json_string(j, "isa", info->isa_list);
    json_string(j, "ref_counter", info->ref_counter);
    json_object_end(j);
}

static void write_placement(json_writer *j, const run_placement *p)
{
    json_object_begin(j, "placement");
    json_string(j, "policy", p->policy);
    json_bool(j, "pinned", p->pinned);
    json_array_begin(j, "threads");
    for (int i = 0; i < p->n; i++) {
        json_object_begin(j, NULL);
        json_int(j, "thread", i);
        json_string(j, "cpus", p->threads[i].cpus);
        json_int(j, "node", p->threads[i].node);
        json_int(j, "memory_node", p->threads[i].mem_node);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

void json_write_run(FILE *f, const run_info *info)
{
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_string(&j, "tool", "membench");
    json_string(&j, "version", MEMBENCH_VERSION);
    json_int(&j, "schema", JSON_SCHEMA_VERSION);
    json_string(&j, "mode", info->mode);
    json_bool(&j, "complete", info->complete);
    json_string(&j, "stopped_by", info->stopped_by);
    if (info->complete || info->stopped_by)
        json_int(&j, "exit_status", info->exit_status);
    else
        json_null(&j, "exit_status");
    json_array_begin(&j, "command_line");
    for (int i = 0; i < info->argc; i++)
        json_string(&j, NULL, info->argv[i]);
    json_array_end(&j);
    json_string(&j, "started_at", info->started_at);
    json_number(&j, "elapsed_s", info->elapsed_s);
    write_host(&j, info);
    if (info->topo)
        topology_report_json(&j, "topology", info->topo);
    else
        json_null(&j, "topology");
    json_array_begin(&j, "warnings");
    for (size_t i = 0; i < info->nwarnings; i++)
        json_string(&j, NULL, info->warnings[i]);
    json_array_end(&j);
    json_array_begin(&j, "warning_kinds"); /* each warning's kind, core/warn_kind.h */
    for (size_t i = 0; i < info->nwarnings; i++)
        json_string(&j, NULL, warn_kind_get(info->warning_kinds[i])->key);
    json_array_end(&j);
    json_array_begin(&j, "errors");
    for (size_t i = 0; i < info->nerrors; i++)
        json_string(&j, NULL, info->errors[i]);
    json_array_end(&j);
    write_host_noise(&j, &info->noise);
    json_write_params(&j, "options", &info->options);
    write_placement(&j, &info->placement);
    write_section(&j, "plan", &info->plan);
    json_array_begin(&j, "results");
    for (size_t i = 0; info->results && i < info->results->n; i++)
        json_write_record(&j, &info->results->items[i], &info->noise);
    json_array_end(&j);
    write_section(&j, "analysis", &info->analysis);
    json_object_end(&j);
}

bool json_path_check(const char *path, char *err, size_t errlen)
{
    return file_target_check("--json", path, err, errlen);
}

sink *json_sink_create(const char *path, FILE *err, const char *who)
{
    return document_sink_create("--json", path, err, who, json_write_run);
}
