/* libFuzzer target for everything that reads user text: CPU lists, sizes,
 * numbers, OMP_PLACES/OMP_PROC_BIND, and whole command lines of every mode.
 * The input is split at newlines: the first byte chooses the parser (0xC6: the
 * cgroup/mountinfo reader, its two texts separated by '|'). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
