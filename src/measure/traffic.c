/* SPDX-License-Identifier: MIT */
#include "measure/traffic.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/clock.h"
#include "measure/spin_delay.h"
#include "measure/stop.h"

#define CHECK_EVERY 8         /* traffic steps between two looks at the clock or the end flag */
#define BUFFER_SEED 0x7a11ULL
#define MAX_CHASE_STEPS (1ULL << 40)
#define SETTLE_S 0.05 /* loaded latency: traffic runs this long before a phase is measured */
/* ... and this long in the first phase with traffic after a quiet one (the idle
 * latency): threads that slept all through it needed more than 50 ms to reach their
 * pace on a 2-vCPU guest, and delay 0's bandwidth moved 4x between runs (BENCHMARKS,
 * "loaded-latency as steady as multiload"). Later phases follow busy ones. */
#define SETTLE_AFTER_QUIET_S 0.5
#define EXTEND_MAX_S 5.0 /* loaded latency: how long the window may wait for a traffic step */
#define WARM_STEPS_MAX (1ULL << 22) /* ~0.5 s from DRAM */
#define QUIET_NAP_NS 200000   /* a quiet traffic thread looks for the end this often */

enum { READ_BUF, READ2_BUF, WRITE_BUF, NBUFS };

/* One counter per cache line: a thread's stores never disturb another's line. */
typedef struct {
    _Alignas(64) atomic_uint_least64_t bytes;
    uint64_t steps, spins; /* written by its thread as it ends, read after the join */
} line_counter;

struct traffic_run {
    team *t;
    int n;
    traffic_setup setup;
    buffer (*bufs)[NBUFS];
    traffic_cursor *cur;
    line_counter *count;
    bool *ok;
    buffer chase;
    void *chase_pos;
    uint64_t chase_steps;
    /* the phase being run */
    const traffic_phase *ph;
    atomic_int done;
    double *samples;
    int got;
    double next_boundary, last_t, t0, t1;
    double extended_s; /* loaded latency: the bandwidth window ran on past the latency samples */
    double settle_s;   /* loaded latency: how long the traffic ran before this phase's window */
    bool traffic_ran;  /* the phase before had traffic: its threads are at their pace */
    uint64_t last_total;
    uint64_t *snap0, *snap1; /* per thread, at the measured window's start and end */
};

static bool is_chaser(const traffic_run *r, int tid)
{
    return tid == 0 && r->setup.chaser;
}

static bool alloc_one(buffer *b, const traffic_setup *s, uint64_t bytes, int node)
{
    return s->strict && node >= 0 ? buffer_alloc_bound(b, bytes, s->pages, s->huge_size, node)
                                  : buffer_alloc(b, bytes, s->pages, s->huge_size, node);
}

static void job_prepare(team *t, int tid, void *arg)
{
    (void)t;
    traffic_run *r = arg;
    const traffic_setup *s = &r->setup;
    int node = s->nodes ? s->nodes[tid] : -1;
    r->ok[tid] = true;
    if (is_chaser(r, tid)) {
        r->ok[tid] = alloc_one(&r->chase, s, s->chase_bytes, node);
        /* linking the chain writes every line: it is the first touch too */
        if (r->ok[tid] && buffer_populate(&r->chase, 0, s->chase_bytes)) /* its pages at once */
            r->chase_pos = chase_build(r->chase.ptr, s->chase_bytes, &s->layout);
        r->ok[tid] = r->ok[tid] && (r->chase_pos || stop_flagged());
        return;
    }
    const bool want[NBUFS] = {s->read, s->read2, s->write};
    for (int b = 0; b < NBUFS && r->ok[tid]; b++)
        if (want[b]) {
            r->ok[tid] = alloc_one(&r->bufs[tid][b], s, s->bytes, node);
            if (r->ok[tid] && !buffer_fill(&r->bufs[tid][b], BUFFER_SEED + (uint64_t)(tid * NBUFS + b)))
                return; /* stopped: nothing will be measured */
        }
    r->cur[tid] = (traffic_cursor){.read = r->bufs[tid][READ_BUF].ptr, .read2 = r->bufs[tid][READ2_BUF].ptr,
                                   .write = r->bufs[tid][WRITE_BUF].ptr, .bytes = s->bytes,
                                   .rng = BUFFER_SEED + (uint64_t)tid};
}

