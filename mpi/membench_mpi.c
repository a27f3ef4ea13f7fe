/* SPDX-License-Identifier: MIT */
/* membench-mpi: one membench mode on every MPI rank, gathered on rank 0.
 *
 * The only file that calls MPI (built by make mpi alone). Each rank runs the mode
 * in-process (a session, as membench does) with its node's full placement, its
 * JSON going to a private temporary file; the text goes to rank 0, which keeps
 * the cluster (src/cluster/), rewrites the cluster's JSON as each record
 * arrives, and prints the per-node table at the end. Every wait is bounded:
 * collectives are nonblocking and polled against a deadline (--rank-timeout), so
 * a rank that dies or hangs is reported, never waited for forever.
 *
 * Test hooks (make check-mpi): MEMBENCH_MPI_TEST_FAIL_RANK=R makes rank R's
 * memory budget unknown (its mode fails as it would on a node that cannot
 * allocate); MEMBENCH_MPI_TEST_HANG_RANK=R makes rank R sleep instead of
 * answering; MEMBENCH_MPI_TEST_DISTINCT_HOSTS=1 makes each rank its own host
 * ("name#R"), so one machine can stand for many nodes. */
#include <mpi.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "cluster/cluster_options.h"
#include "cluster/cluster_report.h"
#include "cluster/host_share.h"
#include "cluster/rank_message.h"
#include "measure/clock.h"
#include "measure/stop.h"
#include "memory/memory_budget.h"
#include "modes/session.h"
#include "output/file_target.h"
#include "platform/platform.h"
#include "util/parse_number.h"

enum { TAG_RECORD = 11, TAG_GO = 12 };
#define HOST_BYTES 256
#define CPU_BITMAP_BYTES ((CPU_LIST_MAX_ID + 1) / 8)

/* Rank-wide settings the session's memory-budget hook reads (it takes no context). */
static double budget_share = 1.0; /* --share-host split: this rank's part of the host's memory */
static bool budget_refused;       /* MEMBENCH_MPI_TEST_FAIL_RANK */

static bool rank_memory_budget(uint64_t *bytes, char *why, size_t whylen)
{
    if (budget_refused) {
        snprintf(why, whylen, "MEMBENCH_MPI_TEST_FAIL_RANK refused this rank's memory (a test of a failing node)");
        return false;
    }
    if (!memory_budget(bytes, why, whylen))
        return false;
    *bytes = (uint64_t)((double)*bytes * budget_share);
    return true;
}

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Polls r until it completes (true) or the deadline passes (false). */
static bool wait_until(MPI_Request *r, double deadline)
{
    for (;;) {
        int done = 0;
        MPI_Test(r, &done, MPI_STATUS_IGNORE);
        if (done)
            return true;
        if (clock_now() > deadline)
            return false;
        sleep_ms(1);
    }
}

static int test_rank(const char *name)
{
    const char *v = getenv(name);
    uint64_t r;
    return v && parse_u64(v, 0, 1u << 30, &r) ? (int)r : -1;
}

/* What every rank tells the others at the start. */
typedef struct {
    char host[HOST_BYTES];
    int local_leader; /* the world rank of the first rank sharing its memory */
    int local_size;
} rank_identity;

typedef struct {
    int rank, size;
    cluster_options o;
    const mode_def *mode;
    rank_identity *ids; /* every rank's */
    MPI_Comm local;     /* the ranks sharing this rank's memory */
    char setup_error[512]; /* why this rank cannot run ("" when it can) */
    /* the common start of each measured step (sync_step) */
    int step_send, step_all; /* the allreduce's buffers: kept while a timed-out one is pending */
    MPI_Request step_req;
    int steps_together;
    int steps_lost_at;       /* -1: every wait so far ended in time */
    double measured_all_at;  /* clock_now() when every rank's last step was over (rank 0) */
} driver;

/* Every measured step starts on every node at once: before it, each rank joins one
 * allreduce of "I have a step" (1); a rank whose plan is over joins with 0 until no
 * rank has one (machines with other caches plan other steps). Returns whether some
 * rank still has a step; -1 when the wait passed --rank-timeout: then the steps from
 * here on start alone (said once), as a collective cannot be left half-joined. */
