/* SPDX-License-Identifier: MIT */
/* The session every mode runs in: it parses the command line from the mode's
 * table, loads and cross-checks the topology, checks --json and --openmetrics
 * before anything else is said, says warnings (stderr and JSON), owns the results
 * and hands each to the sinks as it comes, installs the signal handlers and the
 * -t deadline, records how the run ended and decides the exit status:
 *   0 done (also when -t cut it short), 1 a measurement failed, 2 bad input,
 *   128 + signal when stopped by SIGINT/SIGTERM.
 * session_run does it all; the stages are separate so tests can plan a mode
 * against a recorded sysfs tree without measuring anything. */
#ifndef MEMBENCH_SESSION_H
#define MEMBENCH_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"
#include "core/result.h"
#include "core/run_info.h"
#include "measure/host_load.h"
#include "measure/noise_probe.h"
#include "modes/mode.h"
#include "output/sink.h"
#include "platform/cpuid_dump.h"
#include "plan/dram_size.h"
#include "plan/placement.h"
#include "team/team.h"
#include "topology/topology.h"

#define SESSION_MAX_SINKS 8

/* What the session takes from the world; session_env_live() is this machine. */
typedef struct {
    const char *sysfs_root;       /* "/sys", or a recorded tree */
    bool live;                    /* this machine: affinity mask, CPUID cross-check */
    env_lookup getenv;            /* OMP_* variables */
    bool (*memory_budget)(uint64_t *bytes, char *why, size_t whylen); /* memory/memory_budget.h */
    FILE *out, *err;              /* stdout, stderr */
    /* Called before each measured step (session_step_begin); NULL: nothing.
     * membench-mpi starts every node's steps together with it. */
    void (*step_begin)(void *ctx);
    void *step_ctx;
    /* A recorded machine's other cache sources (tests): its CPUID and what the cache
     * probe found there; NULL: this machine's when live, none otherwise. */
    const cpuid_dump *cpuid;
    const cache_measurement *measured;
} session_env;

struct session {
    const mode_def *mode;
    char who[64];       /* "membench" or "membench MODE": how messages begin */
    session_env env;
    int argc;
    char **argv;        /* the whole command line, program name first */
    void *opts;         /* the mode's options (starts with common_options) */
    void *state;        /* the mode's state */
    topology topo;
    bool have_topo;
    cpuid_dump recorded_cpuid; /* --cpuid FILE with --plan --sysfs */
    run_info info;
    result_list results;
    sink *sinks[SESSION_MAX_SINKS];
    int nsinks;
    bool progress;      /* stderr is a terminal and -v is off: progress lines */
    double start;
    double probe_start; /* when --cache-probe always began (0: it did not run): -t counts from it */
    int status;         /* 1 once a measurement failed */
    bool failed;        /* a failure ended the run (session_fail) */
    bool measuring;     /* past the plan: warnings are said at once (before: at the start) */
    bool signals_armed; /* the stop handlers were installed before the plan (the cache probe) */
    bool quiet_end;     /* set by a mode's open_sinks: neither the warnings nor the headline at the end, JSON
                           keeps them (numa mem -q: perf's lines only) */
    bool said_pages_unverified;
    /* What session_emit gives a record that does not say (session_size_basis). */
    const char *size_basis;
    bool dram_intent, may_fit_cache;
    /* The DRAM rule was the floor (no source describes the last level): the plateau
     * check to run before the mode (DRAM_FIGURE_NONE: none) at this
     * footprint, and what it found, given to every DRAM record (modes/dram_sizing.h). */
    dram_figure dram_check_kind;
    uint64_t dram_check_footprint;
    result_dram_check dram_check;
    session *parent;    /* this session is a step of parent's run (session_open_step) */
    /* the host's load and the noise probe (top-level sessions only) */
    host_load load_start, load_last;
    double *probes;   /* each probe's time */
    double *probe_at; /* when it began, seconds since the run's start */
    size_t nprobes, probes_cap;
    noise_mem_probe mem_probe; /* opened at the first probe (mem_probe_tried) */
    bool mem_probe_tried;
    bool mem_probe_counts; /* noise_mem_probe_counts: its verdict is the run's too */
    double *mem_probes; /* the memory probe's times, taken right after the CPU probe's */
    size_t nmem_probes;
    double last_probe_at;
};

session_env session_env_live(void);

/* Parses, checks and loads the topology. Returns -1 to go on, or the exit status
 * (0 after --help/--version/--list-kernels, 2 bad input, 1 no CPU). */
