/* SPDX-License-Identifier: MIT */
#include "faulty_kernels.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* kernel_args does not say which kernel runs, so each wrapped row gets a wrapper
 * of its own: slot i calls originals[i]. */
#define SLOTS 32
#define SLOW_CALL_NS 20000000L /* longer than a 10 ms sample's calibration aim */
static kernel_fn originals[SLOTS];
static kernel_family families[SLOTS];
static bool corrupts[SLOTS], slows[SLOTS], lazies[SLOTS];
static atomic_long slow_calls_left, lazy_calls_left;

static uint64_t spoil(int slot, const kernel_args *a)
{
    if (slows[slot] && atomic_fetch_sub(&slow_calls_left, 1) > 0) {
        struct timespec ts = {0, SLOW_CALL_NS};
        while (nanosleep(&ts, &ts) != 0) {
        }
    }
    if (lazies[slot] && atomic_fetch_sub(&lazy_calls_left, 1) <= 0)
        return 0;
    uint64_t x = originals[slot](a);
    if (!corrupts[slot])
        return x;
    if (!a->out || a->bytes < 8)
        return x ^ 1; /* a loads-only kernel: its checksum is what the run checks */
    if (families[slot] == KERNEL_STREAM)
        ((double *)a->out)[0] += 1.0; /* far beyond STREAM's epsilon */
    else
        ((uint64_t *)a->out)[0] ^= 1;
    return x;
}

#define WRAP(i)                                                                                                       \
    static uint64_t wrap##i(const kernel_args *a) { return spoil(i, a); }
WRAP(0) WRAP(1) WRAP(2) WRAP(3) WRAP(4) WRAP(5) WRAP(6) WRAP(7) WRAP(8) WRAP(9) WRAP(10) WRAP(11) WRAP(12) WRAP(13)
WRAP(14) WRAP(15) WRAP(16) WRAP(17) WRAP(18) WRAP(19) WRAP(20) WRAP(21) WRAP(22) WRAP(23) WRAP(24) WRAP(25)
WRAP(26) WRAP(27) WRAP(28) WRAP(29) WRAP(30) WRAP(31)

static const kernel_fn wrappers[SLOTS] = {
    wrap0,  wrap1,  wrap2,  wrap3,  wrap4,  wrap5,  wrap6,  wrap7,  wrap8,  wrap9,  wrap10,
    wrap11, wrap12, wrap13, wrap14, wrap15, wrap16, wrap17, wrap18, wrap19, wrap20, wrap21,
    wrap22, wrap23, wrap24, wrap25, wrap26, wrap27, wrap28, wrap29, wrap30, wrap31,
};

void faulty_kernels_install(kernel *rows, size_t n)
{
    const char *corrupt = getenv("MEMBENCH_CORRUPT"), *slow = getenv("MEMBENCH_SLOW"), *lazy = getenv("MEMBENCH_LAZY");
    char slow_name[32] = "", lazy_name[32] = "";
    long calls = 0, lazy_calls = -1;
    if (slow && sscanf(slow, "%31[^:]:%ld", slow_name, &calls) == 2)
        atomic_store(&slow_calls_left, calls);
    if (lazy && sscanf(lazy, "%31[^:]:%ld", lazy_name, &lazy_calls) == 2)
        atomic_store(&lazy_calls_left, lazy_calls);
    int used = 0;
    for (size_t i = 0; i < n && used < SLOTS; i++) {
        bool c = corrupt && strcmp(rows[i].name, corrupt) == 0, s = calls > 0 && strcmp(rows[i].name, slow_name) == 0;
        bool l = lazy_calls >= 0 && strcmp(rows[i].name, lazy_name) == 0;
        if (!c && !s && !l)
            continue;
        originals[used] = rows[i].fn;
        families[used] = rows[i].family;
        corrupts[used] = c;
        slows[used] = s;
        lazies[used] = l;
        rows[i].fn = wrappers[used++];
    }
}

void faulty_c2c_times(double *transfer_ns, double *own_ns)
{
    const char *fixed = getenv("MEMBENCH_C2C_NS");
    double t, o;
    if (fixed && sscanf(fixed, "%lf:%lf", &t, &o) == 2) {
        *transfer_ns = t;
        *own_ns = o;
    }
}