static int sync_step(driver *d, int mine)
{
    if (d->steps_lost_at >= 0)
        return -1;
    d->step_send = mine;
    MPI_Iallreduce(&d->step_send, &d->step_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &d->step_req);
    if (!wait_until(&d->step_req, clock_now() + d->o.rank_timeout_s)) {
        d->steps_lost_at = d->steps_together;
        fprintf(stderr,
                "membench-mpi: warning: rank %d starts its steps alone from step %d: the others did not join within "
                "--rank-timeout %g s\n",
                d->rank, d->steps_together + 1, d->o.rank_timeout_s);
        return -1;
    }
    return d->step_all;
}

/* session_env.step_begin: this rank has a step to measure. */
static void step_begin(void *ctx)
{
    driver *d = ctx;
    if (sync_step(d, 1) == 1)
        d->steps_together++;
}

/* This rank's steps are over: it keeps joining until every rank's are. */
static void steps_over(driver *d)
{
    while (sync_step(d, 0) == 1)
        ;
    d->measured_all_at = clock_now();
}

static bool share_ranks(const driver *d, int r)
{
    for (int k = 0; k < d->size; k++)
        if (k != r && (d->ids[k].local_leader == d->ids[r].local_leader || !strcmp(d->ids[k].host, d->ids[r].host)))
            return true;
    return false;
}

/* "ranks 0,1 on vm": the first group of ranks that share a host. */
static void describe_shared(const driver *d, char *buf, size_t size)
{
    for (int r = 0; r < d->size; r++) {
        if (!share_ranks(d, r))
            continue;
        size_t used = (size_t)snprintf(buf, size, "ranks ");
        for (int k = 0; k < d->size && used < size; k++)
            if (k == r || d->ids[k].local_leader == d->ids[r].local_leader || !strcmp(d->ids[k].host, d->ids[r].host))
                used += (size_t)snprintf(buf + used, size - used, "%s%d", used > 6 ? "," : "", k);
        if (used < size)
            snprintf(buf + used, size - used, " on %.255s", d->ids[r].host);
        return;
    }
    snprintf(buf, size, "?");
}

/* --share-host split: the union of the CPUs the ranks on this host may use, cut
 * into one run of consecutive CPUs per rank; this rank pins itself to its run
 * before the session reads its affinity, and takes its share of the memory. */
static void split_host(driver *d)
{
    int lrank, lsize;
    MPI_Comm_rank(d->local, &lrank);
    MPI_Comm_size(d->local, &lsize);
    if (lsize < 2)
        return;
    unsigned char *mine = calloc(2, CPU_BITMAP_BYTES);
    cpu_list usable = {NULL, 0}, all = {NULL, 0}, share = {NULL, 0};
    if (!mine || !platform_usable_cpus(&usable)) {
        snprintf(d->setup_error, sizeof d->setup_error, "cannot read this rank's CPU affinity");
        free(mine);
        return;
    }
    unsigned char *host = mine + CPU_BITMAP_BYTES;
    for (size_t i = 0; i < usable.count; i++)
        mine[usable.ids[i] / 8] |= (unsigned char)(1u << (usable.ids[i] % 8));
    MPI_Request req;
    MPI_Iallreduce(mine, host, CPU_BITMAP_BYTES, MPI_UNSIGNED_CHAR, MPI_BOR, d->local, &req);
    if (!wait_until(&req, clock_now() + d->o.rank_timeout_s)) {
        snprintf(d->setup_error, sizeof d->setup_error, "the ranks on this host did not agree on its CPUs in time");
        goto out;
    }
    all.ids = malloc((size_t)(CPU_LIST_MAX_ID + 1) * sizeof *all.ids);
    for (int c = 0; all.ids && c <= CPU_LIST_MAX_ID; c++)
        if (host[c / 8] & (1u << (c % 8)))
            all.ids[all.count++] = c;
    char err[256];
    if (!all.ids || !host_share_split(&all, lrank, lsize, &share, err, sizeof err)) {
        snprintf(d->setup_error, sizeof d->setup_error, "--share-host split: %s", all.ids ? err : "out of memory");
        goto out;
    }
    if (!platform_pin_self(share.ids, share.count)) {
        char list[128];
        snprintf(d->setup_error, sizeof d->setup_error, "--share-host split: cannot pin to CPUs %s",
                 cpu_list_format(share.ids, share.count, list, sizeof list));
        goto out;
    }
    budget_share = 1.0 / lsize;
out:
    cpu_list_free(&usable);
    cpu_list_free(&share);
    free(all.ids);
    free(mine);
}

