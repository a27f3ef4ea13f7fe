/* SPDX-License-Identifier: MIT */
/* libFuzzer target for recorded sysfs trees (`membench topology --sysfs DIR`):
 * the input becomes a small tree in a temporary directory, topology_load reads
 * it, the text report and the topology JSON are written, and what the loader
 * and the report promise is checked (counts bounded and consistent, CPUs in
 * ascending order, every usable CPU online, the JSON strict RFC 8259 with the
 * counts it names).
 *
 * Input: lines, each one of
 *   PATH=VALUE    a file at PATH, under the tree's root, holding exactly VALUE
 *   PATH          a directory (e.g. M/hugepages/hugepages-2048kB)
 *   usable=LIST   not a file: the CPU list passed as topology_load's `usable`
 *                 (as --usable; an invalid list passes an empty one)
 * PATH abbreviations: "C/" is devices/system/cpu/, "N/" devices/system/node/,
 * "M/" kernel/mm/. One range "{A-B}" in PATH (at most 256 numbers) repeats the
 * line for each number, and "{}" in VALUE is that number. VALUE escapes
 * (decoded after "{}"): \n a newline, \\ a backslash, \xHH any byte. Lines with
 * a NUL byte and paths with empty, "." or ".." components are skipped; a later
 * line for the same file replaces it. fuzz/sysfs_to_input.py writes a recorded
 * tree in this form; FUZZ_SYSFS_TREE=DIR keeps the tree of one input in DIR. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "output/json.h"
#include "output/topology_report.h"
#include "strict_json.h"
#include "util/one_line.h"
#include "topology/topology.h"
#include "util/cpu_list.h"

#define MAX_FILES 8192 /* per input, ranges counted: keeps one input fast */
#define MAX_RANGE 256

static char base[64];  /* this process's directory, removed at exit */
static char root[128]; /* base/t: the tree of one input */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_base(void)
{
    remove_tree(base);
}

/* mkdir -p, trying the whole path first (its parents mostly exist already). */
static bool make_dirs(char *path)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return true;
    char *slash = strrchr(path, '/');
    if (errno != ENOENT || !slash || slash == path)
        return false;
    *slash = '\0';
    bool ok = make_dirs(path);
    *slash = '/';
    return ok && (mkdir(path, 0755) == 0 || errno == EEXIST);
}

static void write_file(char *path, const char *bytes, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT) {
        char *slash = strrchr(path, '/');
        *slash = '\0';
        bool ok = make_dirs(path);
        *slash = '/';
        if (ok)
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    }
    if (fd < 0)
        return;
    ssize_t w = n ? write(fd, bytes, n) : 0;
    (void)w;
    close(fd);
}

/* Decodes the escapes of value[0..n) into out (n bytes or more); returns its length. */
static size_t unescape(const char *value, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (value[i] == '\\' && i + 1 < n && value[i + 1] == 'n') {
            out[o++] = '\n', i++;
        } else if (value[i] == '\\' && i + 1 < n && value[i + 1] == '\\') {
            out[o++] = '\\', i++;
        } else if (value[i] == '\\' && i + 3 < n && value[i + 1] == 'x') {
            char hex[3] = {value[i + 2], value[i + 3], '\0'}, *end;
            long b = strtol(hex, &end, 16);
            if (*end == '\0' && hex[0] != '-' && hex[0] != '+' && hex[0] != ' ') {
                out[o++] = (char)b, i += 3;
            } else {
                out[o++] = value[i];
            }
        } else {
            out[o++] = value[i];
        }
    }
    return o;
}

