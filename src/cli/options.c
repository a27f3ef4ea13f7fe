/* SPDX-License-Identifier: MIT */
#include "cli/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_errors.h"
#include "cli/thread_options.h"
#include "kernels/isa.h"
#include "memory/page_policy.h"
#include "util/parse_number.h"
#include "util/parse_size.h"

#define MAX_SPECS 64
#define HELP_COLUMN 25
#define NEGATED 1024 /* getopt codes of --no-NAME: NEGATED + the spec's index */

#define COMMON(field) offsetof(common_options, field)

static parse_result parse_cpus(void *opts, const char *arg, char *err, size_t errlen)
{
    return parse_cpus_option(arg, &((common_options *)opts)->cpus, err, errlen);
}

static parse_result parse_kernel(void *opts, const char *arg, char *err, size_t errlen)
{
    return parse_kernel_option(arg, &((common_options *)opts)->kernel_isa, err, errlen);
}

/* "(avx512, avx2, sse2, neon, c; see --list-kernels)": from the ISA table. */
static const char *kernel_choices(char *buf, size_t len)
{
    char names[128];
    snprintf(buf, len, "(%s; see --list-kernels)", isa_choices(names, sizeof names));
    return buf;
}

void options_add_word(char *buf, size_t len, const char *word)
{
    size_t used = strnlen(buf, len);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s", used ? " " : "", word);
}

/* What --kernel completes to: the ISA table's names. */
static const char *kernel_values(char *buf, size_t len)
{
    buf[0] = '\0';
    for (const char *const *n = isa_choice_names(); *n; n++)
        options_add_word(buf, len, *n);
    return buf;
}

/* -H and --pages say the same thing two ways: one of them, once. */
static parse_result set_pages(common_options *c, page_choice choice, const char *flag, char *err, size_t errlen)
{
    if (c->pages_given)
        return cli_fail(err, errlen, "%s: the pages are already chosen (-H or --pages, once)", flag);
    c->pages = choice;
    c->pages_given = true;
    return PARSE_OK;
}

static parse_result parse_huge(void *opts, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_pages(opts, PAGE_CHOICE_AUTO, "-H", err, errlen);
}

static parse_result parse_pages(void *opts, const char *arg, char *err, size_t errlen)
{
    page_choice c;
    if (!page_choice_parse(arg, &c, err, errlen))
        return PARSE_ERROR;
    char flag[64];
    snprintf(flag, sizeof flag, "--pages %s", arg);
    return set_pages(opts, c, flag, err, errlen);
}

static const char *const cache_probe_choices[] = {"auto", "always", "never", NULL};