/* Who is where: every rank's host and shared-memory group, known to all. */
static bool identify(driver *d)
{
    bool distinct = getenv("MEMBENCH_MPI_TEST_DISTINCT_HOSTS") != NULL;
    rank_identity me;
    memset(&me, 0, sizeof me);
    platform_hostname(me.host, sizeof me.host);
    /* the one blocking call: MPI has no nonblocking way to make a communicator
     * (a rank that never starts makes mpirun or srun end the job) */
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &d->local);
    MPI_Comm_size(d->local, &me.local_size);
    int rank = d->rank, leader = d->rank; /* the group's lowest world rank names it */
    MPI_Request req;
    MPI_Iallreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, d->local, &req);
    if (!wait_until(&req, clock_now() + d->o.rank_timeout_s))
        return false;
    me.local_leader = leader;
    if (distinct) {
        size_t n = strlen(me.host);
        snprintf(me.host + n, sizeof me.host - n, "#%d", d->rank);
        me.local_leader = d->rank;
        me.local_size = 1;
    }
    d->ids = calloc((size_t)d->size, sizeof *d->ids);
    if (!d->ids)
        return false;
    MPI_Iallgather(&me, (int)sizeof me, MPI_BYTE, d->ids, (int)sizeof me, MPI_BYTE, MPI_COMM_WORLD, &req);
    return wait_until(&req, clock_now() + d->o.rank_timeout_s);
}

/* The largest of every rank's value; -1 when not every rank answered in time. */
static int agree_max(const driver *d, int value)
{
    int out = value;
    MPI_Request req;
    MPI_Iallreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
    return wait_until(&req, clock_now() + d->o.rank_timeout_s) ? out : -1;
}

/* The mode's command line with --json TMP right after the mode's words (before a
 * "--", which would make them operands). */
static void free_mode_argv(char **a)
{
    for (int i = 0; a && a[i]; i++)
        free(a[i]);
    free(a);
}

/* This rank's mode command line: --json to its own file, and %h, %r in the mode's
 * arguments made its host and rank (cluster_rank_argument). Free with free_mode_argv. */
static char **mode_argv(const driver *d, const char *json, int *argc)
{
    int words = 0;
    mode_find_argv(d->o.argc, d->o.argv, &words);
    char **a = calloc((size_t)d->o.argc + 3, sizeof *a);
    if (!a)
        return NULL;
    const char *host = d->ids ? d->ids[d->rank].host : "?";
    int n = 0;
    bool whole = true;
    for (int i = 0; i <= words && i < d->o.argc; i++)
        whole = whole && (a[n++] = strdup(d->o.argv[i]));
    whole = whole && (a[n++] = strdup("--json")) && (a[n++] = strdup(json));
    for (int i = words + 1; i < d->o.argc && whole; i++)
        whole = (a[n++] = cluster_rank_argument(d->o.argv[i], host, d->rank)) != NULL;
    if (!whole) {
        free_mode_argv(a);
        return NULL;
    }
    *argc = n;
    return a;
}

