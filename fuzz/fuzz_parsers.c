/* SPDX-License-Identifier: MIT */
/* libFuzzer target for everything that reads user text: CPU lists, sizes,
 * numbers, OMP_PLACES/OMP_PROC_BIND, and whole command lines of every mode.
 * The input is split at newlines: the first byte chooses the parser (0xC6: the
 * cgroup/mountinfo reader, its two texts separated by '|'; 0xC5: the OpenMP
 * environment, see omp_environment). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/omp_env.h"
#include "cli/options.h"
#include "fuzz.h"
#include "modes/mode.h"
#include "plan/omp_places.h"
#include "plan/placement.h"
#include "platform/cgroup_paths.h"
#include "topology/topology.h"
#include "util/cpu_list.h"
#include "util/parse_number.h"
#include "util/parse_size.h"

static topology topo;
static int topo_loaded;

static const char *no_env(const char *name)
{
    (void)name;
    return NULL;
}

/* The environment of one 0xC5 input; lookups of OMP_NUM_THREADS are counted. */
static const char *omp_vars[3];
static int num_threads_lookups;

static const char *omp_getenv(const char *name)
{
    if (strcmp(name, "OMP_NUM_THREADS") == 0) {
        num_threads_lookups++;
        return omp_vars[0];
    }
    if (strcmp(name, "OMP_PROC_BIND") == 0)
        return omp_vars[1];
    if (strcmp(name, "OMP_PLACES") == 0)
        return omp_vars[2];
    return NULL;
}

/* n when text is a plain thread count ("8", or the outermost of "8,4") from 1 to
 * MAX_THREADS, which every OMP_NUM_THREADS reader must take as n; else 0. */
static int plain_count(const char *text)
{
    long first = 0;
    const char *c = text;
    for (int level = 0; level == 0 || *c == ','; level++) {
        long v = 0;
        c += level > 0;
        if (*c < '1' || *c > '9')
            return 0;
        for (; *c >= '0' && *c <= '9'; c++)
            if ((v = v * 10 + (*c - '0')) > MAX_THREADS)
                return 0;
        if (level == 0)
            first = v;
    }
    return *c == '\0' ? (int)first : 0;
}

/* 0xC5: line 1 is OMP_NUM_THREADS, line 2 OMP_PROC_BIND, line 3 OMP_PLACES (a
 * line "-" or a missing line: unset); the other lines are a command line of a
 * mode that takes -p. omp_env_parse directly, then through the options. */
