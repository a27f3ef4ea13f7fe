/* SPDX-License-Identifier: MIT */
/* Caches from the device tree as Linux exposes it under /sys/firmware/devicetree/base:
 * one directory per node, one file per property, numbers in big-endian 32-bit cells.
 * The level-1 data cache is described in the cpu node itself; each further level is
 * a cache node reached from the cpu node by a phandle (l2-cache, which POWER uses and
 * Linux looks at first, else next-level-cache), and the cache node links on. Cache
 * nodes sit under a cpu node, under cpus/, at the top, or under a bus (RISC-V's
 * cache controller under soc/), so the phandles are looked up in a bounded walk. */
#include "topology/devicetree_caches.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform/platform.h"

#define DT_NAME_MAX 96    /* a cpu node's name ("PowerPC,POWER9@0", "cpu@10100") */
#define DT_PATH_MAX 512
#define DT_INDEX_MAX 4096 /* nodes with a phandle remembered by the walk */
#define DT_WALK_DIRS 8192 /* directories the walk looks at */
#define DT_WALK_DEPTH 3   /* deep enough for /l3-cache, /soc/cache-controller@x, /cpus/cpu@0/l2-cache */

typedef struct {
    uint64_t size; /* bytes of the data side; 0: no data or unified cache here */
    int line;      /* 0 when not said */
    cache_type type;
} dt_props;

typedef struct {
    char name[DT_NAME_MAX]; /* the node's directory under cpus/ */
    uint64_t reg;
    bool has_reg;
    bool disabled; /* status other than "okay": a hart Linux does not run (FU740's S7) */
    dt_props l1;
    uint32_t next; /* phandle of the next level, 0 for none */
} dt_cpu;

typedef struct {
    uint32_t phandle;
    char *rel; /* path under the base */
} dt_index_entry;

typedef struct {
    uint32_t phandle;
    int declared_level; /* cache-level, 0 when absent */
    int level;          /* as first reached */
    dt_props props;
    uint32_t next;
    unsigned char *member; /* per index of t->cpus: reached from that CPU */
} dt_cache;

typedef struct {
    const char *sys_root;
    char base[DT_PATH_MAX];
    const topology *t;
    dt_cpu *cpus;
    size_t ncpus;
    int *node_of; /* index of t->cpus -> index of cpus, -1 when unknown */
    dt_index_entry *index;
    size_t nindex;
    bool walked;
    dt_cache caches[DT_MAX_CACHE_NODES];
    size_t ncaches;
    dt_cache spare; /* a cache node read when caches[] is full */
    bool too_many_caches;
    char *note;
    size_t notelen;
} dt_state;