static char *read_all(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    for (;;) {
        if (*len + 65536 + 1 > cap) {
            char *b = realloc(buf, cap = (cap ? cap * 2 : 65536) + 65536 + 1);
            if (!b)
                break;
            buf = b;
        }
        size_t got = fread(buf + *len, 1, cap - *len - 1, f);
        *len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (buf)
        buf[*len] = '\0';
    return buf;
}

/* The last "error: " line the run said, or its last line when it failed without one. */
static char *error_of(const char *said, int rc)
{
    const char *best = NULL, *last = NULL;
    for (const char *p = said; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *e = strstr(p, "error: ");
        if (e && e < p + len)
            best = p;
        if (len)
            last = p;
        p += len + (end ? 1 : 0);
    }
    const char *line = best ? best : rc != 0 ? last : NULL;
    if (!line)
        return NULL;
    if (best) /* "membench MODE: error: why": the table names the rank and host, keep why */
        line = strstr(best, "error: ") + strlen("error: ");
    const char *end = strchr(line, '\n');
    return strndup(line, end ? (size_t)(end - line) : strlen(line));
}

/* This rank's run, from its session to the message for rank 0. between_plan_and_run
 * starts the measurement together (a barrier) or in turn (rank 0's word). */
static void run_rank(driver *d, rank_message *out, void (*between)(driver *))
{
    memset(out, 0, sizeof *out);
    out->host = strdup(d->ids[d->rank].host);
    out->exit_status = 1;
    char *said = NULL;
    size_t said_len = 0;
    session_env env = session_env_live();
    env.memory_budget = rank_memory_budget;
    if (!d->o.one_at_a_time) {
        env.step_begin = step_begin;
        env.step_ctx = d;
    }
    env.out = fopen("/dev/null", "w");
    env.err = open_memstream(&said, &said_len);
    const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char json[4096];
    snprintf(json, sizeof json, "%s/membench-mpi-%d-XXXXXX", tmpdir, d->rank);
    int fd = mkstemp(json);
    if (fd >= 0)
        close(fd);
    int rc = 1;
    bool opened = false;
    session s;
    if (!env.out || !env.err || fd < 0) {
        snprintf(d->setup_error, sizeof d->setup_error, "cannot create a temporary file in %s (%s)", tmpdir,
                 strerror(errno));
    } else if (!d->setup_error[0]) {
        int argc;
        char **argv = mode_argv(d, json, &argc);
        if (argv) {
            rc = session_open(&s, d->mode, argc, argv, &env);
            opened = true;
            if (rc < 0)
                rc = session_plan(&s);
            between(d);
            if (rc == 0 && !stop_flagged()) {
                out->started = unix_now();
                rc = session_measure(&s);
                out->ended = unix_now();
            }
            if (!d->o.one_at_a_time)
                steps_over(d);
            session_close(&s);
            free_mode_argv(argv);
        }
    }
    if (!opened) { /* the others still wait for this rank */
        between(d);
        if (!d->o.one_at_a_time)
            steps_over(d);
    }
    out->steps_together = d->steps_together;
    out->steps_lost_at = d->steps_lost_at;
    if (d->setup_error[0] && env.err)
        fprintf(env.err, "membench-mpi: error: %s\n", d->setup_error);
    if (env.out)
        fclose(env.out);
    if (env.err)
        fclose(env.err);
    out->exit_status = rc;
    if (fd >= 0) {
        out->document = read_all(json, &out->document_len);
        if (out->document && out->document_len == 0) {
            free(out->document);
            out->document = NULL;
        }
        unlink(json);
    }
    out->error = error_of(said, rc);
    free(said);
}

static void start_together(driver *d)
{
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (!wait_until(&req, clock_now() + d->o.rank_timeout_s)) {
        fprintf(stderr, "membench-mpi: warning: rank %d starts without the others: the barrier timed out after %g s\n",
                d->rank, d->o.rank_timeout_s);
        d->steps_lost_at = 0; /* no step can start together after a barrier left half-joined */
    }
}

static void start_in_turn(driver *d)
{
    if (d->rank == 0)
        return; /* rank 0 goes first, then tells each in turn */
    int go;
    MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0's whole-cluster output. */
typedef struct {
    cluster c;
    cluster_run run;
    file_target target;
    bool have_target;
    double since; /* the gather's start: every rank's last step over (rank 0's own end, in turn) */
    double saved_at, save_s; /* the last rewrite of the JSON: when, and how long it took */
} gather;

static void write_cluster_json(FILE *f, const void *ctx)
{
    const gather *g = ctx;
    cluster_json_write(f, &g->c, &g->run);
}

static void save(gather *g)
{
    double t = clock_now();
    cluster_analyse(&g->c);
    if (g->have_target && !file_target_write(&g->target, write_cluster_json, g))
        fprintf(stderr, "membench-mpi: error: cannot write %s (%s)\n", g->target.path, strerror(errno));
    g->saved_at = clock_now();
    g->save_s = g->saved_at - t;
    g->run.json_write_s += g->save_s;
}

/* After a record: the whole file is rewritten (it grows with every node), so at most
 * once a second, and never more than a tenth of the time, or the gather would be
 * quadratic in the ranks (bench/mpi_gather.sh). The end, or a signal, saves anyway. */
static void save_soon(gather *g)
{
    double wait = 10 * g->save_s > 1.0 ? 10 * g->save_s : 1.0;
    if (clock_now() - g->saved_at >= wait)
        save(g);
}

static void take_record(gather *g, int rank, const rank_message *m)
{
    cluster_set_host(&g->c, rank, m->host);
    cluster_set_record(&g->c, rank, m->exit_status, m->document, m->document_len, m->error);
    cluster_set_times(&g->c, rank, m->started, m->ended);
    cluster_set_steps(&g->c, rank, m->steps_together, m->steps_lost_at);
    save_soon(g);
}

/* One record from source (MPI_ANY_SOURCE: any) before the deadline; the rank it came from, or -1. */
static int receive_record(gather *g, int source, double deadline)
{
    for (;;) {
        int ready = 0;
        MPI_Status st;
        MPI_Iprobe(source, TAG_RECORD, MPI_COMM_WORLD, &ready, &st);
        if (ready) {
            int n = 0;
            MPI_Get_count(&st, MPI_CHAR, &n);
            char *buf = malloc(n > 0 ? (size_t)n : 1);
            MPI_Recv(buf ? buf : (char[1]){0}, buf ? n : 0, MPI_CHAR, st.MPI_SOURCE, TAG_RECORD, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            g->run.gathered++;
            g->run.gather_bytes += n;
            g->run.gather_s = clock_now() - g->since;
            rank_message m;
            if (buf && rank_message_decode(buf, (size_t)n, &m))
                take_record(g, st.MPI_SOURCE, &m);
            else {
                cluster_set_missing(&g->c, st.MPI_SOURCE, NODE_FAILED, "its message to rank 0 was garbled");
                save_soon(g);
            }
            rank_message_free(&m);
            free(buf);
            return st.MPI_SOURCE;
        }
        if (clock_now() > deadline)
            return -1;
        sleep_ms(2);
    }
}

static int root(driver *d, int argc, char **argv)
{
    gather g;
    memset(&g, 0, sizeof g);
    if (!cluster_init(&g.c, d->mode->name, d->size, d->o.threshold)) {
        fprintf(stderr, "membench-mpi: error: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char started[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    g.run = (cluster_run){argc, argv, started, d->o.one_at_a_time, d->o.split ? "split" : "refuse",
                          d->o.rank_timeout_s, false, NULL, 0, 0, 0, 0, 0};
    for (int r = 0; r < d->size; r++)
        cluster_set_host(&g.c, r, d->ids[r].host);
    char err[512];
    if (d->o.json_path) /* checked before anything else was said; written from the start */
        g.have_target = file_target_open(&g.target, "--json", d->o.json_path, err, sizeof err);
    save(&g);

    rank_message mine;
    run_rank(d, &mine, d->o.one_at_a_time ? start_in_turn : start_together);
    g.since = d->measured_all_at > 0 ? d->measured_all_at : clock_now();
    g.run.json_write_s = 0; /* the gather's part only */
    take_record(&g, 0, &mine);
    rank_message_free(&mine);
    int waiting = d->size - 1;
    const char *why_missing = NULL;
    char timeout_text[128];
    snprintf(timeout_text, sizeof timeout_text, "no record within --rank-timeout %g s", d->o.rank_timeout_s);
    if (d->o.one_at_a_time) {
        for (int r = 1; r < d->size && !stop_flagged(); r++) {
            int go = 1;
            MPI_Request req;
            MPI_Isend(&go, 1, MPI_INT, r, TAG_GO, MPI_COMM_WORLD, &req);
            double deadline = clock_now() + d->o.rank_timeout_s;
            bool sent = wait_until(&req, deadline);
            if (sent && receive_record(&g, r, deadline) == r)
                waiting--;
            else
                cluster_set_missing(&g.c, r, NODE_NO_ANSWER, timeout_text);
        }
    } else {
        /* each rank's run may take --rank-timeout from the common start; rank 0's own is over */
        double deadline = clock_now() + d->o.rank_timeout_s;
        while (waiting > 0 && !stop_flagged())
            if (receive_record(&g, MPI_ANY_SOURCE, deadline) < 0)
                break;
            else
                waiting--;
        if (stop_flagged()) /* a signal: what the others send in the next two seconds is kept */
            while (waiting > 0 && receive_record(&g, MPI_ANY_SOURCE, clock_now() + 2) >= 0)
                waiting--;
    }
    int sig = stop_signal();
    why_missing = sig ? "the run was stopped before it answered" : timeout_text;
    bool silent = false;
    for (int r = 0; r < d->size; r++)
        if (g.c.nodes[r].status == NODE_WAITING) {
            cluster_set_missing(&g.c, r, NODE_NO_ANSWER, why_missing);
            silent = true;
        }
    cluster_analyse(&g.c);
    int status = sig ? 128 + sig : cluster_exit_status(&g.c);
    g.run.complete = !sig && !silent;
    g.run.stopped_by = stop_signal_name(sig);
    g.run.exit_status = status;
    save(&g);
    cluster_table_write(stdout, &g.c, &g.run);
    if (fflush(stdout) != 0 && status == 0)
        status = 1;
    if (g.have_target)
        file_target_free(&g.target);
    cluster_free(&g.c);
    fflush(stderr);
    /* A silent rank would hold MPI_Finalize forever: end the job. Debian 12's mpirun
     * (Open MPI 4.1.4, PMIx 4.2.2) itself now and then crashes or hangs in its own
     * teardown after this, every rank gone; so it did after rank 0 exited without
     * MPI_Finalize instead (bench/mpi_silent_rank.sh). MPI_Abort is what srun and
     * other launchers hear, with this status. */
    if (silent)
        MPI_Abort(MPI_COMM_WORLD, status);
    return status;
}

static void other(driver *d)
{
    if (test_rank("MEMBENCH_MPI_TEST_HANG_RANK") == d->rank)
        for (int i = 0; i < 600 && !stop_flagged(); i++) /* rank 0 gives up on it and ends the job */
            sleep_ms(100);
    rank_message m;
    run_rank(d, &m, d->o.one_at_a_time ? start_in_turn : start_together);
    size_t len = 0;
    char *bytes = rank_message_encode(&m, &len);
    if (bytes && len <= (size_t)2147483647)
        MPI_Send(bytes, (int)len, MPI_CHAR, 0, TAG_RECORD, MPI_COMM_WORLD);
    free(bytes);
    rank_message_free(&m);
}

/* The mode's own --help, --version or --list-kernels: said by rank 0, nothing run. */
static bool asks_to_exit(const cluster_options *o)
{
    for (int i = 1; i < o->argc; i++)
        if (!strcmp(o->argv[i], "--")) 
            break;
        else if (!strcmp(o->argv[i], "-h") || !strcmp(o->argv[i], "--help") || !strcmp(o->argv[i], "-V") ||
                 !strcmp(o->argv[i], "--version") || !strcmp(o->argv[i], "--list-kernels"))
            return true;
    return false;
}

static int finish(driver *d, int status)
{
    cluster_options_free(&d->o);
    free(d->ids);
    if (d->local != MPI_COMM_NULL && d->local)
        MPI_Comm_free(&d->local);
    MPI_Finalize();
    return status;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    driver d;
    memset(&d, 0, sizeof d);
    d.local = MPI_COMM_NULL;
    d.steps_lost_at = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d.size);
    char err[1024];
    /* the same command line on every rank: every rank decides alike, rank 0 says it */
    if (!cluster_options_parse(argc, argv, &d.o, err, sizeof err)) {
        if (d.rank == 0)
            fprintf(stderr, "membench-mpi: %s\n", err);
        return finish(&d, 2);
    }
    if (d.o.help) {
        if (d.rank == 0)
            fputs(cluster_options_help, stdout);
        return finish(&d, 0);
    }
    int words = 0;
    d.mode = mode_find_argv(d.o.argc, d.o.argv, &words);
    if (!d.mode)
        d.mode = mode_table(NULL)[0];
    if (d.mode->flags & MODE_STANDALONE || !strcmp(d.mode->name, "compare")) {
        if (d.rank == 0)
            fprintf(stderr, "membench-mpi: %s measures nothing; give a measuring mode (sweep, stream, latency...)\n",
                    d.mode->name);
        return finish(&d, 2);
    }
    if (asks_to_exit(&d.o)) {
        int rc = 0;
        if (d.rank == 0) {
            session_env env = session_env_live();
            rc = session_run(d.mode, d.o.argc, d.o.argv, &env);
        }
        return finish(&d, rc);
    }
    stop_install_signal_handlers();
    int bad = 0;
    if (d.rank == 0 && d.o.json_path && !file_target_check("--json", d.o.json_path, err, sizeof err)) {
        fprintf(stderr, "membench-mpi: %s\n", err);
        bad = 2;
    }
    if (!identify(&d)) {
        if (d.rank == 0)
            fprintf(stderr, "membench-mpi: error: the ranks did not all start within --rank-timeout %g s\n",
                    d.o.rank_timeout_s);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    bool shared = share_ranks(&d, d.rank);
    /* the options, once more on every rank: a mode's bad flag is refused once, by rank 0 */
    if (!bad) {
        session_env env = session_env_live();
        char *said = NULL;
        size_t said_len = 0;
        env.out = fopen("/dev/null", "w");
        env.err = d.rank == 0 ? stderr : open_memstream(&said, &said_len);
        int argc2;
        char **argv2 = mode_argv(&d, "/dev/null", &argc2);
        if (env.out && env.err && argv2) {
            void *opts = calloc(1, d.mode->options_size);
            int skip = 0;
            if (d.mode != mode_table(NULL)[0])
                mode_find_argv(argc2, argv2, &skip);
            if (opts && mode_parse_options(d.mode, argc2 - skip, argv2 + skip, env.getenv, opts, err, sizeof err) ==
                            PARSE_ERROR) {
                if (d.rank == 0)
                    fprintf(stderr, "membench%s%s: %s\n", skip ? " " : "",
                            skip ? (d.mode->command ? d.mode->command : d.mode->name) : "", err);
                bad = 2;
            }
            if (opts)
                options_free(opts);
            free(opts);
        }
        free_mode_argv(argv2);
        if (env.out)
            fclose(env.out);
        if (env.err && env.err != stderr)
            fclose(env.err);
        free(said);
    }
    int agreed = agree_max(&d, bad * 4 + (shared ? 1 : 0));
    if (agreed < 0) {
        if (d.rank == 0)
            fprintf(stderr, "membench-mpi: error: the ranks did not all start within --rank-timeout %g s\n",
                    d.o.rank_timeout_s);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (agreed >= 4)
        return finish(&d, 2);
    if ((agreed & 1) && !d.o.split) {
        if (d.rank == 0) {
            char who[512];
            describe_shared(&d, who, sizeof who);
            fprintf(stderr,
                    "membench-mpi: %s share a host, and would measure the same memory; run one rank per node "
                    "(mpirun --map-by ppr:1:node, srun --ntasks-per-node=1) or give --share-host split\n",
                    who);
        }
        return finish(&d, 2);
    }
    if (d.o.split && getenv("MEMBENCH_MPI_TEST_DISTINCT_HOSTS") == NULL)
        split_host(&d);
    budget_refused = test_rank("MEMBENCH_MPI_TEST_FAIL_RANK") == d.rank;
    int status = 0;
    if (d.rank == 0)
        status = root(&d, argc, argv);
    else
        other(&d);
    return finish(&d, status);
}