/* Chase steps for one sample of chase_sample_s, found with the traffic quiet; the
 * chases double as warm-up. */
static void job_calibrate(team *t, int tid, void *arg)
{
    (void)t;
    traffic_run *r = arg;
    if (!is_chaser(r, tid))
        return;
    /* Once around the chain first (up to WARM_STEPS_MAX links): building it left
     * lines out of the caches that later samples find in them, and a calibration on
     * the cold chain would make every sample several times too short. */
    uint64_t links = r->setup.chase_bytes / (r->setup.layout.node_bytes ? r->setup.layout.node_bytes : 64);
    r->chase_pos = chase_run(r->chase_pos, links < WARM_STEPS_MAX ? links : WARM_STEPS_MAX);
    uint64_t steps = 1024;
    for (;;) {
        double t0 = clock_now();
        r->chase_pos = chase_run(r->chase_pos, steps);
        double dt = clock_now() - t0;
        if (stop_flagged() || dt >= r->setup.chase_sample_s / 4 || steps >= MAX_CHASE_STEPS) {
            double per = dt / (double)steps;
            r->chase_steps = per > 0 ? (uint64_t)(r->setup.chase_sample_s / per) + 1 : steps;
            break;
        }
        steps *= 4;
    }
    /* One full sample to check: a first pass slowed by a cold TLB or a preemption
     * makes samples short; rescale once when it is under half the length asked. */
    double t0 = clock_now();
    r->chase_pos = chase_run(r->chase_pos, r->chase_steps);
    double dt = clock_now() - t0;
    if (dt > 0 && dt < r->setup.chase_sample_s / 2 && !stop_flagged())
        r->chase_steps = (uint64_t)((double)r->chase_steps * r->setup.chase_sample_s / dt) + 1;
}

static void inspect(traffic_run *r)
{
    buffer **all = malloc(sizeof *all * ((size_t)r->n * NBUFS + 1));
    size_t count = 0;
    for (int i = 0; all && i < r->n; i++)
        for (int b = 0; b < NBUFS; b++)
            if (r->bufs[i][b].map)
                all[count++] = &r->bufs[i][b];
    if (r->chase.map && all)
        all[count++] = &r->chase;
    if (all)
        buffer_inspect_all(all, count);
    free(all);
}

measure_status traffic_prepare(team *t, const traffic_setup *s, traffic_run **out)
{
    *out = NULL;
    int n = team_size(t);
    traffic_run *r = calloc(1, sizeof *r);
    if (!r)
        return MEASURE_NO_MEMORY;
    r->t = t;
    r->n = n;
    r->setup = *s;
    r->bufs = calloc((size_t)n, sizeof *r->bufs);
    r->cur = calloc((size_t)n, sizeof *r->cur);
    r->count = aligned_alloc(64, sizeof *r->count * (size_t)n);
    r->ok = calloc((size_t)n, sizeof *r->ok);
    r->snap0 = calloc((size_t)n, sizeof *r->snap0);
    r->snap1 = calloc((size_t)n, sizeof *r->snap1);
    if (!r->bufs || !r->cur || !r->count || !r->ok || !r->snap0 || !r->snap1) {
        traffic_release(r);
        return MEASURE_NO_MEMORY;
    }
    for (int i = 0; i < n; i++)
        atomic_init(&r->count[i].bytes, 0);
    team_run(t, job_prepare, r);
    measure_status st = MEASURE_OK;
    for (int i = 0; i < n; i++)
        if (!r->ok[i])
            st = MEASURE_NO_MEMORY;
    if (st == MEASURE_OK && stop_flagged())
        st = MEASURE_STOPPED;
    if (st == MEASURE_OK && s->chaser) {
        team_run(t, job_calibrate, r);
        if (stop_flagged())
            st = MEASURE_STOPPED;
    }
    if (st != MEASURE_OK) {
        traffic_release(r);
        return st;
    }
    inspect(r);
    *out = r;
    return MEASURE_OK;
}

