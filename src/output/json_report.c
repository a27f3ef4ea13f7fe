#include "output/json_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/ref_counter.h"
#include "output/json.h"
#include "output/topology_report.h"
#include "platform/arch.h"

static void write_options(json_writer *j, const sweep_options *o)
{
    json_object_begin(j, "options");
    json_int(j, "verbose", o->verbose);
    json_uint(j, "single_size_kb", o->single_size_kb);
    json_int(j, "tries", o->tries);
    json_bool(j, "full_sweep", o->full);
    json_int(j, "threads_requested", o->threads);
    json_bool(j, "auto_scale", o->auto_scale);
    json_number(j, "max_runtime_s", o->max_runtime);
    json_array_begin(j, "operations");
    for (int op = 0; op < OP_COUNT; op++)
        if (o->ops_mask & OP_MASK(op))
            json_string(j, NULL, op_name((mb_op)op));
    json_array_end(j);
    json_bool(j, "huge_pages", o->huge);
    json_bool(j, "human_readable", o->human);
    json_bool(j, "oversubscribe", o->oversubscribe);
    json_string(j, "kernel_isa", o->kernel_isa ? o->kernel_isa : "auto");
    json_number(j, "min_sample_ms", o->sample_ms);
    json_number(j, "latency_sample_ms", o->latency_sample_ms);
    json_uint(j, "seed", o->seed);
    json_string(j, "OMP_PROC_BIND", o->omp_bind);
    json_string(j, "OMP_PLACES", o->omp_places);
    json_object_end(j);
}