/* The shared options, defined once. */
static const option_spec shared[] = {
    {.short_name = 'h', .long_name = "help", .kind = OPT_ACTION, .key = "help", .action = ACTION_HELP,
     .help = "Show this help"},
    {.short_name = 'V', .long_name = "version", .kind = OPT_ACTION, .key = "version", .action = ACTION_VERSION,
     .help = "Print the version and exit"},
    {.short_name = 'v', .kind = OPT_COUNTER, .key = "verbose", .offset = COMMON(verbose),
     .help = "Verbose output on stderr: the plan, then each result's details\n(-vv adds every parameter) and each "
             "warning as it comes (without -v:\nat the end, once a kind that changes how to read the results)"},
    {.long_name = "json", .value_name = "FILE", .kind = OPT_TEXT, .key = "json", .offset = COMMON(json_path),
     .bad = "file name is empty",
     .help = "Also write the whole run as one JSON document to FILE\n(rewritten atomically after every result)"},
    {.long_name = "openmetrics", .value_name = "FILE", .kind = OPT_TEXT, .key = "openmetrics",
     .offset = COMMON(openmetrics_path), .bad = "file name is empty",
     .help = "Also write the results as OpenMetrics text to FILE, for\nnode_exporter's textfile collector (rewritten atomically)"},
    {.short_name = 'p', .value_name = "THREADS", .kind = OPT_INT, .key = "threads", .offset = COMMON(threads),
     .given = OPTION_GIVEN(common_options, threads_from_p), .min = 1, .max = MAX_THREADS,
     .bad = "threads must be a whole number from 1 to 4096",
     .help = "Use exactly this many threads (default: all usable CPUs)"},
    {.long_name = "cpus", .value_name = "LIST", .kind = OPT_CUSTOM, .key = "cpus", .offset = COMMON(cpus),
     .given = OPTION_GIVEN(common_options, cpus_given), .custom = parse_cpus,
     .help = "Pin thread i to the i-th CPU of LIST, e.g. 0-7,16"},
    {.long_name = "oversubscribe", .kind = OPT_FLAG, .key = "oversubscribe", .offset = COMMON(oversubscribe),
     .help = "Allow more threads than CPUs"},
    {.long_name = "kernel", .value_name = "ISA", .kind = OPT_CUSTOM, .key = "kernel", .offset = COMMON(kernel_isa),
     .custom = parse_kernel, .help = "Use kernels of this ISA at every size instead of the best",
     .help_more = kernel_choices, .values = kernel_values},
    {.short_name = 'H', .kind = OPT_CUSTOM, .key = "huge", .custom = parse_huge,
     .help = "Huge pages for buffers >= 2x the huge page size: MAP_HUGETLB, then\nTHP (madvise), then normal pages; "
             "the coverage obtained is checked"},
    {.long_name = "pages", .value_name = "4k|2m|1g|thp", .kind = OPT_CUSTOM, .key = "pages", .custom = parse_pages,
     .help = "Page size for every buffer: 4k (no THP), 2m (pool, else THP),\n1g (pool only), thp (madvise); refused "
             "when this machine\ncannot give it; the share obtained is checked"},
    {.long_name = "cache-probe", .value_name = "WHEN", .kind = OPT_CHOICE, .key = "cache-probe",
     .offset = COMMON(cache_probe), .choices = cache_probe_choices, .bad = "must be auto, always or never",
     .help = "always: first measure the effective last level one thread\nsees (about 1-3 s; a diagnostic, nothing is sized from it);\n"
             "auto (default) and never: do not"},
    {.long_name = "plan", .kind = OPT_FLAG, .key = "plan", .offset = COMMON(plan),
     .help = "Print the plan (sizes, threads and CPUs, memory per node against\nthe budget, samples, estimated time) and exit "
             "without measuring"},
    {.long_name = "sysfs", .value_name = "DIR", .kind = OPT_TEXT, .key = "sysfs", .offset = COMMON(plan_sysfs),
     .bad = "file name is empty",
     .help = "With --plan: plan for the machine of a recorded sysfs tree (its\nnodes' MemFree is the memory) instead of this one"},
    {.long_name = "cpuid", .value_name = "FILE", .kind = OPT_TEXT, .key = "cpuid", .offset = COMMON(plan_cpuid),
     .bad = "file name is empty",
     .help = "With --plan --sysfs: the recorded machine's CPUID dump (as\ntopology's dump option writes it), its other cache source"},
    {.long_name = "list-kernels", .kind = OPT_ACTION, .key = "list-kernels", .action = ACTION_LIST_KERNELS,
     .help = "List every kernel of this binary (operation, ISA, stores,\nbytes counted) and which this CPU runs, then exit"},
};

const option_spec *options_resolve(const option_spec *entry)
{
    if (entry->kind != OPT_COMMON)
        return entry;
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
        if (strcmp(shared[i].key, entry->key) == 0)
            return &shared[i];
    return NULL;
}

/* The resolved specs of a table, in order. */
static size_t collect(const option_table *t, const option_spec **out)
{
    size_t n = 0;
    for (const option_spec *e = t->specs; e->key && n < MAX_SPECS; e++) {
        const option_spec *s = options_resolve(e);
        if (s)
            out[n++] = s;
    }
    return n;
}

static bool takes(const option_table *t, const char *key)
{
    for (const option_spec *e = t->specs; e->key; e++)
        if (e->kind == OPT_COMMON && strcmp(e->key, key) == 0)
            return true;
    return false;
}

