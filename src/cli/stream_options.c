#include "cli/cli_errors.h"
#include "cli/stream_options.h"

#include <getopt.h>
#include <string.h>

#include "cli/thread_options.h"
#include "kernels/isa.h"
#include "kernels/kernel.h"
#include "util/parse_number.h"
#include "util/parse_size.h"

#define MAX_ELEMENTS (1ULL << 40)

enum { OPT_SIZE = 256, OPT_NTIMES, OPT_STORES, OPT_SCAN, OPT_PEAK, OPT_CPUS, OPT_OVERSUB, OPT_KERNEL, OPT_JSON };

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},          {"size", required_argument, NULL, OPT_SIZE},
    {"ntimes", required_argument, NULL, OPT_NTIMES}, {"stores", required_argument, NULL, OPT_STORES},
    {"scan", no_argument, NULL, OPT_SCAN},      {"peak-gbs", required_argument, NULL, OPT_PEAK},
    {"cpus", required_argument, NULL, OPT_CPUS}, {"oversubscribe", no_argument, NULL, OPT_OVERSUB},
    {"kernel", required_argument, NULL, OPT_KERNEL}, {"json", required_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

void stream_usage(FILE *out)
{
    char isas[128];
    fprintf(out,
          "Usage: membench stream [options]\n"
          "STREAM's Copy, Scale, Add and Triad over three double arrays, with STREAM's byte\n"
          "counting (16 B per element for Copy/Scale, 24 for Add/Triad), table and validation.\n"
          "\n"
          "  -n N                elements per array (default: 4x the total last-level cache)\n"
          "  --size SIZE         bytes per array instead (K, M or G; bare number is KiB)\n"
          "  --ntimes N          iterations (default 10; the first is not counted)\n"
          "  --stores KIND       regular, nt (non-temporal) or both (default: both where the\n"
          "                      CPU has non-temporal stores, else regular)\n"
          "  --scan              try 1, 2, 4 ... N threads (and one per L3 domain); report best\n"
          "  --peak-gbs X        theoretical peak in GB/s (default: from SMBIOS, if readable)\n"
          "  -p N                threads (default: all usable CPUs, or OMP_NUM_THREADS)\n"
          "  --cpus LIST         pin thread i to the i-th CPU of LIST\n"
          "  --oversubscribe     allow more threads than CPUs\n"
          "  --kernel ISA        %s\n"
          "  --json FILE         also write the results as JSON\n"
          "  -v                  more detail on stderr\n"
          "Exit status: 0 validated, 1 validation failed, 2 bad input, 130/143 interrupted.\n",
          isa_choices(isas, sizeof isas));
}

parse_result stream_options_parse(int argc, char **argv, env_lookup env, stream_options *o, char *err,
                                  size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->ntimes = 10;
    o->stores = STORES_BOTH;
    if (omp_env_parse(env, &o->threads, &o->omp_bind, &o->omp_places, err, errlen) != PARSE_OK)
        return PARSE_ERROR;
    optind = 0; /* 0, not 1: glibc then also forgets a half-parsed "-xyz" from an earlier call */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hvn:p:", long_options, NULL)) != -1) {
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
        case 'n':
            if (o->n_given)
                return cli_fail(err, errlen, "-n '%s': the array size is already given (-n or --size, once)", a);
            if (!parse_u64(a, 1000, MAX_ELEMENTS, &u))
                return cli_fail(err, errlen, "-n '%s': elements per array must be a whole number of at least 1000", a);
            o->n = u;
            o->n_given = true;
            break;
        case OPT_SIZE:
            if (o->n_given)
                return cli_fail(err, errlen, "--size '%s': the array size is already given (-n or --size, once)", a);
            if (!parse_size(a, 8000, MAX_ELEMENTS * 8, &u))
                return cli_fail(err, errlen, "--size '%s': not a size of at least 8000 bytes (e.g. 64M, 1G)", a);
            o->n = u / sizeof(double);
            o->n_given = true;
            break;
        case OPT_NTIMES:
            if (!parse_u64(a, 2, 1000, &u))
                return cli_fail(err, errlen, "--ntimes '%s': must be a whole number from 2 to 1000", a);
            o->ntimes = (int)u;
            break;
        case OPT_STORES:
            if (!strcmp(a, "regular"))
                o->stores = STORES_REGULAR;
            else if (!strcmp(a, "nt"))
                o->stores = STORES_NT;
            else if (!strcmp(a, "both"))
                o->stores = STORES_BOTH;
            else
                return cli_fail(err, errlen, "--stores '%s': use regular, nt or both", a);
            o->stores_given = true;
            break;
        case OPT_SCAN:
            o->scan = true;
            break;
        case OPT_PEAK:
            if (!parse_double(a, 0.001, 1e7, &d))
                return cli_fail(err, errlen, "--peak-gbs '%s': must be a positive number of GB/s", a);
            o->peak_gbs = d;
            break;
        case 'p':
            if (parse_threads_option(a, &o->threads, err, errlen) != PARSE_OK)
                return PARSE_ERROR;
            o->threads_from_p = true;
            break;
        case OPT_CPUS:
            if (parse_cpus_option(a, &o->cpus, err, errlen) != PARSE_OK)
                return PARSE_ERROR;
            o->cpus_given = true;
            break;
        case OPT_OVERSUB:
            o->oversubscribe = true;
            break;
        case OPT_KERNEL: {
            const char *const *isas = isa_choice_names(); /* from the ISA table */
            if (parse_kernel_option(a, isas, &o->kernel_isa, err, errlen) != PARSE_OK)
                return PARSE_ERROR;
            break;
        }
        case OPT_JSON:
            if (!*a)
                return cli_fail(err, errlen, "--json: file name is empty");
            o->json_path = a;
            break;
        default:
            return cli_getopt_error(c, argv, "membench stream", err, errlen);
        }
    }
    if (optind < argc)
        return cli_fail(err, errlen, "unexpected argument '%s' (see membench stream --help)", argv[optind]);
    if (o->scan && (o->threads_from_p || o->cpus_given))
        return cli_fail(err, errlen, "--scan chooses thread counts itself: drop -p/--cpus");
    /* the kernel table says which ISAs have non-temporal STREAM kernels (not c) */
    if (o->kernel_isa && o->stores_given && (o->stores & STORES_NT) &&
        !kernel_choose(KERNEL_STREAM, STREAM_COPY, STORE_NONTEMPORAL, o->kernel_isa, false))
        return cli_fail(err, errlen, "--kernel %s has no non-temporal stores: add --stores regular", o->kernel_isa);
    return PARSE_OK;
}

void stream_options_free(stream_options *o)
{
    cpu_list_free(&o->cpus);
}
