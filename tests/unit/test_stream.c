/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stream_options.h"
#include "kernels/isa.h"
#include "kernels/kernel.h"
#include "kernels/stream_kernels.h"
#include "measure/stream_run.h"
#include "modes/stream_mode.h"
#include "test.h"
#include "topology/memory_peak.h"

#define N 5000 /* past two of the non-temporal kernels' 16 KiB page groups */

static void fill(double *a, double *b, double *c)
{
    for (size_t i = 0; i < N; i++) {
        a[i] = 1.0 + (double)i;
        b[i] = 2.0 * (double)i;
        c[i] = 0.5 * (double)i;
    }
}

TEST(stream_kernels_match_reference_on_any_range)
{
    size_t nsets;
    const stream_kernel_set *sets = stream_kernel_sets(&nsets);
    /* ranges that start and end off vector boundaries, as thread chunks do; and
     * whole groups of four pages (2048 doubles: the non-temporal kernels' streams
     * a page apart), one or two, with a head and a tail or exactly */
    const size_t ranges[][2] = {{0, N}, {3, 997}, {5, 6}, {17, 17}, {1, 64}, {0, 2048}, {0, 4096},
                                {3, 3 + 4096 + 5}, {11, 11 + 2047}, {7, N - 1}};
    int tested = 0;
    for (size_t s = 0; s < nsets; s++) {
        if (!isa_supported(sets[s].isa))
            continue;
        tested++;
        for (int f = 0; f < STREAM_NFUNCS; f++)
            for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
                double *a = aligned_alloc(64, N * 8), *b = aligned_alloc(64, N * 8), *c = aligned_alloc(64, N * 8);
                double ra[N], rb[N], rc[N];
                fill(a, b, c);
                fill(ra, rb, rc);
                stream_arrays arr = {a, b, c, 3.0};
                size_t lo = ranges[r][0], hi = ranges[r][1];
                kernel_args args = stream_kernel_args(&arr, (stream_func)f, lo, hi);
                sets[s].k[f]->fn(&args);
                for (size_t i = lo; i < hi; i++) {
                    if (f == STREAM_COPY)
                        rc[i] = ra[i];
                    else if (f == STREAM_SCALE)
                        rb[i] = 3.0 * rc[i];
                    else if (f == STREAM_ADD)
                        rc[i] = ra[i] + rb[i];
                    else
                        ra[i] = rb[i] + 3.0 * rc[i];
                }
                if (memcmp(a, ra, sizeof ra) || memcmp(b, rb, sizeof rb) || memcmp(c, rc, sizeof rc))
                    test_fail(__FILE__, __LINE__, "%s %s %s on [%zu,%zu) differs from the reference", sets[s].isa,
                              sets[s].nontemporal ? "nt" : "regular", stream_labels[f], lo, hi);
                free(a);
                free(b);
                free(c);
            }
    }
    CHECK(tested >= 1);
}

/* STREAM's rule: 8 bytes per element of every array read or written. */
static const int stream_counted[STREAM_NFUNCS] = {16, 16, 24, 24};

