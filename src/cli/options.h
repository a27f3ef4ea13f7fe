/* SPDX-License-Identifier: MIT */
/* Declarative command lines. Each mode describes its options in one table of
 * option_spec (flag, value kind and range, where the value goes, the error text
 * for a bad value, the help text); the flags every mode shares (-v, --json, -p,
 * --cpus, --oversubscribe, --kernel, --list-kernels, -h) are defined once here and
 * pulled into a mode's table with OPTION_COMMON. One parser reads any table,
 * --help is generated from it, JSON lists every option's value from it, and the
 * tests check README, the man page and the hostile-input table against it. */
#ifndef MEMBENCH_CLI_OPTIONS_H
#define MEMBENCH_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/omp_env.h"
#include "core/params.h"
#include "util/cpu_list.h"

typedef enum {
    OPT_FLAG,    /* bool = true */
    OPT_COUNTER, /* int += 1 (-v, -vv) */
    OPT_UINT,    /* uint64_t in [min, max] */
    OPT_INT,     /* int in [min, max] */
    OPT_DOUBLE,  /* double in [min, max] */
    OPT_SIZE,    /* uint64_t bytes, K/M/G suffix, bare number = KiB, in [min, max] */
    OPT_SIZE_KB, /* uint64_t KiB, the same spelling as OPT_SIZE (bare number = KiB), [min, max] in KiB */
    OPT_TEXT,    /* const char * pointing into argv, not empty */
    OPT_CHOICE,  /* int: index of the value in choices */
    OPT_CUSTOM,  /* custom(opts, arg, err): anything else (lists, repeats, cross-effects) */
    OPT_ACTION,  /* -h, -V, --list-kernels: stop parsing, the session acts, exit 0 */
    OPT_COMMON   /* a reference to one of the shared options below */
} option_kind;

typedef enum { ACTION_NONE, ACTION_HELP, ACTION_VERSION, ACTION_LIST_KERNELS } option_action;

typedef struct option_spec option_spec;
struct option_spec {
    char short_name;        /* 0: long only */
    const char *long_name;  /* without "--"; NULL: short only */
    const char *value_name; /* shown in --help ("SIZE_KB"); NULL: takes no value */
    option_kind kind;
    const char *key;        /* name in JSON "options" (and for OPT_COMMON: which shared option) */
    size_t offset;          /* where the value goes in the mode's options struct */
    size_t given;           /* OPTION_GIVEN(field) of a bool set when given; 0: none */
    double min, max;        /* numeric range */
    const char *const *choices; /* OPT_CHOICE: NULL-terminated */
    const char *bad;        /* error text after "FLAG 'VALUE': " */
    parse_result (*custom)(void *opts, const char *arg, char *err, size_t errlen);
    option_action action;
    const char *help;       /* lines separated by '\n' */
    /* A last help line made when --help is printed (lists that come from tables,
     * e.g. the ISAs of this build); NULL: none. Writes into buf and returns it. */
    const char *(*help_more)(char *buf, size_t len);
    /* The values a shell completes for this option, space-separated, from the table
     * that parses them (operations, ISAs, traffic mixes); NULL: OPT_CHOICE's choices,
     * or value_name's when it lists them ("4k|2m|1g|thp"), else none. A value_name
     * ending in LIST takes several, comma-separated. */
    const char *(*values)(char *buf, size_t len);
    const char *heading;    /* starts a --help section (also on an OPT_COMMON entry) */
    bool negatable;         /* OPT_FLAG with a long name: --no-NAME sets it false (perf's style) */
};

#define OPTION_GIVEN(type, field) (offsetof(type, field) + 1)
#define OPTION_COMMON(name) {.kind = OPT_COMMON, .key = (name)}
#define OPTION_COMMON_UNDER(name, title) {.kind = OPT_COMMON, .key = (name), .heading = (title)}
#define OPTION_END {.kind = OPT_FLAG, .key = NULL}