/* How a flag is named in messages: "-s", "--min". */
static const char *flag_name(const option_spec *s, char *buf, size_t len)
{
    if (s->short_name)
        snprintf(buf, len, "-%c", s->short_name);
    else
        snprintf(buf, len, "--%s", s->long_name);
    return buf;
}

static void *field(void *opts, const option_spec *s)
{
    return (char *)opts + s->offset;
}

/* The spec's range as integers (a double max of 2^64 and above means UINT64_MAX). */
static uint64_t umin(const option_spec *s)
{
    return s->min > 0 ? (uint64_t)s->min : 0;
}

static uint64_t umax(const option_spec *s)
{
    return s->max >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)s->max;
}

static parse_result apply(const option_spec *s, const char *a, void *opts, char *err, size_t errlen)
{
    char flag[48];
    uint64_t u;
    double d;
    flag_name(s, flag, sizeof flag);
    switch (s->kind) {
    case OPT_FLAG:
        *(bool *)field(opts, s) = true;
        break;
    case OPT_COUNTER:
        (*(int *)field(opts, s))++;
        break;
    case OPT_UINT:
    case OPT_INT:
        if (!parse_u64(a, umin(s), umax(s), &u))
            return cli_fail(err, errlen, "%s '%s': %s", flag, a, s->bad);
        if (s->kind == OPT_INT)
            *(int *)field(opts, s) = (int)u;
        else
            *(uint64_t *)field(opts, s) = u;
        break;
    case OPT_DOUBLE:
        if (!parse_double(a, s->min, s->max, &d))
            return cli_fail(err, errlen, "%s '%s': %s", flag, a, s->bad);
        *(double *)field(opts, s) = d;
        break;
    case OPT_SIZE:
        if (!parse_size(a, umin(s), umax(s), &u))
            return cli_fail(err, errlen, "%s '%s': %s", flag, a, s->bad);
        *(uint64_t *)field(opts, s) = u;
        break;
    case OPT_SIZE_KB:
        if (!parse_size(a, umin(s) * 1024, umax(s) > UINT64_MAX / 1024 ? UINT64_MAX : umax(s) * 1024, &u))
            return cli_fail(err, errlen, "%s '%s': %s", flag, a, s->bad);
        *(uint64_t *)field(opts, s) = u / 1024;
        break;
    case OPT_TEXT:
        if (!*a)
            return cli_fail(err, errlen, "%s '': %s", flag, s->bad);
        *(const char **)field(opts, s) = a;
        break;
    case OPT_CHOICE:
        for (int i = 0; s->choices[i]; i++)
            if (strcmp(a, s->choices[i]) == 0) {
                *(int *)field(opts, s) = i;
                goto given;
            }
        return cli_fail(err, errlen, "%s '%s': %s", flag, a, s->bad);
    case OPT_CUSTOM:
        if (s->custom(opts, a, err, errlen) != PARSE_OK)
            return PARSE_ERROR;
        break;
    case OPT_ACTION:
        ((common_options *)opts)->action = s->action;
        return PARSE_EXIT_OK;
    case OPT_COMMON:
        break;
    }
given:
    if (s->given)
        *(bool *)((char *)opts + s->given - 1) = true;
    return PARSE_OK;
}