int session_open(session *s, const mode_def *m, int argc, char **argv, const session_env *env);
/* A step of parent's run (the mlc front end runs native modes as steps): mode m
 * parses argv (argv[0] is its name) as its own command line, then uses the parent's
 * topology (not loaded or warned about again) and name in messages, writes through
 * sinks (taken, even on failure) instead of its own formats, and hands every record
 * to the parent as well (the parent's JSON has them all). Then session_plan,
 * session_measure, session_step_done, session_close. Returns -1 to go on, else the
 * exit status (2 after saying what is wrong). */
int session_open_step(session *step, session *parent, const mode_def *m, int argc, char **argv, sink **sinks,
                      int nsinks);
/* After a step's session_measure: its warnings, errors and status become the
 * parent's, and its plan and analysis rows of the parent's "steps" tables (the
 * step's own tables as "MODE/TABLE", each row with the step's index). */
void session_step_done(session *step, int index);
/* The mode's plan. 0 to go on, else the exit status. */
int session_plan(session *s);
/* Sinks, signals, deadline, the mode's run and analysis, the end. Returns the exit status. */
int session_measure(session *s);
void session_close(session *s);
/* All of it. argv[0] is the program; a subcommand, if any, is argv[1]. */
int session_run(const mode_def *m, int argc, char **argv, const session_env *env);

/* For modes. A warning of a kind (core/warn_kind.h) goes to JSON, and to stderr:
 * under -v at once (one given while planning when the run starts, after the
 * topology's, so a refusal stays one line), else at the end grouped by kind,
 * kinds that do not change how to read the results left out. */
void session_warn(session *s, warn_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* One line on stderr now, "membench[ mode]: KIND: message" (kind NULL: none), the
 * message neutralised for the terminal (util/one_line.h): it may quote a file's
 * strings. For what a standalone mode says (no run records it). */
void session_say(const session *s, const char *kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Says "membench[ mode]: message" (as session_say) and returns 2. */
int session_bad_input(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A measurement failed: "membench[ mode]: error: ..." (stderr and JSON "errors") and
 * exit status 1; the run goes on. */
void session_error(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* As session_error, for a failure that ends the run (the mode returns after it):
 * the JSON says complete false, stopped_by "error". */
void session_fail(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void session_add_sink(session *s, sink *k);
/* For a result whose buffers were meant to be in huge pages: warns when under 90%
 * of their bytes were (naming each buffer's method), or, once a run, when smaps
 * could not say. what names the point ("4096 KB copy"). */
void session_check_huge_pages(session *s, const result_record *r, const char *what);
/* Takes the record (left empty), keeps it, hands it to every sink. */
void session_emit(session *s, result_record *r);
/* The records emitted between on and off are made together, nothing measured
 * between them: the sinks that rewrite a whole document write at off (sink_burst),
 * a step's parent's sinks too. Pairs nest. */
void session_burst(session *s, bool on);
/* The mode's buffers were sized from b to be DRAM's (may_fit: they may still fit a
 * cache): the records it emits say so ("size_basis", "may_fit_cache"). */
void session_size_basis(session *s, const dram_basis *b, bool may_fit);
/* The sizes came from the command line: records say "size_basis": "user". */
void session_size_given(session *s, bool dram_intent, bool may_fit);
bool session_stopped(const session *s);
/* What stopped the run so far: "SIGINT" (the signal's name), "time limit", or NULL. */
const char *session_stop_reason(const session *s);
/* n worker threads on places (team_create); when they cannot all be created,
 * says why in one line (session_fail) and returns NULL. */
team *session_start_team(session *s, const team_place *places, int n);
/* A pinned team for the first n threads of p (session_start_team); says when a pin
 * did not hold. */
team *session_team(session *s, const placement *p, int n);
/* Copies the placement into the run's information (JSON and -v). */
void session_describe_placement(session *s, const placement *p);
/* The placement of the first n threads of p, for a record. */
void session_record_placement(const placement *p, int n, result_record *r);
/* The host's steal and pressure over a point's own visits (host_load_s, host_*_pct),
 * for the modes in rounds; every other record gets them over the interval since
 * the record before it when it is emitted. */
void session_record_host_load(result_record *r, const host_load_span *visits);
/* A measured step (a sweep point, a latency size, a STREAM configuration, a matrix
 * cell, a traffic mix...) is about to start: runs the environment's step_begin
 * hook, if any. Modes call it right before each step's first sample. */
void session_step_begin(session *s);
/* Between two visits of a mode in rounds: the host probe (noise_probe.h) runs
 * here too, not only after results, which such a mode emits at its end. */
void session_between_visits(session *s);
/* "[3/12] 64 KB read ..." on stderr when it is a terminal. */
void session_progress(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What the mode may allocate. False when it cannot be known: then it has said
 * which file could not be read and why (an error, exit status 1), and the mode's
 * plan returns 1. */
bool session_memory_budget(session *s, uint64_t *bytes);
const common_options *session_common(const session *s);

#endif