/* The shared options; every mode's options struct starts with one. Which of them a
 * mode takes is decided by the OPTION_COMMON entries of its table:
 *   "help" (-h, --help), "version" (-V, --version), "verbose" (-v), "json" (--json FILE),
 *   "openmetrics" (--openmetrics FILE),
 *   "threads" (-p N, with OMP_NUM_THREADS, OMP_PROC_BIND, OMP_PLACES), "cpus" (--cpus LIST),
 *   "oversubscribe", "kernel" (--kernel ISA), "list-kernels", "huge" (-H) and "pages"
 *   (--pages 4k|2m|1g|thp), both deciding one page_choice (memory/page_policy.h),
 *   "cache-probe" (--cache-probe auto|always|never), "plan" (--plan) and "sysfs" (--sysfs DIR,
 *   with --plan: a recorded machine). */
/* --cache-probe: auto runs the cache probe when no source gives the last-level
 * cache's size for one instance (topology_llc_unknown); always and never as said. */
typedef enum { CACHE_PROBE_AUTO, CACHE_PROBE_ALWAYS, CACHE_PROBE_NEVER } cache_probe_when;

typedef struct {
    option_action action;
    int verbose;
    const char *json_path;
    const char *openmetrics_path;
    int threads;           /* -p, else OMP_NUM_THREADS, else 0 = every usable CPU */
    bool threads_from_p;
    bool threads_used;     /* the mode takes "threads" (and so the OMP_* variables) */
    cpu_list cpus;
    bool cpus_given;
    bool oversubscribe;
    const char *kernel_isa; /* NULL = the best for each size */
    int pages;             /* page_choice: PAGE_CHOICE_DEFAULT, AUTO (-H), or --pages's */
    bool pages_given;      /* -H or --pages was given (they exclude each other) */
    const char *omp_bind, *omp_places;
    int cache_probe;       /* cache_probe_when: when the cache probe runs before planning */
    bool plan;             /* --plan: say the plan and exit, measuring nothing */
    const char *plan_sysfs; /* --sysfs DIR (with --plan): a recorded machine's tree, not this one */
    const char *plan_cpuid; /* --cpuid FILE (with --plan --sysfs): that machine's CPUID dump */
    int max_operands;      /* arguments that are not options the mode takes (set by its
                              defaults: compare's two files); 0: none */
    char **operands;       /* those arguments, in order */
    int operand_count;
    uint64_t given_mask;   /* bit i: the table's i-th option was on the command line */
} common_options;

/* A mode's command line: its table and what --help says around it. */
typedef struct {
    const char *command;  /* "membench", "membench latency" */
    const char *usage;    /* first lines of --help */
    const char *footer;   /* after the options, may be NULL */
    const option_spec *specs; /* ends with OPTION_END */
} option_table;

/* Parses argv (argv[0] is the program or subcommand name) into opts, whose first
 * member is a common_options; env reads the OMP_* variables when the table takes
 * "threads". On PARSE_ERROR err holds one line naming the bad value; PARSE_EXIT_OK
 * means an action (common_options.action). Cross-option rules are the mode's. */
parse_result options_parse(const option_table *t, int argc, char **argv, env_lookup env, void *opts, char *err,
                           size_t errlen);
void options_free(void *opts);

/* The options given on the command line whose key is not in keep (NULL-ended),
 * as "-p, -t" in buf; returns how many (for a flag that makes others meaningless). */
size_t options_given_except(const option_table *t, const void *opts, const char *const *keep, char *buf,
                            size_t len);

/* --help, generated from the table. */
void options_help(FILE *f, const option_table *t);
/* Every option's value as JSON-ready key/values (key: the spec's key). */
void options_to_params(const option_table *t, const void *opts, param_list *out);

/* The resolved spec of entry i (OPT_COMMON entries resolve to the shared spec). */
const option_spec *options_resolve(const option_spec *entry);

/* Appends word to buf's space-separated list (for option_spec.values). */
void options_add_word(char *buf, size_t len, const char *word);

/* -p (or OMP_NUM_THREADS) wins; else the length of --cpus; else every usable CPU. */
int common_thread_count(const common_options *c, size_t usable);

#endif