static void add_note(dt_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(dt_state *s, const char *fmt, ...)
{
    if (!s->note || s->notelen == 0)
        return;
    size_t used = strlen(s->note);
    if (used > 0 && used + 2 < s->notelen) {
        memcpy(s->note + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->note + used, s->notelen - used, fmt, ap);
    va_end(ap);
}

/* A property's bytes; its length, or -1 when the node does not have it. */
static long prop(const dt_state *s, const char *rel, const char *name, unsigned char *buf, size_t size)
{
    char path[2 * DT_PATH_MAX];
    int len = snprintf(path, sizeof path, "%s/%s/%s", s->base, rel, name);
    if (len < 0 || (size_t)len >= sizeof path)
        return -1;
    return platform_read_binary(path, buf, size);
}

/* A one-cell property. Any length but 4 is malformed and taken as absent. */
static bool prop_u32(const dt_state *s, const char *rel, const char *name, uint32_t *v)
{
    unsigned char b[8];
    if (prop(s, rel, name, b, sizeof b) != 4)
        return false;
    *v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
    return true;
}

static bool prop_present(const dt_state *s, const char *rel, const char *name)
{
    unsigned char b[1];
    return prop(s, rel, name, b, sizeof b) >= 0;
}

/* A string property's first string ("cpu", "okay"); "" when absent. */
static void prop_string(const dt_state *s, const char *rel, const char *name, char *buf, size_t size)
{
    long len = prop(s, rel, name, (unsigned char *)buf, size - 1);
    buf[len > 0 ? len : 0] = '\0';
}

/* 0 and all-ones are no phandle (the spec reserves them). */
static uint32_t prop_phandle(const dt_state *s, const char *rel, const char *name)
{
    uint32_t v;
    return prop_u32(s, rel, name, &v) && v != 0xffffffffu ? v : 0;
}

static uint32_t own_phandle(const dt_state *s, const char *rel)
{
    static const char *const names[] = {"phandle", "linux,phandle", "ibm,phandle"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        uint32_t v = prop_phandle(s, rel, names[i]);
        if (v)
            return v;
    }
    return 0;
}

/* The next level's phandle: l2-cache first, as Linux's of_find_next_cache_node. */
static uint32_t next_link(const dt_state *s, const char *rel)
{
    uint32_t v = prop_phandle(s, rel, "l2-cache");
    return v ? v : prop_phandle(s, rel, "next-level-cache");
}

static int line_of(const dt_state *s, const char *rel, const char *const names[4])
{
    uint32_t v;
    for (int i = 0; i < 4; i++)
        if (prop_u32(s, rel, names[i], &v) && v > 0 && v <= 4096)
            return (int)v;
    return 0;
}

/* The data side of a node. A cpu node's own cache is d-cache-size (unified with
 * cache-unified), or cache-size when cache-unified says so; a cache node's is
 * cache-size (unified), else d-cache-size (POWER's L2 and L3). An instruction-only
 * cache (i-cache-size alone) has none. */
static dt_props read_props(const dt_state *s, const char *rel, bool cpu_node)
{
    static const char *const d_lines[4] = {"d-cache-line-size", "d-cache-block-size", "cache-line-size",
                                           "cache-block-size"};
    static const char *const u_lines[4] = {"cache-line-size", "cache-block-size", "d-cache-line-size",
                                           "d-cache-block-size"};
    dt_props p = {0, 0, CACHE_DATA};
    bool unified = prop_present(s, rel, "cache-unified");
    uint32_t d = 0, u = 0;
    bool has_d = prop_u32(s, rel, "d-cache-size", &d) && d > 0;
    bool has_u = prop_u32(s, rel, "cache-size", &u) && u > 0 && (unified || !cpu_node);
    if (has_u && (!cpu_node || !has_d)) {
        p.size = u;
        p.type = CACHE_UNIFIED;
        p.line = line_of(s, rel, u_lines);
    } else if (has_d) {
        p.size = d;
        p.type = unified ? CACHE_UNIFIED : CACHE_DATA;
        p.line = line_of(s, rel, d_lines);
    }
    return p;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode); /* lstat: no link is followed out of the tree */
}

static void index_node(dt_state *s, const char *rel)
{
    char type[16];
    uint32_t ph = own_phandle(s, rel);
    if (!ph || s->nindex >= DT_INDEX_MAX)
        return;
    prop_string(s, rel, "device_type", type, sizeof type);
    if (strcmp(type, "cpu") == 0)
        return; /* a link to a cpu node is no cache */
    char *copy = strdup(rel);
    if (copy)
        s->index[s->nindex++] = (dt_index_entry){ph, copy};
}

/* Remembers every node with a phandle down to DT_WALK_DEPTH (rel's depth + 1 here). */
static void walk(dt_state *s, const char *rel, int depth, size_t *budget)
{
    char path[2 * DT_PATH_MAX];
    snprintf(path, sizeof path, "%s%s%s", s->base, *rel ? "/" : "", rel);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && *budget > 0 && (e = readdir(d)) != NULL) {
        char child[DT_PATH_MAX];
        int len = snprintf(child, sizeof child, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        if (e->d_name[0] == '.' || len < 0 || (size_t)len >= sizeof child)
            continue;
        snprintf(path, sizeof path, "%s/%s", s->base, child);
        if (!is_dir(path))
            continue;
        (*budget)--;
        index_node(s, child);
        if (depth < DT_WALK_DEPTH)
            walk(s, child, depth + 1, budget);
    }
    if (d)
        closedir(d);
}

/* The cache node with this phandle, read on first use; NULL when no node has it
 * (a dangling link) or there is no room left. */
static dt_cache *lookup(dt_state *s, uint32_t ph)
{
    for (size_t i = 0; i < s->ncaches; i++)
        if (s->caches[i].phandle == ph)
            return &s->caches[i];
    if (!s->walked) {
        size_t budget = DT_WALK_DIRS;
        s->walked = true;
        walk(s, "", 1, &budget);
    }
    const char *rel = NULL;
    for (size_t i = 0; i < s->nindex && !rel; i++)
        if (s->index[i].phandle == ph)
            rel = s->index[i].rel;
    if (!rel)
        return NULL;
    /* Out of room: the node is still read, so the chain goes on to the levels
     * above (a shared L3 after many private L2s), but it has no sharers kept. */
    bool full = s->ncaches == DT_MAX_CACHE_NODES;
    dt_cache *c = full ? &s->spare : &s->caches[s->ncaches];
    s->too_many_caches |= full;
    *c = (dt_cache){.phandle = ph};
    uint32_t level;
    if (prop_u32(s, rel, "cache-level", &level))
        c->declared_level = level > 0 && level <= DT_MAX_LEVELS ? (int)level : -1; /* -1: unusable */
    c->props = read_props(s, rel, false);
    c->next = next_link(s, rel);
    if (full)
        return c;
    c->member = calloc(s->t->ncpus ? s->t->ncpus : 1, 1);
    if (!c->member)
        return NULL;
    s->ncaches++;
    return c;
}

static int compare_name(const void *a, const void *b)
{
    return strcmp(((const dt_cpu *)a)->name, ((const dt_cpu *)b)->name);
}

/* The cpu nodes: device_type "cpu" (or, without one, a name "cpu@..."), not cpu-map
 * or idle-states. */
static void read_cpu_nodes(dt_state *s)
{
    char path[2 * DT_PATH_MAX];
    snprintf(path, sizeof path, "%s/cpus", s->base);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && s->ncpus < DT_MAX_CPU_NODES && (e = readdir(d)) != NULL) {
        char rel[DT_PATH_MAX], text[16];
        if (e->d_name[0] == '.' || strlen(e->d_name) >= DT_NAME_MAX)
            continue;
        snprintf(rel, sizeof rel, "cpus/%s", e->d_name);
        snprintf(path, sizeof path, "%s/%s", s->base, rel);
        if (!is_dir(path))
            continue;
        prop_string(s, rel, "device_type", text, sizeof text);
        if (strcmp(text, "cpu") != 0 && (text[0] || strncmp(e->d_name, "cpu@", 4) != 0))
            continue;
        dt_cpu *c = &s->cpus[s->ncpus++];
        memset(c, 0, sizeof *c);
        memcpy(c->name, e->d_name, strlen(e->d_name) + 1); /* shorter than DT_NAME_MAX: checked above */
        unsigned char reg[8];
        long len = prop(s, rel, "reg", reg, sizeof reg);
        c->has_reg = len == 4 || len == 8; /* #address-cells 1 or 2 */
        for (long i = 0; c->has_reg && i < len; i++)
            c->reg = c->reg << 8 | reg[i];
        prop_string(s, rel, "status", text, sizeof text);
        c->disabled = text[0] && strcmp(text, "okay") != 0 && strcmp(text, "ok") != 0;
        c->l1 = read_props(s, rel, true);
        c->next = next_link(s, rel);
    }
    if (d)
        closedir(d);
    qsort(s->cpus, s->ncpus, sizeof *s->cpus, compare_name);
}