TEST(stream_sets_are_whole_and_chosen_like_the_sweep)
{
    size_t nsets, n;
    const stream_kernel_set *sets = stream_kernel_sets(&nsets);
    for (size_t s = 0; s < nsets; s++)
        for (int f = 0; f < STREAM_NFUNCS; f++) {
            const kernel *k = sets[s].k[f];
            CHECK(k != NULL);
            if (!k)
                continue;
            CHECK_STR(k->isa, sets[s].isa);
            CHECK_INT(k->stream_op, f);
            CHECK_INT(k->stores, sets[s].nontemporal ? STORE_NONTEMPORAL : STORE_REGULAR);
            CHECK_INT(k->counted_bytes, stream_counted[f]);
        }
    /* Every ISA --kernel can force in the sweep works in stream too: an ISA with
     * sweep copy kernels has the STREAM set of the same store kind. */
    const kernel *t = kernel_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (t[i].family != KERNEL_SWEEP || (t[i].op != OP_COPY && t[i].op != OP_COPY_NT))
            continue;
        bool nt = t[i].op == OP_COPY_NT, found = false;
        for (size_t s = 0; s < nsets; s++)
            found = found || (sets[s].nontemporal == nt && !strcmp(sets[s].isa, t[i].isa));
        if (!found)
            test_fail(__FILE__, __LINE__, "%s has a sweep %s kernel but no STREAM set", t[i].isa, t[i].name);
        const stream_kernel_set *forced = stream_kernels_select(nt, t[i].isa, false);
        CHECK(isa_supported(t[i].isa) ? forced && !strcmp(forced->isa, t[i].isa) : forced == NULL);
    }
    CHECK(stream_kernels_select(false, "c", false) != NULL);
    CHECK(stream_kernels_select(true, "c", false) == NULL);
    for (int nt = 0; nt < 2; nt++)
        for (int beyond = 0; beyond < 2; beyond++) {
            const stream_kernel_set *chosen = stream_kernels_select(nt, NULL, beyond);
            const kernel *copy = kernel_choose(KERNEL_STREAM, STREAM_COPY, nt ? STORE_NONTEMPORAL : STORE_REGULAR,
                                               NULL, beyond);
            CHECK(chosen ? chosen->k[STREAM_COPY] == copy : copy == NULL);
        }
}

TEST(stream_byte_counting_is_streams)
{
    for (int f = 0; f < STREAM_NFUNCS; f++) {
        const kernel *k = kernel_choose(KERNEL_STREAM, f, STORE_REGULAR, "c", false);
        CHECK(k != NULL);
        if (k)
            CHECK_INT(kernel_bytes_counted(k, 1000 * sizeof(double)), 1000 * stream_counted[f]);
    }
    CHECK_STR(stream_labels[STREAM_TRIAD], "Triad:     ");
}

static void run_kernels(double *a, double *b, double *c, size_t n, int iterations)
{
    stream_arrays arr = {a, b, c, STREAM_SCALAR};
    const stream_kernel_set *k = stream_kernels_select(false, "c", false);
    CHECK(k != NULL);
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
    for (int it = 0; it < iterations && k; it++)
        for (int f = 0; f < STREAM_NFUNCS; f++) {
            kernel_args args = stream_kernel_args(&arr, (stream_func)f, 0, n);
            k->k[f]->fn(&args);
        }
}

TEST(stream_validation_accepts_correct_and_rejects_corrupted_arrays)
{
    double *a = malloc(N * 8), *b = malloc(N * 8), *c = malloc(N * 8);
    char msg[256];
    run_kernels(a, b, c, N, 10);
    CHECK(stream_validate(a, b, c, N, 10, msg, sizeof msg));
    CHECK_STR(msg, "Solution Validates: avg error less than 1.000000e-13 on all three arrays");
    CHECK(!stream_validate(a, b, c, N, 9, msg, sizeof msg)); /* wrong iteration count */
    b[500] *= 1.001;                                         /* one corrupted element */
    CHECK(!stream_validate(a, b, c, N, 10, msg, sizeof msg));
    CHECK_CONTAINS(msg, "Failed Validation on array b[]");
    run_kernels(a, b, c, N, 10);
    c[0] = NAN;
    CHECK(!stream_validate(a, b, c, N, 10, msg, sizeof msg));
    CHECK_CONTAINS(msg, "array c[]");
    free(a);
    free(b);
    free(c);
}

TEST(smbios_type17_parsing)
{
    unsigned char e[0x28];
    memset(e, 0, sizeof e);
    e[0] = 17;
    e[1] = 0x28;
    e[0x0A] = 64;   /* data width 64 bits */
    e[0x0C] = 0x00; /* 16384 MB */
    e[0x0D] = 0x40;
    e[0x15] = 0xC0; /* rated 0x12C0 = 4800 MT/s */
    e[0x16] = 0x12;
    e[0x20] = 0x40; /* configured 0x1140 = 4416 MT/s */
    e[0x21] = 0x11;
    unsigned size, mts, width;
    CHECK(smbios_type17_parse(e, sizeof e, &size, &mts, &width));
    CHECK_INT(size, 16384);
    CHECK_INT(mts, 4416); /* configured speed wins */
    CHECK_INT(width, 64);
    e[0x0C] = e[0x0D] = 0; /* empty slot */
    CHECK(!smbios_type17_parse(e, sizeof e, &size, &mts, &width));
    e[0] = 16;
    CHECK(!smbios_type17_parse(e, sizeof e, &size, &mts, &width));
    CHECK(!smbios_type17_parse(e, 4, &size, &mts, &width));
}

