/* SPDX-License-Identifier: MIT */
/* The table of every kernel built in, and the one chooser: which kernel runs for
 * an operation, a kind of stores, a forced ISA or none, in cache or beyond it. The
 * order of preference and the per-size rule come from the ISA table (isa.c), so
 * nothing here names an ISA. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/isa.h"
#include "kernels/kernel.h"
#include "kernels/kernel_parts.h"
#ifdef MEMBENCH_FAULTY_KERNELS
/* The test build only (build/membench-faulty): tests/faulty/faulty_kernels.c. */
void faulty_kernels_install(kernel *rows, size_t n);
#endif

#define MAX_KERNELS 256

static kernel table[MAX_KERNELS];
static size_t table_count;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void add_rows(const kernel *rows, size_t n)
{
    if (table_count + n > MAX_KERNELS) { /* a programming error, found by the first test run */
        fprintf(stderr, "membench: more than %d kernel descriptors: raise MAX_KERNELS\n", MAX_KERNELS);
        abort();
    }
    for (size_t i = 0; i < n; i++)
        table[table_count++] = rows[i];
}

static void build_table(void)
{
#if defined(__x86_64__)
    add_rows(x86_kernels, x86_kernel_count);
#endif
#if defined(__aarch64__)
    add_rows(arm64_kernels, arm64_kernel_count);
#endif
    add_rows(portable_kernels, portable_kernel_count);
    add_rows(libc_kernels, libc_kernel_count);
#ifdef MEMBENCH_FAULTY_KERNELS
    faulty_kernels_install(table, table_count);
#endif
}

const kernel *kernel_table(size_t *count)
{
    pthread_once(&table_once, build_table);
    *count = table_count;
    return table;
}

static bool same_op(const kernel *k, kernel_family family, int op)
{
    if (k->family != family)
        return false;
    return family == KERNEL_SWEEP ? (int)k->op == op : (int)k->stream_op == op;
}

/* The kernel of exactly this operation, store kind and ISA, whether or not it runs here. */
static const kernel *find(kernel_family family, int op, kernel_store stores, const char *isa)
{
    size_t n;
    const kernel *t = kernel_table(&n);
    for (size_t i = 0; i < n; i++)
        if (same_op(&t[i], family, op) && (stores == STORE_ANY || t[i].stores == stores) &&
            strcmp(t[i].isa, isa) == 0)
            return &t[i];
    return NULL;
}

const kernel *kernel_choose(kernel_family family, int op, kernel_store stores, const char *isa,
                            bool beyond_llc_share)
{
    if (isa)
        return isa_supported(isa) ? find(family, op, stores, isa) : NULL;
    size_t nisa;
    const isa_info *isas = isa_table(&nisa);
    for (size_t i = 0; i < nisa; i++) {
        if (!isas[i].supported())
            continue;
        const kernel *best = find(family, op, stores, isas[i].name);
        if (!best)
            continue;
        const char *alt = isa_beyond_llc(&isas[i], best->stores == STORE_NONTEMPORAL);
        if (beyond_llc_share && alt && isa_supported(alt)) {
            const kernel *k = find(family, op, stores, alt);
            if (k)
                return k;
        }
        return best;
    }
    return NULL;
}

uint64_t kernel_bytes_counted(const kernel *k, uint64_t bytes_per_stream)
{
    return bytes_per_stream / 8 * k->counted_bytes;
}

const char *kernel_family_name(kernel_family f)
{
    static const char *const names[KERNEL_FAMILIES] = {[KERNEL_SWEEP] = "sweep", [KERNEL_STREAM] = "stream"};
    return (unsigned)f < KERNEL_FAMILIES ? names[f] : "?";
}

const char *kernel_store_name(kernel_store s)
{
    static const char *const names[] = {[STORE_LOADS_ONLY] = "loads", [STORE_REGULAR] = "regular",
                                        [STORE_NONTEMPORAL] = "non-temporal", [STORE_LIBC] = "libc",
                                        [STORE_ANY] = "any"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *kernel_verify_name(kernel_verify v)
{
    static const char *const names[] = {[VERIFY_SOURCE_XOR] = "source-xor", [VERIFY_PATTERN] = "pattern",
                                        [VERIFY_EQUALS_SOURCE] = "equals-source",
                                        [VERIFY_STREAM_REPLAY] = "stream-replay"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