/* cpuN/of_node links to .../devicetree/base/cpus/NAME: the link's text is compared,
 * never followed, so a recorded tree cannot lead outside its root. Returns how many
 * online CPUs have a link. */
static size_t map_by_of_node(dt_state *s)
{
    size_t links = 0;
    for (size_t i = 0; i < s->t->ncpus; i++) {
        char path[DT_PATH_MAX], target[DT_PATH_MAX];
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/of_node", s->sys_root, s->t->cpus[i].id);
        ssize_t len = readlink(path, target, sizeof target - 1);
        if (len <= 0)
            continue;
        links++;
        while (len > 1 && target[len - 1] == '/')
            len--;
        target[len] = '\0';
        char *name = strrchr(target, '/');
        if (!name)
            continue;
        *name++ = '\0';
        const char *parent = strrchr(target, '/');
        if (strcmp(parent ? parent + 1 : target, "cpus") != 0)
            continue;
        for (size_t k = 0; k < s->ncpus; k++)
            if (strcmp(s->cpus[k].name, name) == 0)
                s->node_of[i] = (int)k;
    }
    return links;
}

typedef struct {
    uint64_t reg;
    size_t node;
} dt_reg_order;

static int compare_reg(const void *a, const void *b)
{
    uint64_t x = ((const dt_reg_order *)a)->reg, y = ((const dt_reg_order *)b)->reg;
    return (x > y) - (x < y);
}

