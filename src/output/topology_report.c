/* SPDX-License-Identifier: MIT */
#include "output/topology_report.h"

#include <stdlib.h>

#include "plan/dram_size.h"
#include "util/format_bytes.h"
#include "util/one_line.h"

static const char *type_name(cache_type t)
{
    return t == CACHE_DATA ? "data" : t == CACHE_INSTRUCTION ? "instruction" : "unified";
}

/* Caches sorted by level then first CPU, for stable output. */
static int compare_cache(const void *a, const void *b)
{
    const cache_instance *x = *(const cache_instance *const *)a, *y = *(const cache_instance *const *)b;
    /* Compared, not subtracted: sysfs may say any int is a level. */
    if (x->level != y->level)
        return (x->level > y->level) - (x->level < y->level);
    int fx = x->shared.count ? x->shared.ids[0] : 0, fy = y->shared.count ? y->shared.ids[0] : 0;
    return (fx > fy) - (fx < fy);
}

static const cache_instance **sorted_caches(const topology *t)
{
    const cache_instance **v = malloc(sizeof *v * (t->ncaches ? t->ncaches : 1));
    if (!v)
        return NULL;
    for (size_t i = 0; i < t->ncaches; i++)
        v[i] = &t->caches[i];
    qsort(v, t->ncaches, sizeof *v, compare_cache);
    return v;
}

/* A CPU list as text, however long (many-CPU machines); "" when out of memory.
 * Free it. */
static char *cpus_text(const cpu_list *l)
{
    char *s = cpu_list_format_alloc(l->ids, l->count);
    return s ? s : calloc(1, 1);
}

/* Each level as every source describes it, then what planning uses. */
static void sources_text(FILE *f, const topology *t)
{
    char size[32];
    fprintf(f, "Cache sources (each level as each source gives it):\n");
    int top = 0;
    for (size_t i = 0; i < t->ncache_reports; i++)
        top = t->cache_reports[i].level > top ? t->cache_reports[i].level : top;
    for (int level = 1; level <= top; level++) {
        bool any = false;
        for (size_t i = 0; i < t->ncache_reports; i++) {
            const cache_report *r = &t->cache_reports[i];
            if (r->level != level)
                continue;
            format_bytes(r->size, size, sizeof size);
            if (any)
                fprintf(f, ";  ");
            else
                fprintf(f, "  L%d:  ", level);
            fprintf(f, "%s %s", cache_source_name(r->source), size);
            if (r->per_package)
                fprintf(f, " per package");
            else if (r->sharing > 0)
                fprintf(f, " shared by %d", r->sharing);
            any = true;
        }
        if (any)
            fprintf(f, "\n");
    }
    if (t->ncache_reports == 0)
        fprintf(f, "  none\n");
    fprintf(f, "Used for planning:");
    for (int level = 1; level <= 3; level++) {
        cache_level cl = topology_cache_level(t, level);
        format_bytes(cl.size, size, sizeof size);
        fprintf(f, "%s L%d %s (%s%s)", level > 1 ? "," : "", level, size, cl.per_package ? "per package, " : "",
                cache_source_name(cl.source));
    }
    dram_basis b = dram_basis_for(t, NULL, 0);
    char text[96], rule[160];
    fprintf(f, "\nDRAM buffers sized from: %s (every usable CPU; a run on fewer CPUs may reach fewer instances)\n",
            dram_basis_text(&b, text, sizeof text));
    fprintf(f, "DRAM rule: a DRAM figure's footprint, all threads together, is at least %s\n",
            dram_rule_text(&b, rule, sizeof rule));
    const cache_measurement *m = &t->measured;
    if (m->ran) {
        char low[32], high[32], top_size[32];
        format_bytes(m->llc_low_bytes, low, sizeof low);
        format_bytes(m->llc_high_bytes, high, sizeof high);
        format_bytes(m->max_bytes, top_size, sizeof top_size);
        format_bytes(m->llc_bytes, size, sizeof size);
        char served[32];
        format_bytes(m->served_bytes, served, sizeof served);
        if (m->edge_found)
            fprintf(f, "Cache probe (a diagnostic; nothing is sized from it): the effective last level one thread sees %s (edge between %s and %s), %.1f ns there, DRAM %.1f ns; a cache "
                       "served up to %s; %s; %.1f s\n", size, low, high, m->llc_ns, m->dram_ns, served,
                    m->sure ? "batches agree" : "batches disagree", m->wall_s);
        else
            fprintf(f, "Cache probe (a diagnostic; up to %s, %.1f s): %s\n", top_size, m->wall_s, m->why);
    }
    char vendor[64], hypervisor[64]; /* CPUID's bytes, or a recorded dump's */
    if (t->cpu_vendor[0])
        fprintf(f, "CPUID: %s%s%s\n", one_line_copy(vendor, sizeof vendor, t->cpu_vendor),
                t->hypervisor[0] ? ", hypervisor " : "", one_line_copy(hypervisor, sizeof hypervisor, t->hypervisor));
}

