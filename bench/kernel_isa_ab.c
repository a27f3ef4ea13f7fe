/* SPDX-License-Identifier: MIT */
/* Compares the ISA variants of every sweep kernel this CPU runs (all rows of the
 * kernel table, libc memcpy included) on one thread, in one process, on the same
 * buffers, interleaved round by round: page placement is identical for all
 * variants, so the differences are the kernels'.
 *   make bench-isa && build/kernel_isa_ab SIZE_KB ROUNDS */
#include <stdio.h>
#include <stdlib.h>

#include "kernels/isa.h"
#include "kernels/kernel.h"
#include "measure/clock.h"
#include "util/stats.h"
#include "memory/buffer.h"
#include "util/parse_number.h"

#define MAX_ROUNDS 1000
#define MAX_VARIANTS 16 /* kernels of one operation */

int main(int argc, char **argv)
{
    uint64_t kb, rounds;
    if (argc != 3 || !parse_u64(argv[1], 4, 1ULL << 30, &kb) || !parse_u64(argv[2], 1, MAX_ROUNDS, &rounds)) {
        fprintf(stderr, "usage: %s SIZE_KB ROUNDS (ROUNDS <= %d)\n", argv[0], MAX_ROUNDS);
        return 2;
    }
    size_t bytes = (size_t)kb * 1024;
    static double rate[MAX_VARIANTS][MAX_ROUNDS];
    size_t nk_all;
    const kernel *all = kernel_table(&nk_all);
    buffer src, dst;
    if (!buffer_alloc(&src, bytes, PAGES_NORMAL, 0, -1) || !buffer_alloc(&dst, bytes, PAGES_NORMAL, 0, -1))
        return 1;
    buffer_fill(&src, 1);
    buffer_fill(&dst, 2);
    const kernel_args args = {.out = dst.ptr, .in = {src.ptr}, .bytes = bytes, .pattern = 5};
    printf("%-9s %-7s %12s %12s   (MB/s = 10^6 B/s, one thread, %llu KiB, %llu rounds)\n", "op", "isa",
           "median", "best", (unsigned long long)kb, (unsigned long long)rounds);
    for (int op = 0; op < OP_COUNT; op++) {
        /* every sweep kernel of this operation that this CPU runs, in table order */
        const kernel *ks[MAX_VARIANTS];
        int nk = 0;
        for (size_t i = 0; i < nk_all && nk < MAX_VARIANTS; i++)
            if (all[i].family == KERNEL_SWEEP && all[i].op == (mb_op)op && isa_supported(all[i].isa))
                ks[nk++] = &all[i];
        /* enough passes per timing that the clock is not the limit */
        uint64_t passes = bytes >= (1 << 20) ? 1 : (1 << 20) / bytes;
        for (uint64_t r = 0; r < rounds; r++)
            for (int i = 0; i < nk; i++) {
                double t0 = clock_now();
                for (uint64_t p = 0; p < passes; p++)
                    ks[i]->fn(&args);
                rate[i][r] = (double)kernel_bytes_counted(ks[i], bytes) * (double)passes / (clock_now() - t0) / 1e6;
            }
        for (int i = 0; i < nk; i++) {
            sample_stats st = stats_compute(rate[i], (size_t)rounds);
            printf("%-9s %-7s %12.0f %12.0f\n", op_name((mb_op)op), ks[i]->isa, st.median, st.max);
        }
    }
    buffer_free(&src);
    buffer_free(&dst);
    return 0;
}