/* Without of_node links: the enabled cpu nodes in ascending reg order are the online
 * CPUs in ascending id order (Linux numbers them in tree order, which is reg order
 * on most trees), only when the counts match and every reg is known and distinct. */
static bool map_by_reg(dt_state *s)
{
    dt_reg_order *order = malloc(sizeof *order * (s->ncpus ? s->ncpus : 1));
    size_t n = 0;
    bool ok = order != NULL;
    for (size_t k = 0; ok && k < s->ncpus; k++) {
        if (!s->cpus[k].disabled)
            order[n++] = (dt_reg_order){s->cpus[k].reg, k};
        ok = s->cpus[k].disabled || s->cpus[k].has_reg;
    }
    ok = ok && n == s->t->ncpus && n > 0;
    if (ok)
        qsort(order, n, sizeof *order, compare_reg);
    for (size_t i = 1; ok && i < n; i++)
        ok = order[i].reg != order[i - 1].reg;
    for (size_t i = 0; ok && i < n; i++)
        s->node_of[i] = (int)order[i].node;
    if (ok)
        add_note(s, "no cpuN/of_node links: its %zu cpu nodes paired with the online CPUs in "
                    "ascending reg order", n);
    else
        add_note(s, "no cpuN/of_node links, and %zu enabled cpu nodes for %zu online CPUs "
                    "cannot be paired by reg: its caches are not used", n, s->t->ncpus);
    free(order);
    return ok;
}

static void mark(dt_state *s, dt_cache *c, size_t node)
{
    for (size_t i = 0; c->member && i < s->t->ncpus; i++)
        if (s->node_of[i] == (int)node)
            c->member[i] = 1;
}

/* Walks cpu node k's chain, making its CPUs sharers of each cache on it. A level
 * that does not go up, a loop, a dangling link or level DT_MAX_LEVELS ends it. */
static void follow(dt_state *s, size_t k)
{
    uint32_t seen[DT_MAX_LEVELS];
    size_t nseen = 0;
    int level = 1;
    for (uint32_t next = s->cpus[k].next; next && level < DT_MAX_LEVELS;) {
        for (size_t i = 0; i < nseen; i++)
            if (seen[i] == next)
                return;
        seen[nseen++] = next;
        dt_cache *c = lookup(s, next);
        if (!c || c->declared_level < 0)
            return;
        int lv = c->declared_level ? c->declared_level : level + 1;
        if (lv <= level)
            return;
        if (c->level == 0)
            c->level = lv;
        mark(s, c, k);
        level = lv;
        next = c->next;
    }
}

static bool push(cache_instance **list, size_t *count, cache_instance c)
{
    cache_instance *grown = realloc(*list, (*count + 1) * sizeof *grown);
    if (!grown) {
        cpu_list_free(&c.shared);
        return false;
    }
    *list = grown;
    (*list)[(*count)++] = c;
    return true;
}

/* The ids of t->cpus whose flag (node_of == node, or member) is set, ascending. */
static cpu_list sharers(const dt_state *s, const unsigned char *member, int node)
{
    cpu_list l = {malloc(sizeof(int) * (s->t->ncpus ? s->t->ncpus : 1)), 0};
    for (size_t i = 0; l.ids && i < s->t->ncpus; i++)
        if (member ? member[i] != 0 : s->node_of[i] == node)
            l.ids[l.count++] = s->t->cpus[i].id;
    return l;
}

