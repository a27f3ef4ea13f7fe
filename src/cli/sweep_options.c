#include "cli/cli_errors.h"
#include "cli/sweep_options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/omp_env.h"
#include "cli/thread_options.h"
#include "kernels/isa.h"
#include "kernels/kernel.h"
#include "kernels/operation.h"
#include "util/parse_number.h"

enum {
    OPT_JSON = 256,
    OPT_CPUS,
    OPT_OVERSUBSCRIBE,
    OPT_KERNEL,
    OPT_SAMPLE_MS,
    OPT_LATENCY_SAMPLE_MS,
    OPT_SEED,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"json", required_argument, NULL, OPT_JSON},
    {"cpus", required_argument, NULL, OPT_CPUS},
    {"oversubscribe", no_argument, NULL, OPT_OVERSUBSCRIBE},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"sample-ms", required_argument, NULL, OPT_SAMPLE_MS},
    {"latency-sample-ms", required_argument, NULL, OPT_LATENCY_SAMPLE_MS},
    {"seed", required_argument, NULL, OPT_SEED},
    {NULL, 0, NULL, 0},
};

void sweep_usage(FILE *out)
{
    char isas[128];
    fprintf(out,
          "membench - memory bandwidth and latency benchmark (sc-membench compatible)\n"
          "\n"
          "Usage: membench [options]            bandwidth/latency sweep (CSV on stdout)\n"
          "       membench latency [options]    latency curve and the cache sizes it implies\n"
          "                                     (membench latency --help)\n"
          "       membench stream [options]     STREAM: Copy/Scale/Add/Triad, regular and NT stores\n"
          "                                     (membench stream --help)\n"
          "       membench topology [--json]    what the machine is: CPUs, caches, nodes, pages\n"
          "\n"
          "sc-membench options (same meaning):\n"
          "  -h          Show this help\n"
          "  -V          Print version and exit (also --version)\n"
          "  -v          Verbose output on stderr (use -vv for more detail)\n"
          "  -s SIZE_KB  Test only this buffer size per thread (in KB), e.g. -s 1024\n"
          "  -r TRIES    Timed samples per test, best is reported (default: 3)\n"
          "  -f          Full sweep: add sizes from 512 MB up to the memory limit\n"
          "  -p THREADS  Use exactly this many threads (default: all usable CPUs)\n"
          "  -a          Auto-scaling: try 1,2,4,...,N threads, report the best per size\n"
          "  -t SECONDS  Maximum runtime, 0 = unlimited (honoured within about a second)\n"
          "  -o OP       Run only this operation; repeatable. read, write, copy, latency\n"
          "              (default set), and write-nt, copy-nt (non-temporal stores), memcpy\n"
          "  -H          Huge pages for buffers >= 2x the huge page size: MAP_HUGETLB, then\n"
          "              THP (madvise), then normal pages; the coverage obtained is checked\n"
          "  -R          Human-readable table, summary and scores (default: CSV)\n"
          "\n"
          "membench options:\n"
          "  --json FILE          Also write the whole run as one JSON document to FILE\n"
          "                       (rewritten atomically after every result)\n"
          "  --cpus LIST          Pin thread i to the i-th CPU of LIST, e.g. 0-7,16\n"
          "  --oversubscribe      Allow more threads than CPUs\n"
          "  --kernel ISA         Use this kernel ISA instead of the best: %s\n"
          "  --sample-ms MS       Minimum duration of one bandwidth sample (default: 10)\n"
          "  --latency-sample-ms MS  Duration of one latency sample (default: 20)\n"
          "  --seed N             Seed of the latency chase order (default: 1)\n"
          "\n"
          "Environment: OMP_NUM_THREADS (thread count), OMP_PROC_BIND (spread, close,\n"
          "master, false), OMP_PLACES (threads, cores, sockets, numa_domains, ll_caches,\n"
          "or {0,1},{2:2}). --cpus and -p take precedence.\n"
          "\n"
          "CSV columns: size_kb (per thread), operation, bandwidth_mb_s (10^6 bytes/s, all\n"
          "threads; copy counts the buffer size once), latency_ns (median),\n"
          "latency_stddev_ns, latency_samples, threads, iterations (kernel passes per\n"
          "sample; latency: samples), elapsed_s (best sample; latency: whole test).\n"
          "Exit status: 0 done, 1 measurement failed, 2 bad input, 130/143 interrupted.\n",
          isa_choices(isas, sizeof isas));
}