static uint64_t read_counter(traffic_run *r, int i)
{
    return atomic_load_explicit(&r->count[i].bytes, memory_order_relaxed);
}

static uint64_t snapshot(traffic_run *r, uint64_t *per_thread)
{
    uint64_t total = 0;
    for (int i = 0; i < r->n; i++) {
        per_thread[i] = read_counter(r, i);
        total += per_thread[i];
    }
    return total;
}

static void finish(traffic_run *r)
{
    atomic_store_explicit(&r->done, 1, memory_order_release);
}

static bool finished(traffic_run *r)
{
    return atomic_load_explicit(&r->done, memory_order_acquire) != 0;
}

/* Thread 0 without a chaser, every CHECK_EVERY steps: closes a window when it is
 * due. True when the phase is over. */
static bool window_tick(traffic_run *r)
{
    if (stop_flagged()) {
        finish(r);
        return true;
    }
    double now = clock_now();
    if (now < r->next_boundary)
        return false;
    if (stop_requested()) { /* stdout's reader too, once a window: its look reads the clock again */
        finish(r);
        return true;
    }
    uint64_t *snap = r->got == 0 && r->t0 == 0 ? r->snap0 : r->snap1;
    uint64_t total = snapshot(r, snap);
    if (r->t0 == 0) {
        r->t0 = now; /* the warm-up window ends: measuring starts */
    } else {
        r->samples[r->got++] = (double)(total - r->last_total) / (now - r->last_t) / 1e6;
        r->t1 = now;
    }
    r->last_total = total;
    r->last_t = now;
    r->next_boundary = now + r->ph->window_s;
    if (r->got < r->ph->samples)
        return false;
    finish(r);
    return true;
}

static void traffic_loop(traffic_run *r, int tid)
{
    const traffic_phase *ph = r->ph;
    bool timer = tid == 0;
    if (!ph->prog) { /* quiet: idle latency */
        struct timespec nap = {0, QUIET_NAP_NS};
        while (!finished(r))
            nanosleep(&nap, NULL);
        return;
    }
    traffic_cursor *c = &r->cur[tid];
    uint64_t bytes = 0, spins = 0;
    for (unsigned k = 1;; k++) {
        bytes += traffic_step(ph->prog, c);
        spins += spin_delay(ph->delay);
        atomic_store_explicit(&r->count[tid].bytes, bytes, memory_order_relaxed);
        if (k % CHECK_EVERY == 0 && (timer ? window_tick(r) : finished(r))) {
            r->count[tid].steps = k;
            r->count[tid].spins = spins;
            return;
        }
    }
}

/* Every traffic thread has finished a step since the window opened (true
 * without traffic). The counters only move at the end of a step. */
static bool traffic_advanced(traffic_run *r)
{
    if (!r->ph->prog)
        return true;
    for (int i = 0; i < r->n; i++)
        if (!is_chaser(r, i) && read_counter(r, i) == r->snap0[i])
            return false;
    return true;
}

static void chase_phase(traffic_run *r)
{
    const traffic_phase *ph = r->ph;
    uint64_t steps = r->chase_steps;
    /* discarded, at least SETTLE_S: the traffic threads reach their pace */
    void *pos = r->chase_pos;
    double settle = ph->prog && !r->traffic_ran ? SETTLE_AFTER_QUIET_S : SETTLE_S, start = clock_now();
    while (clock_now() - start < settle && !stop_requested())
        pos = chase_run(pos, steps);
    r->settle_s = clock_now() - start;
    r->t0 = clock_now();
    snapshot(r, r->snap0);
    while (r->got < ph->samples && !stop_requested()) {
        double a = clock_now();
        pos = chase_run(pos, steps);
        r->samples[r->got++] = (clock_now() - a) * 1e9 / (double)steps;
    }
    /* A traffic step can outlast a short window (an emulator, a slow or busy core):
     * the chaser keeps going until every traffic thread has finished one inside the
     * window, so its bandwidth is never a false 0 (said in params.window_extended_s). */
    double samples_end = clock_now();
    bool extended = false;
    for (; !stop_requested() && !traffic_advanced(r) && clock_now() - samples_end < EXTEND_MAX_S; extended = true)
        pos = chase_run(pos, steps);
    r->t1 = clock_now();
    r->extended_s = extended ? r->t1 - samples_end : 0;
    snapshot(r, r->snap1);
    r->chase_pos = pos;
    finish(r);
}