TEST(memory_peak_from_a_recorded_dmi_tree)
{
    const char *root = test_tempdir();
    unsigned char e[0x28];
    memset(e, 0, sizeof e);
    e[0] = 17;
    e[1] = 0x28;
    e[0x0A] = 64;
    e[0x0D] = 0x40;
    e[0x15] = 0xC0; /* 0x12C0 = 4800 MT/s */
    e[0x16] = 0x12;
    for (int i = 0; i < 4; i++) {
        char rel[64], path[512];
        snprintf(rel, sizeof rel, "firmware/dmi/entries/17-%d/raw", i);
        test_write_file(root, rel, "");
        snprintf(path, sizeof path, "%s/%s", root, rel);
        FILE *f = fopen(path, "wb");
        if (i == 3)
            e[0x0D] = 0; /* an empty slot does not count */
        fwrite(e, 1, sizeof e, f);
        fclose(f);
    }
    memory_peak p;
    CHECK(memory_peak_detect(root, &p));
    CHECK_INT(p.devices, 3);
    CHECK_INT(p.mts, 4800);
    CHECK_NEAR(p.gbs, 3 * 4800 * 8 / 1000.0, 1e-9); /* seed 001: channels x MT/s x 8 B */
    CHECK(!memory_peak_detect(test_tempdir(), &p));
}

static parse_result sparse(stream_options *o, char *err, ...)
{
    char *argv[16];
    va_list ap;
    va_start(ap, err);
    int argc = test_argv(argv, 16, "stream", ap);
    va_end(ap);
    options_free(o);
    memset(o, 0, sizeof *o);
    return mode_parse_options(&stream_mode, argc, argv, NULL, o, err, 256);
}

TEST(stream_options_parse_and_refuse)
{
    stream_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    CHECK_INT(sparse(&o, err, (char *)NULL), PARSE_OK);
    CHECK_INT(o.ntimes, 10);
    CHECK_INT(stream_options_stores(&o), STORES_BOTH);
    CHECK(!o.n_given);
    CHECK_INT(sparse(&o, err, "-n", "2000000", "--ntimes", "5", "--stores", "nt", "--peak-gbs", "460.8", (char *)NULL),
              PARSE_OK);
    CHECK_INT(o.n, 2000000);
    CHECK_INT(stream_options_stores(&o), STORES_NT);
    CHECK_NEAR(o.peak_gbs, 460.8, 1e-9);
    CHECK_INT(sparse(&o, err, "--size", "64M", (char *)NULL), PARSE_OK);
    CHECK_INT(o.n, 8 * 1024 * 1024);
    const char *bad[][3] = {{"-n", "10", "'10'"},          {"-n", "1e6", "'1e6'"},    {"--ntimes", "1", "'1'"},
                            {"--stores", "fast", "'fast'"}, {"--peak-gbs", "0", "'0'"}, {"--size", "1K", "'1K'"},
                            {"-p", "0", "'0'"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(sparse(&o, err, bad[i][0], bad[i][1], (char *)NULL), PARSE_ERROR);
        CHECK_CONTAINS(err, bad[i][2]);
    }
    CHECK_INT(sparse(&o, err, "--scan", "-p", "2", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "--scan");
    CHECK_INT(sparse(&o, err, "--kernel", "c", (char *)NULL), PARSE_OK); /* default stores fall back */
    CHECK(!o.stores_given);
    CHECK_INT(sparse(&o, err, "--kernel", "c", "--stores", "both", (char *)NULL), PARSE_ERROR);
    CHECK_CONTAINS(err, "no non-temporal stores");
    options_free(&o);
}