parse_result sweep_options_parse(int argc, char **argv, env_lookup env, sweep_options *o, char *err,
                                 size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->tries = 3;
    o->ops_mask = OP_MASK_DEFAULT;
    o->sample_ms = 10;
    o->latency_sample_ms = 20;
    o->seed = 1;
    parse_result r = omp_env_parse(env, &o->threads, &o->omp_bind, &o->omp_places, err, errlen);
    if (r != PARSE_OK)
        return r;

    optind = 0; /* 0, not 1: glibc then also forgets a half-parsed "-xyz" from an earlier call */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hVvs:r:fp:at:o:HR", long_options, NULL)) != -1) {
        const char *a = optarg;
        uint64_t u;
        double d;
        switch (c) {
        case 'h':
            o->help = true;
            return PARSE_EXIT_OK;
        case 'V':
        case OPT_VERSION:
            o->version = true;
            return PARSE_EXIT_OK;
        case 'v':
            o->verbose++;
            break;
        case 's':
            if (!parse_u64(a, 4, MAX_SIZE_KB, &u))
                return cli_fail(err, errlen, "-s '%s': size must be a whole number of KB, at least 4", a);
            o->single_size_kb = u;
            break;
        case 'r':
            if (!parse_u64(a, 1, MAX_TRIES, &u))
                return cli_fail(err, errlen, "-r '%s': tries must be a whole number from 1 to 1000", a);
            o->tries = (int)u;
            break;
        case 'f':
            o->full = true;
            break;
        case 'p':
            if (parse_threads_option(a, &o->threads, err, errlen) != PARSE_OK)
                return PARSE_ERROR;
            o->threads_from_p = true;
            break;
        case 'a':
            o->auto_scale = true;
            break;
        case 't':
            if (!parse_double(a, 0, 1e9, &d))
                return cli_fail(err, errlen, "-t '%s': seconds must be a number >= 0 (0 = unlimited)", a);
            o->max_runtime = d;
            break;
        case 'o': {
            mb_op op;
            if (!op_parse(a, &op))
                return cli_fail(err, errlen,
                                "-o '%s': unknown operation (use read, write, copy, latency, write-nt, copy-nt, memcpy)",
                                a);
            if (!o->ops_given)
                o->ops_mask = 0;
            o->ops_given = true;
            o->ops_mask |= OP_MASK(op);
            break;
        }
        case 'H':
            o->huge = true;
            break;
        case 'R':
            o->human = true;
            break;
        case OPT_JSON:
            if (!*a)
                return cli_fail(err, errlen, "--json: file name is empty");
            o->json_path = a;
            break;
        case OPT_CPUS:
            if (parse_cpus_option(a, &o->cpus, err, errlen) != PARSE_OK)
                return PARSE_ERROR;
            o->cpus_given = true;
            break;
        case OPT_OVERSUBSCRIBE:
            o->oversubscribe = true;
            break;
        case OPT_KERNEL: {
            const char *const *isas = isa_choice_names(); /* from the ISA table */
            if (parse_kernel_option(a, isas, &o->kernel_isa, err, errlen) != PARSE_OK)
                return PARSE_ERROR;
            break;
        }
        case OPT_SAMPLE_MS:
            if (!parse_double(a, 0.1, 100000, &d))
                return cli_fail(err, errlen, "--sample-ms '%s': must be a number from 0.1 to 100000", a);
            o->sample_ms = d;
            break;
        case OPT_LATENCY_SAMPLE_MS:
            if (!parse_double(a, 0.1, 100000, &d))
                return cli_fail(err, errlen, "--latency-sample-ms '%s': must be a number from 0.1 to 100000", a);
            o->latency_sample_ms = d;
            break;
        case OPT_SEED:
            if (!parse_u64(a, 0, UINT64_MAX, &u))
                return cli_fail(err, errlen, "--seed '%s': must be a whole number >= 0", a);
            o->seed = u;
            break;
        default:
            return cli_getopt_error(c, argv, "membench", err, errlen);
        }
    }
    if (optind < argc)
        return cli_fail(err, errlen, "unexpected argument '%s' (see membench --help)", argv[optind]);
    if (o->cpus_given && o->threads_from_p && (size_t)o->threads > o->cpus.count && !o->oversubscribe) {
        snprintf(err, errlen, "-p %d is more than the %zu CPUs given in --cpus (add --oversubscribe)", o->threads,
                 o->cpus.count);
        return PARSE_ERROR;
    }
    if (o->auto_scale && o->threads_from_p)
        return cli_fail(err, errlen, "-a and -p conflict: -a tries thread counts itself");
    if (o->full && o->single_size_kb)
        return cli_fail(err, errlen, "-f and -s conflict: -s tests one size, -f adds sizes up to the memory limit");
    return PARSE_OK;
}

void sweep_options_free(sweep_options *o)
{
    cpu_list_free(&o->cpus);
}