/* Whether rel is a relative path of ordinary components. */
static bool path_ok(const char *rel)
{
    if (*rel == '\0' || strlen(rel) > 400)
        return false;
    for (const char *c = rel; c;) {
        const char *slash = strchr(c, '/');
        size_t len = slash ? (size_t)(slash - c) : strlen(c);
        if (len == 0 || len > 200 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        c = slash ? slash + 1 : NULL;
    }
    return true;
}

typedef struct {
    cpu_list usable;
    bool usable_given;
    int files;
} tree_state;

static void apply_line(const char *line, size_t len, tree_state *st)
{
    const char *eq = memchr(line, '=', len);
    size_t plen = eq ? (size_t)(eq - line) : len;
    char raw[512];
    if (plen >= 400)
        return;
    memcpy(raw, line, plen);
    raw[plen] = '\0';
    const char *value = eq ? eq + 1 : "";
    size_t vlen = eq ? len - plen - 1 : 0;
    /* the value with "{}" replaced (range lines), then unescaped */
    char *subst = malloc(vlen * 12 + 1), *content = malloc(vlen * 12 + 1);
    if (!subst || !content)
        goto done;

    if (eq && strcmp(raw, "usable") == 0) {
        size_t n = unescape(value, vlen, content);
        content[n] = '\0';
        cpu_list_free(&st->usable);
        if (!cpu_list_parse(content, &st->usable))
            st->usable = (cpu_list){NULL, 0};
        st->usable_given = true;
        goto done;
    }
    static const char *const abbrev[][2] = {
        {"C/", "devices/system/cpu/"}, {"N/", "devices/system/node/"}, {"M/", "kernel/mm/"}};
    const char *rest = raw, *prefix = "";
    for (size_t i = 0; i < sizeof abbrev / sizeof abbrev[0]; i++)
        if (strncmp(raw, abbrev[i][0], 2) == 0) {
            prefix = abbrev[i][1];
            rest = raw + 2;
        }
    /* One range {A-B}: the line stands for B-A+1 lines. */
    long lo = 0, hi = 0;
    const char *open = strchr(rest, '{'), *close = NULL;
    if (open && open[1] >= '0' && open[1] <= '9') {
        char *end;
        lo = strtol(open + 1, &end, 10);
        if (*end == '-' && end[1] >= '0' && end[1] <= '9') {
            hi = strtol(end + 1, &end, 10);
            if (*end == '}' && lo <= hi && hi < 1000000000 && hi - lo < MAX_RANGE)
                close = end;
        }
    }
    bool range = close != NULL;
    if (!range)
        lo = hi = 0;
    for (long n = lo; n <= hi && st->files < MAX_FILES; n++) {
        char rel[1024], path[1200];
        if (range)
            snprintf(rel, sizeof rel, "%s%.*s%ld%s", prefix, (int)(open - rest), rest, n, close + 1);
        else
            snprintf(rel, sizeof rel, "%s%s", prefix, rest);
        if (!path_ok(rel))
            break;
        snprintf(path, sizeof path, "%s/%s", root, rel);
        st->files++;
        if (!eq) {
            make_dirs(path);
            continue;
        }
        size_t slen = 0;
        for (size_t i = 0; i < vlen; i++) {
            if (range && value[i] == '{' && i + 1 < vlen && value[i + 1] == '}') {
                slen += (size_t)sprintf(subst + slen, "%ld", n);
                i++;
            } else {
                subst[slen++] = value[i];
            }
        }
        write_file(path, content, unescape(subst, slen, content));
    }
done:
    free(subst);
    free(content);
}

static char *report_text(const topology *t, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    topology_report_warnings(f, "membench topology: ", t);
    topology_report_text(f, t);
    FUZZ_CHECK(fclose(f) == 0, "the report could not be written");
    return text;
}

static char *report_json(const topology *t, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    json_writer j;
    json_init(&j, f);
    topology_report_json(&j, NULL, t);
    FUZZ_CHECK(fclose(f) == 0, "the JSON could not be written");
    return text;
}

static long long json_int_member(const sj_value *o, const char *key)
{
    const sj_value *v = sj_member(o, key);
    FUZZ_CHECK(v && v->kind == SJ_NUMBER, "topology JSON: \"%s\" is not a number", key);
    return strtoll(v->text, NULL, 10);
}

static size_t json_array_member(const sj_value *o, const char *key)
{
    const sj_value *v = sj_member(o, key);
    FUZZ_CHECK(v && v->kind == SJ_ARRAY, "topology JSON: \"%s\" is not an array", key);
    return v->n;
}

/* Per CPU id (every list holds ids up to CPU_LIST_MAX_ID): what one input's
 * lists say, so the checks stay linear on a 65536-CPU tree. Cleared after use. */
static unsigned char in_usable[CPU_LIST_MAX_ID + 1], in_mask[CPU_LIST_MAX_ID + 1];
static unsigned short listing_nodes[CPU_LIST_MAX_ID + 1]; /* how many nodes list the CPU */
static int last_listing_node[CPU_LIST_MAX_ID + 1];

static void mark(unsigned char *set, const cpu_list *l, unsigned char v)
{
    for (size_t i = 0; i < l->count; i++)
        set[l->ids[i]] = v;
}

static void mark_nodes(const topology *t, bool on)
{
    for (size_t k = 0; k < t->nnodes; k++)
        for (size_t i = 0; i < t->nodes[k].cpus.count; i++) {
            int id = t->nodes[k].cpus.ids[i];
            listing_nodes[id] = on ? (unsigned short)(listing_nodes[id] + 1) : 0;
            last_listing_node[id] = t->nodes[k].id;
        }
}

/* The online CPU with this id (t->cpus is checked to be in ascending order). */
static const cpu_info *find_cpu(const topology *t, int id)
{
    size_t lo = 0, hi = t->ncpus;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->cpus[mid].id == id)
            return &t->cpus[mid];
        if (t->cpus[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void check_topology(const topology *t, const tree_state *st)
{
    FUZZ_CHECK(t->ncpus >= 1 && t->ncpus <= CPU_LIST_MAX_ID + 1, "%zu CPUs", t->ncpus);
    FUZZ_CHECK(t->usable.count >= 1 && t->usable.count <= t->ncpus, "%zu usable of %zu", t->usable.count, t->ncpus);
    for (size_t i = 0; i < t->ncpus; i++)
        FUZZ_CHECK(t->cpus[i].id >= 0 && t->cpus[i].id <= CPU_LIST_MAX_ID, "CPU id %d", t->cpus[i].id);
    for (size_t i = 0; i < t->usable.count; i++)
        FUZZ_CHECK(t->usable.ids[i] >= 0 && t->usable.ids[i] <= CPU_LIST_MAX_ID, "usable id %d", t->usable.ids[i]);
    for (size_t k = 0; k < t->nnodes; k++)
        for (size_t i = 0; i < t->nodes[k].cpus.count; i++)
            FUZZ_CHECK(t->nodes[k].cpus.ids[i] >= 0 && t->nodes[k].cpus.ids[i] <= CPU_LIST_MAX_ID, "node CPU id");
    mark(in_usable, &t->usable, 1);
    if (st->usable_given)
        mark(in_mask, &st->usable, 1);
    mark_nodes(t, true);
    size_t stride = t->ncpus / 256 + 1, online_in_mask = 0;
    for (size_t i = 0; i < t->ncpus; i++) {
        const cpu_info *c = &t->cpus[i];
        FUZZ_CHECK(i == 0 || t->cpus[i - 1].id < c->id, "CPUs %d then %d: not ascending, or twice",
                   t->cpus[i - 1].id, c->id);
        FUZZ_CHECK(c->smt_rank >= 0 && (size_t)c->smt_rank < t->ncpus, "CPU %d: SMT rank %d", c->id, c->smt_rank);
        FUZZ_CHECK(c->core_id >= -1 && c->package_id >= -1, "CPU %d: core %d package %d", c->id, c->core_id,
                   c->package_id);
        FUZZ_CHECK(c->usable == in_usable[c->id], "CPU %d: usable flag and list disagree", c->id);
        if (i % stride == 0 || i + 1 == t->ncpus)
            FUZZ_CHECK(topology_cpu(t, c->id) == c, "topology_cpu(%d)", c->id);
        /* its node lists it (no node listing it: 0) */
        if (listing_nodes[c->id] == 0)
            FUZZ_CHECK(c->node == 0, "CPU %d: node %d does not list it", c->id, c->node);
        else if (listing_nodes[c->id] == 1)
            FUZZ_CHECK(c->node == last_listing_node[c->id], "CPU %d: node %d, listed by node %d", c->id, c->node,
                       last_listing_node[c->id]);
        online_in_mask += in_mask[c->id];
    }
    /* usable: at least one, all online; exactly the mask's online CPUs when it names any */
    for (size_t i = 0; i < t->usable.count; i++) {
        const cpu_info *c = find_cpu(t, t->usable.ids[i]);
        FUZZ_CHECK(c && c->usable, "usable CPU %d is not online", t->usable.ids[i]);
        if (online_in_mask)
            FUZZ_CHECK(in_mask[c->id], "CPU %d usable but not in the mask", c->id);
    }
    FUZZ_CHECK(t->usable.count == (online_in_mask ? online_in_mask : t->ncpus),
               "%zu usable, %zu online CPUs in the mask", t->usable.count, online_in_mask);
    mark(in_usable, &t->usable, 0);
    mark(in_mask, &st->usable, 0);
    mark_nodes(t, false);
    FUZZ_CHECK(t->ncores >= 1 && (size_t)t->ncores <= t->ncpus, "%d cores of %zu CPUs", t->ncores, t->ncpus);
    FUZZ_CHECK(t->npackages >= 1 && (size_t)t->npackages <= t->ncpus, "%d packages of %zu CPUs", t->npackages,
               t->ncpus);

    FUZZ_CHECK(t->nnodes >= 1 && t->nnodes <= 1024, "%zu nodes", t->nnodes);
    bool any_memory = false;
    for (size_t i = 0; i < t->nnodes; i++) {
        any_memory = any_memory || t->nodes[i].mem_total > 0;
        FUZZ_CHECK(t->nodes[i].id >= 0, "node id %d", t->nodes[i].id);
        FUZZ_CHECK(i == 0 || t->nodes[i - 1].id < t->nodes[i].id, "nodes %d then %d: not ascending, or twice",
                   t->nodes[i - 1].id, t->nodes[i].id);
        FUZZ_CHECK(topology_node(t, t->nodes[i].id) == &t->nodes[i], "topology_node(%d)", t->nodes[i].id);
    }
    for (size_t i = 0; i < t->nnodes; i++) {
        const numa_node *n = &t->nodes[i];
        const numa_node *m = topology_node(t, n->memory_node);
        FUZZ_CHECK(m != NULL, "node %d: memory node %d does not exist", n->id, n->memory_node);
        if (n->mem_total > 0 || !any_memory)
            FUZZ_CHECK(m == n, "node %d: memory from node %d", n->id, m->id);
        else
            FUZZ_CHECK(m->mem_total > 0, "memory-less node %d: memory from memory-less node %d", n->id, m->id);
        FUZZ_CHECK(topology_memory_node(t, n->id) == n->memory_node, "topology_memory_node(%d)", n->id);
    }

    FUZZ_CHECK(t->ncaches <= t->ncpus * 16, "%zu caches for %zu CPUs", t->ncaches, t->ncpus);
    for (size_t i = 0; i < t->ncaches; i++) {
        const cache_instance *c = &t->caches[i];
        FUZZ_CHECK(c->type == CACHE_DATA || c->type == CACHE_UNIFIED, "cache %zu: type %d", i, (int)c->type);
        FUZZ_CHECK(c->size > 0, "cache %zu: size 0", i);
        FUZZ_CHECK(c->line_size > 0 && c->line_size <= 4096, "cache %zu: line %d", i, c->line_size);
        FUZZ_CHECK(c->shared.count >= 1, "cache %zu: shared by no CPU", i);
    }
    for (int level = 1; level <= 3; level++) {
        cache_level cl = topology_cache_level(t, level);
        FUZZ_CHECK(cl.size > 0 && cl.line_size > 0, "L%d: size %llu line %d", level, (unsigned long long)cl.size,
                   cl.line_size);
        size_t n = t->usable.count < 256 ? t->usable.count : 256; /* it is O(n x sharers) */
        size_t sharers = topology_cache_sharers(t, level, t->usable.ids[0], t->usable.ids, n);
        FUZZ_CHECK(sharers >= 1 && sharers <= n, "L%d: %zu sharers of %zu", level, sharers, n);
    }
    (void)topology_max_cache_level(t);

    FUZZ_CHECK(t->nhuge_sizes <= TOPO_MAX_HUGE_SIZES, "%zu huge page sizes", t->nhuge_sizes);
    for (size_t i = 1; i < t->nhuge_sizes; i++)
        FUZZ_CHECK(t->huge_sizes[i - 1] <= t->huge_sizes[i], "huge page sizes not sorted");
    FUZZ_CHECK(memchr(t->thp_mode, '\0', sizeof t->thp_mode) != NULL, "thp_mode not terminated");
    FUZZ_CHECK(topology_huge_page_size(t) > 0, "huge page size 0");
    FUZZ_CHECK(t->nwarnings <= TOPO_MAX_WARNINGS, "%zu warnings", t->nwarnings);
    for (size_t i = 0; i < t->nwarnings; i++)
        FUZZ_CHECK(t->warnings[i] != NULL, "warning %zu is NULL", i);
}

static void check_reports(const topology *t)
{
    size_t len;
    char *text = report_text(t, &len);
    char head[96];
    snprintf(head, sizeof head, "CPUs: %zu online, %zu usable (", t->ncpus, t->usable.count);
    FUZZ_CHECK(strstr(text, head) != NULL, "the text report does not start with \"%s\"", head);
    FUZZ_CHECK(len > 0 && text[len - 1] == '\n', "the text report does not end a line");
    /* sysfs and CPUID text reach the terminal as text: no control or bidi character */
    FUZZ_CHECK(strlen(text) == len && one_line_is_safe(text, true), "the text report holds a control character");
    free(text);

    char *json = report_json(t, &len);
    sj_value doc;
    char err[160];
    FUZZ_CHECK(sj_parse(json, len, SJ_UNIQUE_KEYS, &doc, err, sizeof err), "topology JSON: %s\n%s", err, json);
    FUZZ_CHECK(doc.kind == SJ_OBJECT, "topology JSON is not an object");
    FUZZ_CHECK(json_int_member(&doc, "cpus_online") == (long long)t->ncpus, "cpus_online");
    FUZZ_CHECK(json_int_member(&doc, "cpus_usable_count") == (long long)t->usable.count, "cpus_usable_count");
    FUZZ_CHECK(json_int_member(&doc, "cores") == t->ncores, "cores");
    FUZZ_CHECK(json_int_member(&doc, "packages") == t->npackages, "packages");
    FUZZ_CHECK(json_array_member(&doc, "cpus") == t->ncpus, "cpus");
    FUZZ_CHECK(json_array_member(&doc, "numa_nodes") == t->nnodes, "numa_nodes");
    FUZZ_CHECK(json_array_member(&doc, "caches") == t->ncaches, "caches");
    const sj_value *caches = sj_member(&doc, "caches");
    for (size_t i = 1; i < caches->n; i++) /* "sorted by level", for stable output */
        FUZZ_CHECK(json_int_member(&caches->items[i - 1], "level") <= json_int_member(&caches->items[i], "level"),
                   "caches not sorted by level");
    FUZZ_CHECK(json_array_member(&doc, "huge_page_sizes") == t->nhuge_sizes, "huge_page_sizes");
    FUZZ_CHECK(json_array_member(&doc, "warnings") == t->nwarnings, "warnings");
    const sj_value *mode = sj_member(&doc, "thp_mode");
    FUZZ_CHECK(mode && mode->kind == SJ_STRING, "thp_mode");
    if (sj_utf8_valid((const unsigned char *)t->thp_mode, strlen(t->thp_mode)))
        FUZZ_CHECK(mode->len == strlen(t->thp_mode) && memcmp(mode->text, t->thp_mode, mode->len) == 0,
                   "thp_mode \"%s\" came back as \"%s\"", t->thp_mode, mode->text);
    sj_free(&doc);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* FUZZ_SYSFS_TREE=DIR (a directory that does not exist yet): build the tree of
     * one input there and keep it, for `membench topology --sysfs DIR`. */
    const char *keep = getenv("FUZZ_SYSFS_TREE");
    if (keep && *keep) {
        snprintf(root, sizeof root, "%s", keep);
        FUZZ_CHECK(mkdir(root, 0755) == 0, "FUZZ_SYSFS_TREE=%s: cannot create it (it must not exist)", root);
    } else if (!base[0]) {
        /* $TMPDIR, else /dev/shm (a tmpfs: many times faster for thousands of small files) */
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp || strlen(tmp) >= 32)
            tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(base, sizeof base, "%s/membench-fuzz-sysfs-XXXXXX", tmp);
        FUZZ_CHECK(mkdtemp(base) != NULL, "cannot create %s", base);
        snprintf(root, sizeof root, "%s/t", base);
        atexit(remove_base);
        fuzz_cleanup = remove_base;
    }
    if (!keep || !*keep) {
        remove_tree(root);
        FUZZ_CHECK(mkdir(root, 0755) == 0, "cannot create %s", root);
    }

    tree_state st = {{NULL, 0}, false, 0};
    for (size_t pos = 0; pos < size;) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
        if (len > 0 && !memchr(data + pos, '\0', len))
            apply_line((const char *)data + pos, len, &st);
        pos += len + 1;
    }

    topology t;
    if (topology_load(root, st.usable_given ? &st.usable : NULL, &t)) {
        check_topology(&t, &st);
        check_reports(&t);
        topology_free(&t);
    } else {
        FUZZ_CHECK(t.ncpus == 0 && t.cpus == NULL && t.nwarnings == 0, "a failed load left a topology behind");
    }
    cpu_list_free(&st.usable);
    return 0;
}
