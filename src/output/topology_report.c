#include "output/topology_report.h"

#include <stdlib.h>

#include "util/format_bytes.h"

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
        fprintf(f, "  L%d %-7s %10s  line %d B  x%zu  (first shared by CPUs %s)\n", cs[i]->level,
                type_name(cs[i]->type), size, cs[i]->line_size, count, buf ? buf : "");
        free(buf);
    }
    free(cs);
    fprintf(f, "Huge page sizes:");
    for (size_t i = 0; i < t->nhuge_sizes; i++) {
        format_bytes(t->huge_sizes[i], size, sizeof size);
        fprintf(f, " %s", size);
    }
    fprintf(f, "%s\nTHP: %s", t->nhuge_sizes ? "" : " none", t->thp_mode);
    if (t->thp_size) {
        format_bytes(t->thp_size, size, sizeof size);
        fprintf(f, " (%s pages)", size);
    }
    fprintf(f, "\n");
}

void topology_report_warnings(FILE *f, const char *prefix, const topology *t)
{
    for (size_t i = 0; i < t->nwarnings; i++)
        fprintf(f, "%swarning: %s\n", prefix, t->warnings[i]);
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
        json_object_end(j);
    }
    json_object_end(j);
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