static void job_phase(team *t, int tid, void *arg)
{
    traffic_run *r = arg;
    atomic_store_explicit(&r->count[tid].bytes, 0, memory_order_relaxed);
    r->count[tid].steps = r->count[tid].spins = 0;
    team_barrier(t);
    if (tid == 0)
        r->next_boundary = clock_now() + r->ph->window_s; /* the warm-up window */
    if (is_chaser(r, tid))
        chase_phase(r);
    else
        traffic_loop(r, tid);
}

double traffic_last_mb_s(const traffic_run *r)
{
    uint64_t bytes = 0;
    for (int i = 0; i < r->n; i++)
        bytes += r->snap1[i] - r->snap0[i];
    return r->t1 > r->t0 ? (double)bytes / (r->t1 - r->t0) / 1e6 : 0;
}

static const char *program_isa(const traffic_program *p)
{
    const kernel *k = p->copy ? p->copy : p->read ? p->read : p->write ? p->write : p->triad;
    return k ? k->isa : "none";
}

/* The stores of the kernels that write, as chosen (not as the mix names them): a
 * record of W10 says non-temporal only when its triad kernel stores so. */
static const char *program_stores(const traffic_program *p)
{
    const kernel *k = p->copy ? p->copy : p->write ? p->write : p->triad;
    return k ? k->store : "loads";
}

/* Pages of the buffers the phase used (the chase chain and the mix's streams), the
 * lowest share on its intended node, pins. */
static void describe(const traffic_run *r, const traffic_program *prog, result_record *out)
{
    const bool used[NBUFS] = {prog && traffic_mix_uses_read(prog->mix), prog && traffic_mix_uses_second_read(prog->mix),
                              prog && traffic_mix_uses_write(prog->mix)};
    out->node_local_fraction = 2;
    for (int i = 0; i < r->n; i++) {
        int want = r->setup.nodes ? r->setup.nodes[i] : -1;
        for (int b = 0; b <= NBUFS; b++) {
            const buffer *x = b == NBUFS ? (i == 0 ? &r->chase : NULL) : used[b] ? &r->bufs[i][b] : NULL;
            if (!x || !x->map)
                continue;
            result_add_buffer(out, x->method, x->len, x->huge_coverage);
            double local = want >= 0 && x->node >= 0 ? (x->node == want ? x->node_fraction : 0) : -1;
            if (local < out->node_local_fraction)
                out->node_local_fraction = local;
        }
    }
    if (out->node_local_fraction > 1)
        out->node_local_fraction = -1;
    out->pins_verified = 0;
    for (int i = 0; i < r->n; i++)
        out->pins_verified += team_pin_verified(r->t, i);
}