static void write_placement(json_writer *j, const placement *p)
{
    char buf[512];
    json_object_begin(j, "placement");
    json_string(j, "policy", p->policy);
    json_bool(j, "pinned", p->pinned);
    json_array_begin(j, "threads");
    for (int i = 0; i < p->n; i++) {
        json_object_begin(j, NULL);
        json_int(j, "thread", i);
        cpu_list_format(p->places[i].cpus.ids, p->places[i].cpus.count, buf, sizeof buf);
        json_string(j, "cpus", buf);
        json_int(j, "node", p->places[i].node);
        json_int(j, "memory_node", p->places[i].mem_node);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

static void write_plan(json_writer *j, const size_plan *p)
{
    json_object_begin(j, "plan");
    for (int level = 1; level <= 3; level++) {
        char key[32];
        snprintf(key, sizeof key, "L%d_share_bytes", level);
        json_uint(j, key, p->share[level]);
        snprintf(key, sizeof key, "L%d_sharing_threads", level);
        json_int(j, key, (long long)p->sharers[level]);
    }
    json_uint(j, "max_bytes_per_thread", p->max_bytes);
    json_int(j, "sizes_dropped_for_memory", (long long)p->dropped);
    json_array_begin(j, "sizes");
    for (size_t i = 0; i < p->n; i++) {
        json_object_begin(j, NULL);
        json_uint(j, "size_kb", p->points[i].bytes / 1024);
        json_string(j, "reason", p->points[i].reason);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

void json_write_record(json_writer *j, const result_record *r)
{
    json_object_begin(j, NULL);
    json_uint(j, "size_kb", r->size_bytes / 1024);
    json_string(j, "operation", op_name(r->op));
    json_int(j, "threads", r->threads);
    json_string(j, "cpus", r->cpus);
    json_object_begin(j, "kernel");
    json_string(j, "isa", r->kernel_isa);
    json_string(j, "stores", r->kernel_store);
    json_object_end(j);
    if (r->op == OP_LATENCY) {
        json_number(j, "latency_ns", r->latency_ns);
        json_number(j, "latency_stddev_ns", r->latency_stddev_ns);
        json_int(j, "latency_samples", r->latency_samples);
        json_bool(j, "cv_target_met", r->cv_target_met);
        json_uint(j, "chased_bytes", r->latency_bytes);
        json_bool(j, "tlb_misses_included", r->huge_coverage < 0.9);
        if (r->latency_cycles >= 0)
            json_number(j, "latency_ref_cycles", r->latency_cycles);
        else
            json_null(j, "latency_ref_cycles");
        json_number(j, "chain_build_s", r->chain_build_s);
    } else {
        json_number(j, "bandwidth_mb_s", r->bandwidth_mb_s);
        json_number(j, "bandwidth_median_mb_s", r->bandwidth_median_mb_s);
        json_number(j, "bandwidth_cv", r->bandwidth_cv);
        json_string(j, "bytes_counted", op_buffers(r->op) == 2 ? "buffer size per pass (data moved is 2x)"
                                                               : "buffer size per pass");
        json_number(j, "thread_time_min_s", r->thread_time_min_s);
        json_number(j, "thread_time_max_s", r->thread_time_max_s);
    }
    json_uint(j, "iterations", r->iterations);
    json_number(j, "elapsed_s", r->elapsed_s);
    json_int(j, "samples", r->samples);
    json_int(j, "samples_wanted", r->samples_wanted);
    json_object_begin(j, "pages");
    json_string(j, "method", r->page_method);
    if (r->huge_coverage >= 0)
        json_number(j, "huge_coverage", r->huge_coverage);
    else
        json_null(j, "huge_coverage");
    json_object_end(j);
    if (r->node_local_fraction >= 0)
        json_number(j, "node_local_fraction", r->node_local_fraction);
    else
        json_null(j, "node_local_fraction");
    json_int(j, "pins_verified", r->pins_verified);
    json_bool(j, "complete", r->complete);
    json_object_end(j);
}

void json_write_header(json_writer *j, const run_info *info, const char *mode)
{
    json_string(j, "tool", "membench");
    json_string(j, "version", MEMBENCH_VERSION);
    json_int(j, "schema", 1);
    json_string(j, "mode", mode);
    json_bool(j, "complete", info->complete);
    json_string(j, "stopped_by", info->stopped_by);
    json_array_begin(j, "command_line");
    for (int i = 0; i < info->argc; i++)
        json_string(j, NULL, info->argv[i]);
    json_array_end(j);
    json_string(j, "started_at", info->started_at);
    json_number(j, "elapsed_s", info->elapsed_s);
    json_object_begin(j, "host");
    json_string(j, "hostname", info->hostname);
    json_string(j, "cpu_model", info->cpu_model);
    json_string(j, "kernel", info->kernel);
    json_string(j, "arch", arch_name());
    json_string(j, "isa", info->isa_list);
    if (ref_counter_name())
        json_string(j, "ref_counter", ref_counter_name());
    else
        json_null(j, "ref_counter");
    json_object_end(j);
    if (info->topo)
        topology_report_json(j, "topology", info->topo);
    json_array_begin(j, "warnings");
    for (size_t i = 0; i < info->nwarnings; i++)
        json_string(j, NULL, info->warnings[i]);
    json_array_end(j);
}

void json_report_write_stream(FILE *f, const run_info *info, const result_record *records, size_t n)
{
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_write_header(&j, info, "sweep");
    json_string(&j, "units", "bandwidth_mb_s is 10^6 bytes per second");
    if (info->opts)
        write_options(&j, info->opts);
    if (info->place)
        write_placement(&j, info->place);
    if (info->plan)
        write_plan(&j, info->plan);
    json_array_begin(&j, "results");
    for (size_t i = 0; i < n; i++)
        json_write_record(&j, &records[i]);
    json_array_end(&j);
    json_object_end(&j);
}

/* Opens the temporary file json_write_atomic writes before renaming it over path;
 * *tmp gets its name (free it), NULL on failure with errno set. */
static FILE *open_temp(const char *path, char **tmp)
{
    size_t len = strlen(path) + 32;
    *tmp = malloc(len);
    if (!*tmp)
        return NULL;
    snprintf(*tmp, len, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(*tmp, "w");
    if (!f) {
        int saved = errno;
        free(*tmp);
        *tmp = NULL;
        errno = saved;
    }
    return f;
}

static bool json_path_usable(const char *path)
{
    char *tmp;
    FILE *f = open_temp(path, &tmp);
    if (!f)
        return false;
    fclose(f);
    unlink(tmp);
    free(tmp);
    return true;
}

bool json_path_check(const char *path, char *err, size_t errlen)
{
    if (json_path_usable(path))
        return true;
    snprintf(err, errlen, "--json %s: cannot write (%s)", path, strerror(errno));
    return false;
}

bool json_write_atomic(const char *path, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    char *tmp;
    FILE *f = open_temp(path, &tmp);
    if (!f)
        return false;
    write(f, ctx);
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok;
}

typedef struct {
    const run_info *info;
    const result_record *records;
    size_t n;
} sweep_doc;

static void write_sweep_doc(FILE *f, const void *ctx)
{
    const sweep_doc *d = ctx;
    json_report_write_stream(f, d->info, d->records, d->n);
}

bool json_report_write(const char *path, const run_info *info, const result_record *records, size_t n)
{
    sweep_doc d = {info, records, n};
    return json_write_atomic(path, write_sweep_doc, &d);
}
