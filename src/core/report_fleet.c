/* SPDX-License-Identifier: MIT */
#include "core/report_fleet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/format_bytes.h"

const fleet_column fleet_columns[FLEET_COLUMNS] = {
    [FLEET_RUN] = {"run", "run", "run", FLEET_TEXT},
    [FLEET_HOST] = {"host", "host", "hostname", FLEET_TEXT},
    [FLEET_CPU] = {"cpu", "CPU", "cpu_model", FLEET_TEXT},
    [FLEET_VCPUS] = {"vcpus", "vCPUs", "vcpus", FLEET_COUNT},
    [FLEET_NODES] = {"numa-nodes", "NUMA nodes", "numa_nodes", FLEET_COUNT},
    [FLEET_MODE] = {"mode", "mode", "mode", FLEET_TEXT},
    [FLEET_READ] = {"dram-read", "DRAM read GB/s", "dram_read_gb_s", FLEET_MB_S},
    [FLEET_WRITE] = {"dram-write", "DRAM write GB/s", "dram_write_gb_s", FLEET_MB_S},
    [FLEET_COPY] = {"dram-copy", "DRAM copy (counted once) GB/s", "dram_copy_gb_s", FLEET_MB_S},
    [FLEET_LATENCY] = {"idle-latency", "idle latency ns", "idle_latency_ns", FLEET_NS},
    [FLEET_RANDOM_LATENCY] = {"random-latency", "full random latency ns", "random_latency_ns", FLEET_NS},
    [FLEET_LLC_LEVEL] = {"llc-level", "LLC", "llc_level", FLEET_TEXT},
    [FLEET_LLC_BYTES] = {"llc-size", "LLC size", "llc_bytes", FLEET_BYTES},
    [FLEET_LLC_SOURCE] = {"llc-source", "LLC size from", "llc_source", FLEET_TEXT},
    [FLEET_TRIAD] = {"stream-triad", "STREAM Triad GB/s", "stream_triad_gb_s", FLEET_MB_S},
    [FLEET_PER_THREAD] = {"read-per-thread", "DRAM read per thread GB/s", "dram_read_per_thread_gb_s", FLEET_MB_S},
    [FLEET_THREADS] = {"read-threads", "threads (DRAM read)", "dram_read_threads", FLEET_COUNT},
    [FLEET_NOISE] = {"noise", "noise", "noise", FLEET_TEXT},
    [FLEET_VARIED] = {"host-varied", "host varied \u00b1%", "host_varied_pct", FLEET_PCT},
};

void report_fleet_row_of(const loaded_run *run, const char *name, fleet_row *row)
{
    memset(row, 0, sizeof *row);
    row->name = name;
    row->run = run;
    report_headline_of(run, &row->head);
    const json_value *topology = json_get_object(&run->doc, "topology"), *nodes = json_get_array(topology, "numa_nodes");
    if (!json_get_integer(topology, "cpus_online", 1, 1 << 24, &row->vcpus))
        row->vcpus = -1;
    row->nodes = nodes ? (long long)nodes->count : -1;
    /* per thread: the DRAM read figure shared among the threads that measured it */
    const loaded_record *read = row->head.fig[HEAD_READ].rec;
    row->per_thread = NAN;
    if (!read) {
        snprintf(row->per_thread_why, sizeof row->per_thread_why, "%s", row->head.fig[HEAD_READ].why);
    } else if (read->threads < 1) {
        snprintf(row->per_thread_why, sizeof row->per_thread_why, "the DRAM read record does not say its threads");
    } else {
        row->threads = read->threads;
        row->per_thread = read->value / (double)read->threads;
        snprintf(row->per_thread_why, sizeof row->per_thread_why, "DRAM read over its %lld thread%s", read->threads,
                 read->threads == 1 ? "" : "s");
    }
}

static fleet_cell text(const char *t, const char *missing_why)
{
    return t && *t ? (fleet_cell){.text = t} : (fleet_cell){.missing = true, .why = missing_why};
}

static fleet_cell number(bool have, double v, const char *why_missing, const char *why)
{
    return have ? (fleet_cell){.value = v, .why = why} : (fleet_cell){.missing = true, .why = why_missing};
}

static fleet_cell figure(const headline_figure *g)
{
    return number(g->rec != NULL, g->rec ? g->rec->value : 0, g->why, g->why);
}

fleet_cell report_fleet_cell(const fleet_row *row, int column, char *buf, size_t len)
{
    const run_headline *h = &row->head;
    const loaded_run *r = row->run;
    switch (column) {
    case FLEET_RUN: return text(row->name, "no name");
    case FLEET_HOST: return text(r->hostname, "not in the run");
    case FLEET_CPU: return text(r->cpu_model, "not in the run");
    case FLEET_VCPUS: return number(row->vcpus > 0, (double)row->vcpus, "not in the run", "CPUs online");
    case FLEET_NODES: return number(row->nodes > 0, (double)row->nodes, "not in the run", NULL);
    case FLEET_MODE: return text(r->mode, "not in the run");
    case FLEET_READ: return figure(&h->fig[HEAD_READ]);
    case FLEET_WRITE: return figure(&h->fig[HEAD_WRITE]);
    case FLEET_COPY: return figure(&h->fig[HEAD_COPY]);
    case FLEET_LATENCY: return figure(&h->fig[HEAD_LATENCY]);
    case FLEET_RANDOM_LATENCY: /* the idle latency's buffer chased fully random: page walks included */
        return number(h->random_ns > 0, h->random_ns,
                      h->fig[HEAD_LATENCY].rec ? "not measured beside the idle latency" : h->fig[HEAD_LATENCY].why,
                      h->random_why);
    case FLEET_TRIAD: return figure(&h->fig[HEAD_TRIAD]);
    case FLEET_LLC_LEVEL: return text(h->llc_known ? h->llc_level : NULL, h->llc);
    case FLEET_LLC_BYTES: {
        fleet_cell c = number(h->llc_known, h->llc_bytes, h->llc, h->llc);
        c.text = h->llc_known ? format_bytes((unsigned long long)h->llc_bytes, buf, len) : NULL;
        return c;
    }
    case FLEET_LLC_SOURCE: return text(h->llc_source, h->llc_known ? "source not recorded" : h->llc);
    case FLEET_PER_THREAD:
        return number(!isnan(row->per_thread), row->per_thread, row->per_thread_why, row->per_thread_why);
    case FLEET_THREADS: return number(row->threads > 0, (double)row->threads, row->per_thread_why, NULL);
    case FLEET_NOISE: {
        fleet_cell c = {.text = h->noisy > 0 ? "noisy" : h->noisy == 0 ? "quiet" : "no verdict", .why = h->noise};
        return c;
    }
    case FLEET_VARIED: return number(r->host_varied_pct >= 0, r->host_varied_pct, h->noise, h->noise);
    }
    return (fleet_cell){.missing = true, .why = "no such column"};
}