parse_result options_parse(const option_table *t, int argc, char **argv, env_lookup env, void *opts, char *err,
                           size_t errlen)
{
    common_options *c = opts;
    const option_spec *specs[MAX_SPECS];
    size_t n = collect(t, specs);
    c->threads_used = takes(t, "threads");

    char optstring[2 * MAX_SPECS + 2] = ":";
    struct option longs[2 * MAX_SPECS + 1];
    char negated[MAX_SPECS][72]; /* "no-NAME" of negatable flags */
    size_t nlong = 0, len = 1;
    for (size_t i = 0; i < n; i++) {
        if (specs[i]->short_name) {
            optstring[len++] = specs[i]->short_name;
            if (specs[i]->value_name)
                optstring[len++] = ':';
        }
        if (specs[i]->long_name)
            longs[nlong++] = (struct option){specs[i]->long_name,
                                             specs[i]->value_name ? required_argument : no_argument, NULL,
                                             specs[i]->short_name ? specs[i]->short_name : 256 + (int)i};
        if (specs[i]->negatable && specs[i]->kind == OPT_FLAG && specs[i]->long_name) {
            snprintf(negated[i], sizeof negated[i], "no-%s", specs[i]->long_name);
            longs[nlong++] = (struct option){negated[i], no_argument, NULL, NEGATED + (int)i};
        }
    }
    optstring[len] = '\0';
    longs[nlong] = (struct option){NULL, 0, NULL, 0};

    optind = 0; /* 0, not 1: glibc then also forgets a half-parsed "-xyz" from an earlier call */
    opterr = 0;
    int ch, before = 1;
    while ((ch = getopt_long(argc, argv, optstring, longs, NULL)) != -1) {
        /* Where the option came from: getopt stays on a cluster ("-K1") until its last
         * letter, so an unmoved optind means argv[optind], else the element just left. */
        const char *from = optind == before && optind < argc ? argv[optind] : argv[optind - 1];
        before = optind;
        const option_spec *s = NULL;
        if (ch >= NEGATED && (size_t)(ch - NEGATED) < n) { /* --no-NAME */
            s = specs[ch - NEGATED];
            *(bool *)field(opts, s) = false;
            if (s->given)
                *(bool *)((char *)opts + s->given - 1) = true;
            c->given_mask |= UINT64_C(1) << (ch - NEGATED);
            continue;
        }
        if (ch >= 256 && (size_t)(ch - 256) < n)
            s = specs[ch - 256];
        for (size_t i = 0; !s && i < n && ch > 0 && ch < 256; i++)
            if (specs[i]->short_name == ch)
                s = specs[i];
        if (!s)
            return cli_getopt_error(ch, from, t->command, err, errlen);
        parse_result r = apply(s, optarg, opts, err, errlen);
        if (r == PARSE_ERROR || (r == PARSE_EXIT_OK && c->action == ACTION_HELP))
            return r; /* --help wins over what follows it; --version and --list-kernels do not */
        for (size_t i = 0; i < n; i++)
            if (specs[i] == s)
                c->given_mask |= UINT64_C(1) << i;
    }
    if (optind < argc && argc - optind <= c->max_operands) {
        c->operands = argv + optind;
        c->operand_count = argc - optind;
    } else if (optind < argc)
        return cli_fail(err, errlen, "unexpected argument '%s' (see %s --help)", argv[optind + c->max_operands],
                        t->command); /* the first one too many */
    if (c->action != ACTION_NONE)
        return PARSE_EXIT_OK; /* every value checked (--list-kernels --size abc is refused), then the action */
    /* After the command line: -p takes precedence over OMP_NUM_THREADS (which is then
     * not even read), and --help works whatever the environment says. */
    if (c->threads_used &&
        omp_env_parse(env, c->threads_from_p ? NULL : &c->threads, &c->omp_bind, &c->omp_places, err, errlen) !=
            PARSE_OK)
        return PARSE_ERROR;
    if (c->cpus_given && c->threads_from_p && (size_t)c->threads > c->cpus.count && !c->oversubscribe)
        return cli_fail(err, errlen, "-p %d is more than the %zu CPUs given in --cpus (add --oversubscribe)",
                        c->threads, c->cpus.count);
    return PARSE_OK;
}

size_t options_given_except(const option_table *t, const void *opts, const char *const *keep, char *buf,
                            size_t len)
{
    const option_spec *specs[MAX_SPECS];
    size_t n = collect(t, specs), count = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (!(((const common_options *)opts)->given_mask & (UINT64_C(1) << i)))
            continue;
        bool kept = false;
        for (size_t k = 0; keep[k] && !kept; k++)
            kept = strcmp(keep[k], specs[i]->key) == 0;
        if (kept)
            continue;
        char flag[48];
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", count++ ? ", " : "",
                 flag_name(specs[i], flag, sizeof flag));
    }
    return count;
}

