/* SPDX-License-Identifier: MIT */
/* STREAM sets over the kernel table: grouping the STREAM rows by ISA and store
 * kind, choosing a set through kernel_choose, and STREAM's array roles. */
#include "kernels/stream_kernels.h"

#include <pthread.h>
#include <string.h>

#define MAX_SETS 32

const char *const stream_labels[STREAM_NFUNCS] = {"Copy:      ", "Scale:     ", "Add:       ", "Triad:     "};

static stream_kernel_set sets[MAX_SETS];
static size_t nsets;
static pthread_once_t sets_once = PTHREAD_ONCE_INIT;

static stream_kernel_set *set_of(const kernel *k)
{
    bool nt = k->stores == STORE_NONTEMPORAL;
    for (size_t i = 0; i < nsets; i++)
        if (sets[i].nontemporal == nt && strcmp(sets[i].isa, k->isa) == 0)
            return &sets[i];
    if (nsets == MAX_SETS)
        return NULL;
    sets[nsets].isa = k->isa;
    sets[nsets].nontemporal = nt;
    return &sets[nsets++];
}

static void build_sets(void)
{
    size_t n;
    const kernel *t = kernel_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (t[i].family != KERNEL_STREAM)
            continue;
        stream_kernel_set *s = set_of(&t[i]);
        if (s)
            s->k[t[i].stream_op] = &t[i];
    }
}

const stream_kernel_set *stream_kernel_sets(size_t *count)
{
    pthread_once(&sets_once, build_sets);
    *count = nsets;
    return sets;
}

const stream_kernel_set *stream_kernels_select(bool nontemporal, const char *isa, bool beyond_last_level_cache)
{
    /* Copy decides the ISA; the set holds the other three of the same ISA. */
    const kernel *copy = kernel_choose(KERNEL_STREAM, STREAM_COPY, nontemporal ? STORE_NONTEMPORAL : STORE_REGULAR,
                                       isa, beyond_last_level_cache);
    if (!copy)
        return NULL;
    size_t n;
    const stream_kernel_set *all = stream_kernel_sets(&n);
    for (size_t i = 0; i < n; i++)
        if (all[i].k[STREAM_COPY] == copy)
            return &all[i];
    return NULL;
}

kernel_args stream_kernel_args(const stream_arrays *s, stream_func f, size_t lo, size_t hi)
{
    kernel_args a = {.bytes = (hi - lo) * sizeof(double), .scalar = s->scalar};
    switch (f) {
    case STREAM_COPY: /* c = a */
        a.out = s->c + lo;
        a.in[0] = s->a + lo;
        break;
    case STREAM_SCALE: /* b = s * c */
        a.out = s->b + lo;
        a.in[0] = s->c + lo;
        break;
    case STREAM_ADD: /* c = a + b */
        a.out = s->c + lo;
        a.in[0] = s->a + lo;
        a.in[1] = s->b + lo;
        break;
    default: /* a = b + s * c */
        a.out = s->a + lo;
        a.in[0] = s->b + lo;
        a.in[1] = s->c + lo;
        break;
    }
    return a;
}