static bool emit_instance(const dt_state *s, cache_instance **list, size_t *count, int level, dt_props p,
                          const unsigned char *member, int node)
{
    cpu_list l = sharers(s, member, node);
    if (l.count == 0) { /* only CPUs that are not online reach it */
        cpu_list_free(&l);
        return true;
    }
    return push(list, count, (cache_instance){level, p.type, p.size, p.line, l, CACHE_FROM_DEVICE_TREE});
}

static int compare_instance(const void *a, const void *b)
{
    const cache_instance *x = a, *y = b;
    if (x->level != y->level)
        return (x->level > y->level) - (x->level < y->level);
    return (x->shared.ids[0] > y->shared.ids[0]) - (x->shared.ids[0] < y->shared.ids[0]);
}

/* Level 1 from the cpu nodes, then every cache node reached, by level and first CPU. */
static void collect(dt_state *s, cache_instance **list, size_t *count)
{
    for (size_t k = 0; k < s->ncpus; k++)
        if (s->cpus[k].l1.size && !emit_instance(s, list, count, 1, s->cpus[k].l1, NULL, (int)k))
            return;
    for (size_t i = 0; i < s->ncaches; i++) {
        const dt_cache *c = &s->caches[i];
        if (c->level > 0 && c->props.size && !emit_instance(s, list, count, c->level, c->props, c->member, -1))
            return;
    }
    if (*count > 1)
        qsort(*list, *count, sizeof **list, compare_instance);
}

static void state_free(dt_state *s)
{
    for (size_t i = 0; i < s->nindex; i++)
        free(s->index[i].rel);
    for (size_t i = 0; i < s->ncaches; i++)
        free(s->caches[i].member);
    free(s->index);
    free(s->node_of);
    free(s->cpus);
}

/* Finds the caches into list; s is set up. */
static void find_caches(dt_state *s, cache_instance **list, size_t *count)
{
    read_cpu_nodes(s);
    if (s->ncpus == 0)
        return;
    for (size_t i = 0; i < s->t->ncpus; i++)
        s->node_of[i] = -1;
    size_t links = map_by_of_node(s);
    if (links == 0 && !map_by_reg(s))
        return;
    bool mapped = false;
    for (size_t i = 0; i < s->t->ncpus && !mapped; i++)
        mapped = s->node_of[i] >= 0;
    if (!mapped) {
        add_note(s, "the CPUs' of_node links name no cpu node under cpus/: its caches are not used");
        return;
    }
    for (size_t k = 0; k < s->ncpus; k++)
        follow(s, k);
    if (s->too_many_caches)
        add_note(s, "more than %d cache nodes: the rest are left out", DT_MAX_CACHE_NODES);
    collect(s, list, count);
}

bool devicetree_caches(const char *sys_root, const topology *t, cache_instance **out, size_t *n, char *note,
                       size_t notelen)
{
    dt_state *s = calloc(1, sizeof *s);
    if (note && notelen)
        note[0] = '\0';
    if (!s)
        return false;
    s->sys_root = sys_root;
    s->t = t;
    s->note = note;
    s->notelen = notelen;
    snprintf(s->base, sizeof s->base, "%s/firmware/devicetree/base", sys_root);
    s->cpus = malloc(sizeof *s->cpus * DT_MAX_CPU_NODES);
    s->node_of = malloc(sizeof *s->node_of * (t->ncpus ? t->ncpus : 1));
    s->index = malloc(sizeof *s->index * DT_INDEX_MAX);
    cache_instance *list = NULL;
    size_t count = 0;
    if (s->cpus && s->node_of && s->index && t->ncpus > 0)
        find_caches(s, &list, &count);
    state_free(s);
    free(s);
    cache_instance *grown = count ? realloc(*out, (*n + count) * sizeof *grown) : NULL;
    if (grown) {
        memcpy(grown + *n, list, count * sizeof *list);
        *out = grown;
        *n += count;
    } else {
        for (size_t i = 0; i < count; i++)
            cpu_list_free(&list[i].shared);
    }
    free(list);
    return grown != NULL;
}
