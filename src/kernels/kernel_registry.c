/* The table of all kernels and run-time ISA selection. */
#include <stdio.h>
#include <string.h>

#include "kernels/kernel.h"
#include "kernels/kernels_arm64.h"
#include "kernels/kernels_libc.h"
#include "kernels/kernels_portable.h"
#include "kernels/kernels_x86.h"

#define MAX_KERNELS 64

static kernel table[MAX_KERNELS];
static size_t table_count;

static void build_table(void)
{
    if (table_count)
        return;
#if defined(__x86_64__)
    for (size_t i = 0; i < x86_kernel_count && table_count < MAX_KERNELS; i++)
        table[table_count++] = x86_kernels[i];
#endif
#if defined(__aarch64__)
    for (size_t i = 0; i < arm64_kernel_count && table_count < MAX_KERNELS; i++)
        table[table_count++] = arm64_kernels[i];
#endif
    for (size_t i = 0; i < portable_kernel_count && table_count < MAX_KERNELS; i++)
        table[table_count++] = portable_kernels[i];
    for (size_t i = 0; i < libc_kernel_count && table_count < MAX_KERNELS; i++)
        table[table_count++] = libc_kernels[i];
}

const kernel *kernel_table(size_t *count)
{
    build_table();
    *count = table_count;
    return table;
}

int kernel_isa_supported(const char *isa)
{
    if (strcmp(isa, "c") == 0 || strcmp(isa, "libc") == 0)
        return 1;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (strcmp(isa, "sse2") == 0)
        return __builtin_cpu_supports("sse2");
    if (strcmp(isa, "avx2") == 0)
        return __builtin_cpu_supports("avx2");
    if (strcmp(isa, "avx512") == 0)
        return __builtin_cpu_supports("avx512f");
#endif
#if defined(__aarch64__)
    if (strcmp(isa, "neon") == 0)
        return 1; /* Advanced SIMD is mandatory in AArch64 */
#endif
    return 0;
}

const kernel *kernel_select(mb_op op, const char *isa)
{
    build_table();
    for (size_t i = 0; i < table_count; i++) {
        const kernel *k = &table[i];
        if (k->op != op)
            continue;
        if (isa ? strcmp(k->isa, isa) == 0 : kernel_isa_supported(k->isa))
            return kernel_isa_supported(k->isa) ? k : NULL;
    }
    return NULL;
}

const kernel *kernel_select_for_size(mb_op op, const char *isa, int beyond_last_level_cache)
{
    if (isa || !beyond_last_level_cache)
        return kernel_select(op, isa);
    const kernel *k = kernel_select(op, NULL);
    if (k && strcmp(k->isa, "avx512") == 0) {
        const kernel *narrower = kernel_select(op, "avx2");
        if (narrower)
            return narrower;
    }
    return k;
}

const char *kernel_isa_list(void)
{
    static char buf[128];
    if (buf[0])
        return buf;
    const char *all[] = {"avx512", "avx2", "sse2", "neon", "c"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (kernel_isa_supported(all[i])) {
            size_t used = strlen(buf);
            snprintf(buf + used, sizeof buf - used, "%s%s", used ? "," : "", all[i]);
        }
    return buf;
}
