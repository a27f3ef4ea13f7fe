/* SPDX-License-Identifier: MIT */
/* libFuzzer target for CPUID dumps (`membench topology --cpuid FILE`, a user's
 * `cpuid -r` text): platform/cpuid_dump.h parses it, topology/cpuid_caches.h
 * decodes its cache leaves.
 *
 * Input: the dump's text. Promises checked: a refused dump is empty and says why
 * in one printable line; an accepted one holds at most CPUID_DUMP_MAX_ENTRIES
 * entries, no leaf/subleaf twice, and reads back from cpuid_dump_write the same;
 * its decoded levels are at most CPUID_CACHES_MAX, each of level 1 to 7 with a
 * size, only the legacy L3 per package, and the vendor and hypervisor strings
 * NUL-terminated and printable. */
#include <string.h>

#include "fuzz.h"
#include "platform/cpuid_dump.h"
#include "topology/cpuid_caches.h"

static bool printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
            return false;
    return true;
}

static bool same(const cpuid_dump *a, const cpuid_dump *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->entries, b->entries, a->n * sizeof *a->entries) == 0);
}

static void check_decoded(const cpuid_dump *d)
{
    cpuid_caches cc;
    cpuid_caches_decode(d, &cc);
    FUZZ_CHECK(cc.nlevels <= CPUID_CACHES_MAX, "%zu levels", cc.nlevels);
    FUZZ_CHECK(memchr(cc.vendor, 0, sizeof cc.vendor) && printable(cc.vendor), "vendor");
    FUZZ_CHECK(memchr(cc.hypervisor, 0, sizeof cc.hypervisor) && printable(cc.hypervisor), "hypervisor");
    for (size_t i = 0; i < cc.nlevels; i++) {
        const cache_report *r = &cc.levels[i];
        FUZZ_CHECK(r->level >= 1 && r->level <= 7 && r->size > 0, "level %d size %llu", r->level,
                   (unsigned long long)r->size);
        FUZZ_CHECK(!r->per_package || (r->source == CACHE_FROM_CPUID_AMD_LEGACY && r->level == 3),
                   "per package: source %d level %d", (int)r->source, r->level);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cpuid_dump d = {NULL, 0};
    char err[256] = "";
    bool ok = cpuid_dump_parse(text, &d, err, sizeof err);
    free(text);
    if (!ok) {
        FUZZ_CHECK(d.n == 0 && d.entries == NULL, "a refused dump keeps %zu entries", d.n);
        FUZZ_CHECK(err[0] && printable(err), "reason \"%s\"", err);
        return 0;
    }
    FUZZ_CHECK(d.n >= 1 && d.n <= CPUID_DUMP_MAX_ENTRIES, "%zu entries", d.n);
    for (size_t i = 0; i < d.n; i++)
        for (size_t k = i + 1; k < d.n; k++)
            FUZZ_CHECK(d.entries[i].leaf != d.entries[k].leaf || d.entries[i].subleaf != d.entries[k].subleaf,
                       "leaf %#x/%#x twice", d.entries[i].leaf, d.entries[i].subleaf);
    check_decoded(&d);
    char *written = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&written, &len);
    if (f) {
        cpuid_dump_write(f, &d);
        fclose(f);
        cpuid_dump back = {NULL, 0};
        FUZZ_CHECK(cpuid_dump_parse(written, &back, err, sizeof err), "its own output refused: %s", err);
        FUZZ_CHECK(same(&d, &back), "read back differs");
        cpuid_dump_free(&back);
    }
    free(written);
    cpuid_dump_free(&d);
    return 0;
}
