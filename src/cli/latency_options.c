#include "cli/cli_errors.h"
#include "cli/latency_options.h"

#include <getopt.h>
#include <string.h>

#include "util/parse_number.h"
#include "util/parse_size.h"

#define MAX_LATENCY_BYTES (1ULL << 40)

enum {
    OPT_MIN = 256,
    OPT_MAX,
    OPT_PPO,
    OPT_STRIDE,
    OPT_PAGE_LOCAL,
    OPT_PAGES,
    OPT_SEED,
    OPT_SAMPLE_MS,
    OPT_CPU,
    OPT_MEM_NODE,
    OPT_CSV,
    OPT_JSON
};

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"min", required_argument, NULL, OPT_MIN},
    {"max", required_argument, NULL, OPT_MAX},
    {"points-per-octave", required_argument, NULL, OPT_PPO},
    {"stride", required_argument, NULL, OPT_STRIDE},
    {"page-local", no_argument, NULL, OPT_PAGE_LOCAL},
    {"pages", required_argument, NULL, OPT_PAGES},
    {"seed", required_argument, NULL, OPT_SEED},
    {"sample-ms", required_argument, NULL, OPT_SAMPLE_MS},
    {"cpu", required_argument, NULL, OPT_CPU},
    {"mem-node", required_argument, NULL, OPT_MEM_NODE},
    {"csv", no_argument, NULL, OPT_CSV},
    {"json", required_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

const char *latency_pages_name(latency_pages p)
{
    static const char *names[] = {"default", "4k", "2m", "1g", "thp"};
    return names[p];
}

void latency_usage(FILE *out)
{
    fputs("Usage: membench latency [options]\n"
          "Latency curve of dependent loads (pointer chasing) from --min to --max, one pinned\n"
          "thread, memory on its node. Estimates the cache sizes from where latency steps up\n"
          "and compares them with the sizes the system reports.\n"
          "\n"
          "  --min SIZE              smallest buffer (default 4K); SIZE takes K, M or G,\n"
          "                          a bare number is KiB\n"
          "  --max SIZE              largest buffer (default 2x the last-level cache)\n"
          "  --points-per-octave N   sizes per doubling (default 4)\n"
          "  --stride BYTES          lmbench-style fixed stride instead of random order\n"
          "  --page-local            random within each page, pages in random order\n"
          "                          (separates TLB misses from cache misses)\n"
          "  --pages 4k|2m|1g|thp    page size to use; what was obtained is verified\n"
          "  --seed N                seed of the random order (default 1)\n"
          "  --sample-ms MS          duration of one sample (default 20); 7-21 samples,\n"
          "                          until CV < 5%\n"
          "  --cpu N                 CPU to run on (default: the first usable)\n"
          "  --mem-node N            memory on NUMA node N instead of the CPU's own\n"
          "                          (remote latency, as numactl --membind)\n"
          "  --csv                   CSV instead of a table\n"
          "  --json FILE             also write the curve and estimates as JSON\n"
          "  -v                      more detail on stderr\n",
          out);
}

parse_result latency_options_parse(int argc, char **argv, latency_options *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->min_bytes = 4096;
    o->points_per_octave = 4;
    o->order = CHASE_RANDOM;
    o->seed = 1;
    o->sample_ms = 20;
    o->cpu = -1;
    o->mem_node = -1;
    bool page_local = false;
    optind = 0; /* 0, not 1: glibc then also forgets a half-parsed "-xyz" from an earlier call */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hv", long_options, NULL)) != -1) {
        const char *a = optarg;
        uint64_t u;
        double d;
        switch (c) {
        case 'h':
            o->help = true;
            return PARSE_EXIT_OK;
        case 'v':
            o->verbose++;
            break;
        case OPT_MIN:
            if (!parse_size(a, 4096, MAX_LATENCY_BYTES, &o->min_bytes))
                return cli_fail(err, errlen, "--min '%s': not a size of at least 4K (e.g. 16K, 2M, 1G)", a);
            break;
        case OPT_MAX:
            if (!parse_size(a, 4096, MAX_LATENCY_BYTES, &o->max_bytes))
                return cli_fail(err, errlen, "--max '%s': not a size of at least 4K (e.g. 64M, 1G)", a);
            break;
        case OPT_PPO:
            if (!parse_u64(a, 1, 64, &u))
                return cli_fail(err, errlen, "--points-per-octave '%s': must be a whole number from 1 to 64", a);
            o->points_per_octave = (int)u;
            break;
        case OPT_STRIDE:
            if (!parse_u64(a, 8, 1 << 20, &u) || u % 8 != 0)
                return cli_fail(err, errlen, "--stride '%s': must be a multiple of 8 bytes from 8 to 1048576", a);
            o->stride = u;
            o->order = CHASE_STRIDED;
            break;
        case OPT_PAGE_LOCAL:
            page_local = true;
            break;
        case OPT_PAGES:
            if (!strcmp(a, "4k"))
                o->pages = LAT_PAGES_4K;
            else if (!strcmp(a, "2m"))
                o->pages = LAT_PAGES_2M;
            else if (!strcmp(a, "1g"))
                o->pages = LAT_PAGES_1G;
            else if (!strcmp(a, "thp"))
                o->pages = LAT_PAGES_THP;
            else
                return cli_fail(err, errlen, "--pages '%s': use 4k, 2m, 1g or thp", a);
            break;
        case OPT_SEED:
            if (!parse_u64(a, 0, UINT64_MAX, &u))
                return cli_fail(err, errlen, "--seed '%s': must be a whole number >= 0", a);
            o->seed = u;
            break;
        case OPT_SAMPLE_MS:
            if (!parse_double(a, 0.1, 100000, &d))
                return cli_fail(err, errlen, "--sample-ms '%s': must be a number from 0.1 to 100000", a);
            o->sample_ms = d;
            break;
        case OPT_CPU:
            if (!parse_u64(a, 0, CPU_LIST_MAX_ID, &u))
                return cli_fail(err, errlen, "--cpu '%s': not a CPU number", a);
            o->cpu = (int)u;
            break;
        case OPT_MEM_NODE:
            if (!parse_u64(a, 0, 4095, &u))
                return cli_fail(err, errlen, "--mem-node '%s': not a NUMA node number", a);
            o->mem_node = (int)u;
            break;
        case OPT_CSV:
            o->csv = true;
            break;
        case OPT_JSON:
            if (!*a)
                return cli_fail(err, errlen, "--json: file name is empty");
            o->json_path = a;
            break;
        default:
            return cli_getopt_error(c, argv, "membench latency", err, errlen);
        }
    }
    if (optind < argc)
        return cli_fail(err, errlen, "unexpected argument '%s' (see membench latency --help)", argv[optind]);
    if (page_local && o->order == CHASE_STRIDED)
        return cli_fail(err, errlen, "--page-local and --stride conflict: choose one order");
    if (page_local)
        o->order = CHASE_PAGE_LOCAL;
    if (o->max_bytes && o->max_bytes < o->min_bytes) {
        snprintf(err, errlen, "--max (%llu KiB) is smaller than --min (%llu KiB)",
                 (unsigned long long)(o->max_bytes >> 10), (unsigned long long)(o->min_bytes >> 10));
        return PARSE_ERROR;
    }
    return PARSE_OK;
}