void topology_report_text(FILE *f, const topology *t)
{
    char size[32];
    char *buf = cpus_text(&t->usable);
    fprintf(f, "CPUs: %zu online, %zu usable (%s), %d cores, %d package(s)\n", t->ncpus, t->usable.count,
            buf ? buf : "", t->ncores, t->npackages);
    free(buf);
    fprintf(f, "NUMA nodes: %zu\n", t->nnodes);
    for (size_t i = 0; i < t->nnodes; i++) {
        buf = cpus_text(&t->nodes[i].cpus);
        format_bytes(t->nodes[i].mem_total, size, sizeof size);
        fprintf(f, "  node %d: CPUs %s, memory %s\n", t->nodes[i].id, buf && *buf ? buf : "none", size);
        free(buf);
    }
    fprintf(f, "Caches (data and unified; per instance):\n");
    const cache_instance **cs = sorted_caches(t);
    for (size_t i = 0; cs && i < t->ncaches; i++) {
        /* One line per level with the instance count, sharing shown by the first. */
        if (i > 0 && cs[i - 1]->level == cs[i]->level)
            continue;
        size_t count = 0;
        for (size_t k = i; k < t->ncaches && cs[k]->level == cs[i]->level; k++)
            count++;
        buf = cpus_text(&cs[i]->shared);
        format_bytes(cs[i]->size, size, sizeof size);
        fprintf(f, "  L%d %-7s %10s  line %d B  x%zu  (first shared by CPUs %s)  from %s\n", cs[i]->level,
                type_name(cs[i]->type), size, cs[i]->line_size, count, buf ? buf : "",
                cache_source_name(cs[i]->source));
        free(buf);
    }
    free(cs);
    sources_text(f, t);
    fprintf(f, "Huge page sizes:");
    for (size_t i = 0; i < t->nhuge_sizes; i++) {
        format_bytes(t->huge_sizes[i], size, sizeof size);
        fprintf(f, " %s", size);
    }
    char thp[64]; /* sysfs text */
    fprintf(f, "%s\nTHP: %s", t->nhuge_sizes ? "" : " none", one_line_copy(thp, sizeof thp, t->thp_mode));
    if (t->thp_size) {
        format_bytes(t->thp_size, size, sizeof size);
        fprintf(f, " (%s pages)", size);
    }
    fprintf(f, "\n");
}

void topology_report_warnings(FILE *f, const char *prefix, const topology *t)
{
    for (size_t i = 0; i < t->nwarnings; i++) { /* they quote sysfs and CPUID text */
        fprintf(f, "%swarning: ", prefix);
        one_line_put(f, t->warnings[i]);
        fputc('\n', f);
    }
}

static void probe_json(json_writer *j, const cache_measurement *m)
{
    json_object_begin(j, "cache_probe");
    json_bool(j, "edge_found", m->edge_found);
    json_bool(j, "dram_found", m->dram_found);
    json_bool(j, "sure", m->sure);
    json_uint(j, "llc_bytes", m->llc_bytes);
    json_uint(j, "llc_low_bytes", m->llc_low_bytes);
    json_uint(j, "llc_high_bytes", m->llc_high_bytes);
    json_uint(j, "dram_from_bytes", m->dram_from_bytes);
    json_uint(j, "served_bytes", m->served_bytes);
    json_uint(j, "max_bytes", m->max_bytes);
    json_number(j, "llc_ns", m->llc_ns);
    json_number(j, "dram_ns", m->dram_ns);
    json_number(j, "wall_s", m->wall_s);
    json_string(j, "why", m->why);
    json_object_end(j);
}

static void json_cpus(json_writer *j, const char *key, const cpu_list *l)
{
    char *text = cpus_text(l);
    json_string(j, key, text ? text : "");
    free(text);
}

