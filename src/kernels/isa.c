/* SPDX-License-Identifier: MIT */
/* The ISA table and the lists derived from it (see isa.h). Run-time detection is
 * here and nowhere else: x86-64 asks CPUID through the compiler's builtin; AArch64
 * always has NEON. */
#include "kernels/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static bool always(void)
{
    return true;
}

/* __builtin_cpu_supports also checks that the OS saves the wider registers. */
#if defined(__x86_64__)
#define X86_HAS(feature) (__builtin_cpu_init(), __builtin_cpu_supports(feature))
#else
#define X86_HAS(feature) false
#endif

static bool has_avx512f(void)
{
    return X86_HAS("avx512f");
}

static bool has_avx2(void)
{
    return X86_HAS("avx2");
}

/* AMD family 19h: Zen 3 (no AVX-512) and Zen 4, whose AVX-512 runs as two 256-bit
 * halves; there AVX2 read 8% and copied 15% faster from DRAM, while on an Intel Xeon
 * (AVX-512 whole) AVX-512 read 11% faster (BENCHMARKS.md). Non-temporal stores take
 * AVX2 beyond the LLC everywhere (isa_beyond_llc). */
static bool amd_family_19h(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") && __builtin_cpu_is("amdfam19h");
#else
    return false;
#endif
}

static bool has_sse2(void)
{
    return X86_HAS("sse2");
}

static bool has_neon(void)
{
#if defined(__aarch64__)
    return true; /* Advanced SIMD is mandatory in AArch64 */
#else
    return false;
#endif
}

static const isa_info table[] = {
    {"avx512", "x86-64 AVX-512 Foundation, 512-bit vectors", has_avx512f, true, "avx2", amd_family_19h,
     "AMD family 19h (Zen 4)"},
    {"avx2", "x86-64 AVX2, 256-bit vectors", has_avx2, true, NULL, NULL, NULL},
    {"sse2", "x86-64 SSE2, 128-bit vectors (every x86-64 CPU)", has_sse2, true, NULL, NULL, NULL},
    {"neon", "AArch64 Advanced SIMD, 128-bit vectors", has_neon, true, NULL, NULL, NULL},
    {"c", "portable C, 64-bit words (every CPU)", always, true, NULL, NULL, NULL},
    {"libc", "the C library's memcpy, as applications get it", always, false, NULL, NULL, NULL},
};

const char *isa_beyond_llc(const isa_info *row, bool nontemporal)
{
    return row->beyond_llc && (nontemporal || !row->beyond_llc_here || row->beyond_llc_here()) ? row->beyond_llc
                                                                                                : NULL;
}
#define NROWS (sizeof table / sizeof table[0])

const isa_info *isa_table(size_t *count)
{
    *count = NROWS;
    return table;
}

int isa_rank(const char *name)
{
    for (size_t i = 0; i < NROWS; i++)
        if (strcmp(table[i].name, name) == 0)
            return (int)i;
    return -1;
}

const isa_info *isa_find(const char *name)
{
    int i = isa_rank(name);
    return i < 0 ? NULL : &table[i];
}

bool isa_supported(const char *name)
{
    const isa_info *row = isa_find(name);
    return row && row->supported();
}

static char usable[128];
static const char *choices[NROWS + 1];
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;

static void build_lists(void)
{
    size_t nchoices = 0;
    for (size_t i = 0; i < NROWS; i++) {
        if (!table[i].forcible)
            continue;
        choices[nchoices++] = table[i].name;
        if (table[i].supported()) {
            size_t used = strlen(usable);
            snprintf(usable + used, sizeof usable - used, "%s%s", used ? "," : "", table[i].name);
        }
    }
    choices[nchoices] = NULL;
}

const char *isa_usable_list(void)
{
    pthread_once(&lists_once, build_lists);
    return usable;
}

const char *const *isa_choice_names(void)
{
    pthread_once(&lists_once, build_lists);
    return choices;
}

const char *isa_choices(char *buf, size_t len)
{
    const char *const *names = isa_choice_names();
    if (len)
        buf[0] = '\0';
    for (size_t i = 0, used = 0; names[i] && used < len; i++, used = strlen(buf))
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
    return buf;
}