void options_free(void *opts)
{
    cpu_list_free(&((common_options *)opts)->cpus);
}

/* "-s SIZE_KB", "--min SIZE", "-h, --help". */
static void flag_text(const option_spec *s, char *buf, size_t len)
{
    size_t used = 0;
    if (s->short_name)
        used += (size_t)snprintf(buf + used, len - used, "-%c", s->short_name);
    if (s->long_name)
        used += (size_t)snprintf(buf + used, len - used, "%s--%s", s->short_name ? ", " : "", s->long_name);
    if (s->value_name && used < len)
        snprintf(buf + used, len - used, " %s", s->value_name);
}

void options_help(FILE *f, const option_table *t)
{
    fputs(t->usage, f);
    for (const option_spec *e = t->specs; e->key; e++) {
        const option_spec *s = options_resolve(e);
        if (!s)
            continue;
        if (e->heading)
            fprintf(f, "\n%s\n", e->heading);
        char flags[64];
        flag_text(s, flags, sizeof flags);
        fprintf(f, "  %s", flags);
        int col = 2 + (int)strlen(flags);
        char more[256];
        char text[1024];
        snprintf(text, sizeof text, "%s%s%s", s->help ? s->help : "", s->help_more ? "\n" : "",
                 s->help_more ? s->help_more(more, sizeof more) : "");
        const char *line = text;
        if (col > HELP_COLUMN - 2) {
            fputc('\n', f);
            col = 0;
        }
        while (*line) {
            size_t l = strcspn(line, "\n");
            fprintf(f, "%*s%.*s\n", HELP_COLUMN - col, "", (int)l, line);
            col = 0;
            line += l + (line[l] == '\n');
        }
        if (!*text)
            fputc('\n', f);
    }
    if (t->footer)
        fprintf(f, "\n%s", t->footer);
}

void options_to_params(const option_table *t, const void *opts, param_list *out)
{
    const option_spec *specs[MAX_SPECS];
    size_t n = collect(t, specs);
    const char *base = opts;
    for (size_t i = 0; i < n; i++) {
        const option_spec *s = specs[i];
        const void *v = base + s->offset;
        switch (s->kind) {
        case OPT_FLAG:
            params_bool(out, s->key, *(const bool *)v);
            break;
        case OPT_COUNTER:
        case OPT_INT:
            params_int(out, s->key, *(const int *)v);
            break;
        case OPT_UINT:
        case OPT_SIZE:
        case OPT_SIZE_KB:
            params_int(out, s->key, (long long)*(const uint64_t *)v);
            break;
        case OPT_DOUBLE:
            params_number(out, s->key, *(const double *)v);
            break;
        case OPT_TEXT:
            params_text(out, s->key, *(const char *const *)v);
            break;
        case OPT_CHOICE:
            params_text(out, s->key, s->choices[*(const int *)v]);
            break;
        case OPT_CUSTOM:
        case OPT_ACTION:
        case OPT_COMMON:
            break; /* custom values are described by their mode's plan */
        }
    }
    const common_options *c = opts;
    if (c->cpus_given) {
        char *text = cpu_list_format_alloc(c->cpus.ids, c->cpus.count);
        params_text(out, "cpus", text);
        free(text);
    }
    if (takes(t, "huge") || takes(t, "pages"))
        params_text(out, "pages", page_choice_name((page_choice)c->pages));
    if (takes(t, "kernel"))
        params_text(out, "kernel", c->kernel_isa ? c->kernel_isa : "auto");
    if (c->threads_used) {
        params_text(out, "OMP_PROC_BIND", c->omp_bind);
        params_text(out, "OMP_PLACES", c->omp_places);
    }
}

int common_thread_count(const common_options *c, size_t usable)
{
    return resolve_thread_count(c->threads, c->threads_from_p, &c->cpus, c->cpus_given, usable);
}