static void omp_environment(char *text, size_t size)
{
    char *rest = text;
    for (int i = 0; i < 3; i++) {
        char *line = rest ? strsep(&rest, "\n") : NULL;
        omp_vars[i] = line && strcmp(line, "-") != 0 ? line : NULL;
    }
    char err[512] = "";
    const char *bind = "x", *places = "x";
    int threads = -7;
    num_threads_lookups = 0;
    parse_result r = omp_env_parse(omp_getenv, &threads, &bind, &places, err, sizeof err);
    const char *n = omp_vars[0];
    FUZZ_CHECK(r == PARSE_OK || r == PARSE_ERROR, "omp_env_parse returned %d", (int)r);
    if (r == PARSE_OK) {
        FUZZ_CHECK(threads == -7 || (threads >= 1 && threads <= MAX_THREADS), "OMP_NUM_THREADS='%s': %d threads",
                   n ? n : "(unset)", threads);
        FUZZ_CHECK(n || threads == -7, "OMP_NUM_THREADS unset gave %d threads", threads);
        FUZZ_CHECK(bind == omp_vars[1] && places == omp_vars[2], "OMP_PROC_BIND/OMP_PLACES not passed on as given");
    } else {
        FUZZ_CHECK(threads == -7, "OMP_NUM_THREADS='%s' refused but %d threads set", n ? n : "", threads);
        FUZZ_CHECK(strstr(err, "OMP_NUM_THREADS") != NULL, "the error does not name OMP_NUM_THREADS: %s", err);
    }
    if (n && plain_count(n))
        FUZZ_CHECK(r == PARSE_OK && threads == plain_count(n), "OMP_NUM_THREADS='%s' gave %d threads (%s)", n,
                   threads, err);
    if (n && !strpbrk(n, "0123456789"))
        FUZZ_CHECK(r == PARSE_ERROR || threads == -7, "OMP_NUM_THREADS='%s' (no digit) gave %d threads", n, threads);
    /* threads NULL (-p given): OMP_NUM_THREADS is not read at all */
    num_threads_lookups = 0;
    omp_env_parse(omp_getenv, NULL, &bind, &places, err, sizeof err);
    FUZZ_CHECK(num_threads_lookups == 0, "OMP_NUM_THREADS read although -p was given");

    /* Through a mode's options: -p wins over OMP_NUM_THREADS, which then is not read. */
    size_t nmodes;
    const mode_def *const *modes = mode_table(&nmodes);
    const mode_def *m = modes[size % nmodes];
    char *argv[64] = {"membench"};
    int argc = 1;
    for (char *tok = rest ? strtok(rest, "\n") : NULL; tok && argc < 63; tok = strtok(NULL, "\n"))
        argv[argc++] = tok;
    argv[argc] = NULL;
    void *opts = calloc(1, m->options_size);
    if (!opts)
        return;
    num_threads_lookups = 0;
    r = mode_parse_options(m, argc, argv, omp_getenv, opts, err, sizeof err);
    const common_options *c = opts;
    if (r == PARSE_OK && c->threads_used) {
        FUZZ_CHECK(c->threads >= 0 && c->threads <= MAX_THREADS, "%s: %d threads", m->name, c->threads);
        if (c->threads_from_p)
            FUZZ_CHECK(num_threads_lookups == 0, "%s: OMP_NUM_THREADS read although -p was given", m->name);
        else if (n && plain_count(n))
            FUZZ_CHECK(c->threads == plain_count(n), "%s: OMP_NUM_THREADS='%s' gave %d threads", m->name, n,
                       c->threads);
    }
    options_free(opts);
    free(opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    if (!topo_loaded)
        topo_loaded = topology_load("/sys", NULL, &topo) ? 1 : -1;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char err[512];
    uint64_t u;
    double d;
    cpu_list l;
    if (data[0] == 0xC5) {
        omp_environment(text, size);
        free(text);
        return 0;
    }
    if (data[0] == 0xC6) {
        static cgroup_dir dirs[16];
        char *bar = strchr(text, '|');
        if (bar)
            *bar = '\0';
        cgroup_memory_dirs(text, bar ? bar + 1 : "", dirs, 16);
        free(text);
        return 0;
    }
    switch (data[0] % 6) {
    case 0:
        if (cpu_list_parse(text, &l)) {
            char buf[64];
            cpu_list_format(l.ids, l.count, buf, sizeof buf);
            cpu_list_free(&l);
        }
        break;
    case 1:
        parse_size(text, 0, UINT64_MAX, &u);
        parse_u64(text, 0, UINT64_MAX, &u);
        parse_double(text, 0, 1e9, &d);
        break;
    case 2: {
        /* the OpenMP syntax directly, then through the placement policy */
        omp_bind bind;
        omp_proc_bind_parse(text, &bind, err, sizeof err);
        if (topo_loaded > 0) {
            omp_place_list pl;
            if (omp_places_parse(&topo, text, &pl, err, sizeof err))
                omp_places_free(&pl);
            placement p;
            placement_request rq = {1 + (int)(size % 8), NULL, NULL, text, true};
            if (placement_build(&topo, &rq, &p, err, sizeof err))
                placement_free(&p);
            rq.omp_bind = text;
            rq.omp_places = NULL;
            if (placement_build(&topo, &rq, &p, err, sizeof err))
                placement_free(&p);
        }
        break;
    }
    default: {
        /* a command line: words separated by newlines */
        char *argv[64] = {"membench"};
        int argc = 1;
        for (char *tok = strtok(text, "\n"); tok && argc < 63; tok = strtok(NULL, "\n"))
            argv[argc++] = tok;
        argv[argc] = NULL;
        /* one mode per selector: every mode's option table and checks */
        size_t nmodes;
        const mode_def *const *modes = mode_table(&nmodes);
        const mode_def *m = modes[(data[0] / 6) % nmodes];
        void *opts = calloc(1, m->options_size);
        if (opts) {
            mode_parse_options(m, argc, argv, no_env, opts, err, sizeof err);
            options_free(opts);
            free(opts);
        }
    }
    }
    free(text);
    return 0;
}