measure_status traffic_measure(traffic_run *r, const traffic_phase *ph, result_record *out)
{
    r->ph = ph;
    r->got = 0;
    r->t0 = r->t1 = r->last_t = 0;
    r->last_total = 0;
    atomic_store(&r->done, 0);
    memset(r->snap0, 0, sizeof *r->snap0 * (size_t)r->n);
    memset(r->snap1, 0, sizeof *r->snap1 * (size_t)r->n);
    r->samples = calloc((size_t)ph->samples, sizeof *r->samples);
    if (!r->samples)
        return MEASURE_NO_MEMORY;
    if (!ph->prog && !r->setup.chaser) { /* a caller's mistake: nobody would measure or end the phase */
        free(r->samples);
        r->samples = NULL;
        return MEASURE_STOPPED;
    }
    team_run(r->t, job_phase, r);
    r->traffic_ran = ph->prog != NULL;
    if (r->got == 0) {
        free(r->samples);
        r->samples = NULL;
        return MEASURE_STOPPED;
    }
    result_set_samples(out, r->samples, r->got);
    free(r->samples);
    r->samples = NULL;
    int traffic_threads = r->n - (r->setup.chaser ? 1 : 0);
    double mbs = traffic_last_mb_s(r);
    out->size_bytes = r->setup.chaser ? r->setup.chase_bytes : r->setup.bytes;
    out->threads = r->n;
    out->iterations = r->setup.chaser ? (uint64_t)r->got : 0; /* bandwidth samples are windows, not passes */
    out->samples_wanted = ph->samples;
    out->elapsed_s = r->t1 - r->t0;
    out->complete = r->got == ph->samples;
    if (r->setup.chaser) {
        out->kernel_isa = "chase";
        out->kernel_store = "loads";
    } else {
        out->kernel_isa = ph->prog ? program_isa(ph->prog) : "none";
        out->kernel_store = ph->prog ? program_stores(ph->prog) : "loads";
        out->bytes_per_sample = round(mbs * 1e6 * ph->window_s); /* a typical window: they differ by a step or two */
        out->median_headline = true;
    }
    param_list *p = &out->params;
    params_text(p, "traffic", ph->prog ? ph->prog->mix->name : "none");
    params_int(p, "delay", (long long)ph->delay);
    if (ph->prog) { /* the delay as spun: iterations per step over every traffic thread */
        uint64_t steps = 0, spins = 0;
        for (int i = 0; i < r->n; i++)
            if (!is_chaser(r, i)) {
                steps += r->count[i].steps;
                spins += r->count[i].spins;
            }
        params_number(p, "spins_per_step", steps ? (double)spins / (double)steps : 0);
    }
    params_number(p, "delay_ns", (double)ph->delay * spin_ns_per_iteration());
    params_int(p, "traffic_threads", ph->prog ? traffic_threads : 0);
    params_int(p, "buffer_bytes", (long long)r->setup.bytes);
    if (ph->prog) {
        params_int(p, "unit_bytes", (long long)ph->prog->unit);
        params_text(p, "access", ph->prog->random ? "random" : "sequential");
    }
    if (r->setup.chaser) {
        params_number(p, "bandwidth_mb_s", mbs);
        params_number(p, "dram_bandwidth_mb_s", ph->prog ? traffic_mix_dram_bytes(ph->prog->mix, mbs) : 0);
        params_int(p, "chase_steps", (long long)r->chase_steps);
        params_number(p, "window_extended_s", r->extended_s);
        params_number(p, "settle_s", r->settle_s);
    } else {
        params_number(p, "dram_mb_s", traffic_mix_dram_bytes(ph->prog->mix, result_value(out)));
        params_number(p, "window_s", ph->window_s);
        params_number(p, "window_mb_s", mbs); /* all windows together: what the per-thread shares add up to */
    }
    if (ph->per_thread)
        for (int i = r->setup.chaser ? 1 : 0; i < r->n; i++) {
            char key[32];
            snprintf(key, sizeof key, "thread_%d_mb_s", i);
            params_number(p, key, r->t1 > r->t0 ? (double)(r->snap1[i] - r->snap0[i]) / (r->t1 - r->t0) / 1e6 : 0);
        }
    describe(r, ph->prog, out);
    return MEASURE_OK;
}

void traffic_release(traffic_run *r)
{
    if (!r)
        return;
    for (int i = 0; r->bufs && i < r->n; i++)
        for (int b = 0; b < NBUFS; b++)
            buffer_free(&r->bufs[i][b]);
    buffer_free(&r->chase);
    free(r->bufs);
    free(r->cur);
    free(r->count);
    free(r->ok);
    free(r->snap0);
    free(r->snap1);
    free(r->samples);
    free(r);
}
