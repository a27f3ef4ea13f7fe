/* SPDX-License-Identifier: MIT */
/* What every fuzz target shares: libFuzzer's entry point (also called by
 * fuzz/replay_main.c for every corpus file in make check) and FUZZ_CHECK, an
 * invariant the code under test promises. A failed check aborts, so libFuzzer
 * keeps the input as a crash and the replay reports it. */
#ifndef MEMBENCH_FUZZ_H
#define MEMBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Set by a target that leaves something behind (temporary files): called before
 * a failed check aborts. */
static void (*fuzz_cleanup)(void) __attribute__((unused));

#define FUZZ_CHECK(cond, ...)                                                                                         \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__, __LINE__, #cond);                             \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
            if (fuzz_cleanup)                                                                                         \
                fuzz_cleanup();                                                                                       \
            abort();                                                                                                  \
        }                                                                                                             \
    } while (0)

#endif
