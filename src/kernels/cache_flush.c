/* SPDX-License-Identifier: MIT */
#include "kernels/cache_flush.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

const char *cache_flush_method(void)
{
#if defined(__x86_64__)
    return "clflush";
#else
    return NULL;
#endif
}

bool cache_flush(void *p, size_t bytes, size_t line)
{
#if defined(__x86_64__)
    char *c = p;
    _mm_mfence(); /* earlier stores are ordered before the flushes */
    for (size_t off = 0; off < bytes; off += line)
        _mm_clflush(c + off);
    _mm_mfence(); /* the flushes are done before anything that follows */
    return true;
#else
    (void)p;
    (void)bytes;
    (void)line;
    return false;
#endif
}