void topology_report_json(json_writer *j, const char *key, const topology *t)
{
    json_object_begin(j, key);
    json_int(j, "cpus_online", (long long)t->ncpus);
    json_cpus(j, "cpus_usable", &t->usable);
    json_int(j, "cpus_usable_count", (long long)t->usable.count);
    json_int(j, "cores", t->ncores);
    json_int(j, "packages", t->npackages);
    json_array_begin(j, "cpus");
    for (size_t i = 0; i < t->ncpus; i++) {
        const cpu_info *c = &t->cpus[i];
        json_object_begin(j, NULL);
        json_int(j, "id", c->id);
        json_int(j, "core", c->core_id);
        json_int(j, "package", c->package_id);
        json_int(j, "node", c->node);
        json_int(j, "smt_rank", c->smt_rank);
        json_bool(j, "usable", c->usable);
        json_object_end(j);
    }
    json_array_end(j);
    json_array_begin(j, "numa_nodes");
    for (size_t i = 0; i < t->nnodes; i++) {
        json_object_begin(j, NULL);
        json_int(j, "id", t->nodes[i].id);
        json_cpus(j, "cpus", &t->nodes[i].cpus);
        json_uint(j, "memory_bytes", t->nodes[i].mem_total);
        json_object_end(j);
    }
    json_array_end(j);
    json_array_begin(j, "caches");
    const cache_instance **cs = sorted_caches(t);
    for (size_t i = 0; cs && i < t->ncaches; i++) {
        json_object_begin(j, NULL);
        json_int(j, "level", cs[i]->level);
        json_string(j, "type", type_name(cs[i]->type));
        json_uint(j, "size_bytes", cs[i]->size);
        json_int(j, "line_bytes", cs[i]->line_size);
        json_cpus(j, "shared_cpus", &cs[i]->shared);
        json_string(j, "source", cache_source_key(cs[i]->source));
        json_object_end(j);
    }
    free(cs);
    json_array_end(j);
    json_object_begin(j, "levels_used");
    for (int level = 1; level <= 3; level++) {
        cache_level cl = topology_cache_level(t, level);
        char name[16];
        snprintf(name, sizeof name, "L%d", level);
        json_object_begin(j, name);
        json_uint(j, "size_bytes", cl.size);
        json_int(j, "line_bytes", cl.line_size);
        json_bool(j, "defaulted", cl.defaulted);
        json_string(j, "source", cache_source_key(cl.source));
        json_bool(j, "per_package", cl.per_package);
        json_object_end(j);
    }
    json_object_end(j);
    json_array_begin(j, "cache_sources");
    for (size_t i = 0; i < t->ncache_reports; i++) {
        const cache_report *r = &t->cache_reports[i];
        json_object_begin(j, NULL);
        json_int(j, "level", r->level);
        json_string(j, "source", cache_source_key(r->source));
        json_uint(j, "size_bytes", r->size);
        json_int(j, "line_bytes", r->line_size);
        json_int(j, "sharing", r->sharing);
        json_bool(j, "per_package", r->per_package);
        json_object_end(j);
    }
    json_array_end(j);
    dram_basis b = dram_basis_for(t, NULL, 0);
    char text[96], rule[160];
    json_object_begin(j, "dram_basis");
    json_int(j, "level", b.level);
    json_uint(j, "size_bytes", b.bytes);
    if (b.instance_bytes)
        json_uint(j, "instance_bytes", b.instance_bytes);
    else
        json_null(j, "instance_bytes");
    json_int(j, "instances", (long long)b.instances);
    if (b.package_bytes)
        json_uint(j, "package_bytes", b.package_bytes);
    else
        json_null(j, "package_bytes");
    json_int(j, "packages", (long long)b.packages);
    json_string(j, "source", dram_basis_key(&b));
    json_bool(j, "per_package", b.per_package);
    json_uint(j, "rule_bytes", dram_rule_bytes(&b));
    json_string(j, "rule", dram_rule_text(&b, rule, sizeof rule));
    json_string(j, "text", dram_basis_text(&b, text, sizeof text));
    json_object_end(j);
    json_string(j, "cpu_vendor", t->cpu_vendor);
    json_string(j, "hypervisor", t->hypervisor);
    if (t->measured.ran)
        probe_json(j, &t->measured);
    json_array_begin(j, "huge_page_sizes");
    for (size_t i = 0; i < t->nhuge_sizes; i++)
        json_uint(j, NULL, t->huge_sizes[i]);
    json_array_end(j);
    json_string(j, "thp_mode", t->thp_mode);
    json_uint(j, "thp_page_bytes", t->thp_size);
    json_array_begin(j, "warnings");
    for (size_t i = 0; i < t->nwarnings; i++)
        json_string(j, NULL, t->warnings[i]);
    json_array_end(j);
    json_object_end(j);
}
