/* SPDX-License-Identifier: MIT */
/* CPUID dumps (platform/cpuid_dump.h) and the caches decoded from them
 * (topology/cpuid_caches.h). The dumps in tests/fixtures/cpuid/ stand for machines
 * this one is not; every runner (make check, check-cross, check-mutants, the Debian
 * build) starts the test binary in the repository root, so they are read from there. */
#include <stdlib.h>

#include "platform/cpuid_dump.h"
#include "platform/cpuinfo.h"
#include "platform/platform.h"
#include "test.h"
#include "topology/cpuid_caches.h"
#include "util/read_file.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)

static char *slurp(const char *path)
{
    char *data = NULL, why[128];
    size_t len;
    if (!read_file_limited(path, 1 << 20, &data, &len, why, sizeof why)) {
        test_fail(__FILE__, __LINE__, "%s: %s (tests run from the repository root)", path, why);
        return NULL;
    }
    return data;
}

static bool load(const char *name, cpuid_dump *d)
{
    char path[256], err[256];
    snprintf(path, sizeof path, "tests/fixtures/cpuid/%s", name);
    char *text = slurp(path);
    bool ok = text && cpuid_dump_parse(text, d, err, sizeof err);
    if (text && !ok)
        test_fail(__FILE__, __LINE__, "%s: %s", path, err);
    free(text);
    return ok;
}

static void decode_fixture(const char *name, cpuid_caches *c)
{
    cpuid_dump d;
    memset(c, 0, sizeof *c);
    if (load(name, &d)) {
        cpuid_caches_decode(&d, c);
        cpuid_dump_free(&d);
    }
}

/* Changes one register of a loaded dump (reg 0..3: eax..edx). */
static void set_reg(cpuid_dump *d, uint32_t leaf, uint32_t sub, int reg, uint32_t v)
{
    for (size_t i = 0; i < d->n; i++) {
        cpuid_entry *e = &d->entries[i];
        if (e->leaf == leaf && e->subleaf == sub) {
            uint32_t *regs[4] = {&e->eax, &e->ebx, &e->ecx, &e->edx};
            *regs[reg] = v;
            return;
        }
    }
    test_fail(__FILE__, __LINE__, "no leaf 0x%x subleaf %u to change", (unsigned)leaf, (unsigned)sub);
}

static void level_is(int line, const cpuid_caches *c, size_t i, cache_source src, int level, uint64_t size,
                     int line_size, int sharing, bool per_package)
{
    if (i >= c->nlevels) {
        test_fail(__FILE__, line, "levels[%zu] missing (nlevels %zu)", i, c->nlevels);
        return;
    }
    const cache_report *r = &c->levels[i];
    if (r->source != src || r->level != level || r->size != size || r->line_size != line_size ||
        r->sharing != sharing || r->per_package != per_package)
        test_fail(__FILE__, line,
                  "levels[%zu] = {%s, L%d, %llu B, line %d, sharing %d, per_package %d}, expected {%s, L%d, %llu B, "
                  "line %d, sharing %d, per_package %d}",
                  i, cache_source_key(r->source), r->level, (unsigned long long)r->size, r->line_size, r->sharing,
                  r->per_package, cache_source_key(src), level, (unsigned long long)size, line_size, sharing,
                  per_package);
}
#define LEVEL(c, i, ...) level_is(__LINE__, c, i, __VA_ARGS__)

#define LEAF4 CACHE_FROM_CPUID_LEAF4
#define TOPOEXT CACHE_FROM_CPUID_TOPOEXT
#define LEGACY CACHE_FROM_CPUID_AMD_LEGACY

TEST(cpuid_caches_zen5_microvm_legacy_only)
{
    cpuid_caches c;
    decode_fixture("zen5-microvm.txt", &c);
    CHECK_STR(c.vendor, "AuthenticAMD");
    CHECK_STR(c.hypervisor, "KVMKVMKVM");
    CHECK(!c.topoext);
    CHECK_INT(c.nlevels, 3);
    LEVEL(&c, 0, LEGACY, 1, 48 * KiB, 64, 0, false);
    LEVEL(&c, 1, LEGACY, 2, 1 * MiB, 64, 0, false);
    LEVEL(&c, 2, LEGACY, 3, 508 * MiB, 64, 0, true);
}

TEST(cpuid_caches_spr_guest_leaf4)
{
    cpuid_caches c;
    decode_fixture("spr-guest.txt", &c);
    CHECK_STR(c.vendor, "GenuineIntel");
    CHECK_STR(c.hypervisor, "KVMKVMKVM");
    CHECK(!c.topoext);
    CHECK_INT(c.nlevels, 3); /* no L1i, and Intel's 0x80000006 is not AMD's legacy L2 */
    LEVEL(&c, 0, LEAF4, 1, 48 * KiB, 64, 2, false);
    LEVEL(&c, 1, LEAF4, 2, 2 * MiB, 64, 2, false);
    LEVEL(&c, 2, LEAF4, 3, 105 * MiB, 64, 128, false);
}

TEST(cpuid_caches_zen4_host_topoext_and_legacy)
{
    cpuid_caches c;
    decode_fixture("zen4-host.txt", &c);
    CHECK_STR(c.vendor, "AuthenticAMD");
    CHECK_STR(c.hypervisor, "");
    CHECK(c.topoext);
    CHECK_INT(c.nlevels, 6);
    LEVEL(&c, 0, TOPOEXT, 1, 32 * KiB, 64, 2, false);
    LEVEL(&c, 1, TOPOEXT, 2, 1 * MiB, 64, 2, false);
    LEVEL(&c, 2, TOPOEXT, 3, 32 * MiB, 64, 16, false);
    LEVEL(&c, 3, LEGACY, 1, 32 * KiB, 64, 0, false);
    LEVEL(&c, 4, LEGACY, 2, 1 * MiB, 64, 0, false);
    LEVEL(&c, 5, LEGACY, 3, 256 * MiB, 64, 0, true);
}

static void check_live_x86_levels(const cpuid_caches *c)
{
    CHECK_STR(c->vendor, "GenuineIntel");
    CHECK_STR(c->hypervisor, "KVMKVMKVM");
    CHECK(!c->topoext);
    CHECK_INT(c->nlevels, 3);
    LEVEL(c, 0, LEAF4, 1, 48 * KiB, 64, 1, false);
    LEVEL(c, 1, LEAF4, 2, 2 * MiB, 64, 1, false);
    LEVEL(c, 2, LEAF4, 3, 300 * MiB, 64, 2, false);
}

TEST(cpuid_caches_live_x86_fixture)
{
    cpuid_caches c;
    decode_fixture("live-x86.txt", &c);
    check_live_x86_levels(&c);
}

TEST(cpuid_dump_parse_cpuid_tool_keeps_first_cpu)
{
    cpuid_dump d;
    if (!load("live-x86-cpuid-tool.txt", &d))
        return;
    CHECK_INT(d.n, 72); /* CPU 0's lines; CPU 1's are checked and dropped */
    uint32_t r[4];
    CHECK(cpuid_dump_get(&d, 1, 0, r));
    CHECK_INT(r[1], 0x00020800); /* CPU 0's APIC ID 0, not CPU 1's 0x01020800 */
    CHECK(cpuid_dump_get(&d, 0xd, 0x12, r));
    CHECK_INT(r[0], 0x2000);
    CHECK(!cpuid_dump_get(&d, 0xd, 0x13, r));
    cpuid_caches c;
    cpuid_caches_decode(&d, &c);
    check_live_x86_levels(&c);
    cpuid_dump_free(&d);
}

TEST(cpuid_caches_topoext_bit_gates_8000001d)
{
    cpuid_dump d;
    if (!load("zen4-host.txt", &d))
        return;
    set_reg(&d, 0x80000001, 0, 2, 0x75c237ff & ~(1u << 22));
    cpuid_caches c;
    cpuid_caches_decode(&d, &c);
    CHECK(!c.topoext);
    CHECK_INT(c.nlevels, 3);
    LEVEL(&c, 0, LEGACY, 1, 32 * KiB, 64, 0, false);
    LEVEL(&c, 2, LEGACY, 3, 256 * MiB, 64, 0, true);
    cpuid_dump_free(&d);
}

TEST(cpuid_caches_max_leaves_gate_reading)
{
    cpuid_dump d;
    cpuid_caches c;
    if (load("spr-guest.txt", &d)) {
        set_reg(&d, 0, 0, 0, 3); /* leaf 4 beyond the maximum */
        cpuid_caches_decode(&d, &c);
        CHECK_STR(c.vendor, "GenuineIntel");
        CHECK_INT(c.nlevels, 0);
        cpuid_dump_free(&d);
    }
    if (load("zen4-host.txt", &d)) {
        set_reg(&d, 0x80000000, 0, 0, 0x80000005); /* only 0x80000005 of the cache leaves */
        cpuid_caches_decode(&d, &c);
        CHECK(c.topoext);
        CHECK_INT(c.nlevels, 1);
        LEVEL(&c, 0, LEGACY, 1, 32 * KiB, 64, 0, false);
        set_reg(&d, 0x80000000, 0, 0, 0x80000001);
        cpuid_caches_decode(&d, &c);
        CHECK_INT(c.nlevels, 0);
        set_reg(&d, 0x80000000, 0, 0, 0x00000010); /* not an extended maximum at all */
        cpuid_caches_decode(&d, &c);
        CHECK(!c.topoext);
        CHECK_INT(c.nlevels, 0);
        cpuid_dump_free(&d);
    }
}

TEST(cpuid_caches_hypervisor_signature)
{
    cpuid_dump d;
    if (!load("spr-guest.txt", &d))
        return;
    cpuid_caches c;
    /* bytes 'C', newline, 'B', 'A', then "Hv" and a NUL that ends it */
    set_reg(&d, 0x40000000, 0, 1, 0x41420a43);
    set_reg(&d, 0x40000000, 0, 2, 0x00764820);
    cpuid_caches_decode(&d, &c);
    CHECK_STR(c.hypervisor, "C?BA Hv");
    set_reg(&d, 0x40000000, 0, 1, 0x7263694d); /* "Microsoft Hv": all twelve bytes */
    set_reg(&d, 0x40000000, 0, 2, 0x666f736f);
    set_reg(&d, 0x40000000, 0, 3, 0x76482074);
    cpuid_caches_decode(&d, &c);
    CHECK_STR(c.hypervisor, "Microsoft Hv");
    set_reg(&d, 1, 0, 2, 0x7ffa3203); /* CPUID.1:ECX[31] clear: leaf 0x40000000 is not read */
    cpuid_caches_decode(&d, &c);
    CHECK_STR(c.hypervisor, "");
    CHECK_INT(c.nlevels, 3);
    cpuid_dump_free(&d);
}

static void decode_text(const char *text, cpuid_caches *c)
{
    cpuid_dump d;
    char err[256];
    memset(c, 0, sizeof *c);
    if (!cpuid_dump_parse(text, &d, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s", err);
        return;
    }
    cpuid_caches_decode(&d, c);
    cpuid_dump_free(&d);
}

TEST(cpuid_caches_amd_ignores_leaf4_hygon_follows_amd)
{
    cpuid_caches c;
    /* an old QEMU fills leaf 4 for AMD guests too: AMD reserves it, so it is not read */
    decode_text("0x00000000 0x00: eax=0x0000000d ebx=0x68747541 ecx=0x444d4163 edx=0x69746e65\n"
                "0x00000004 0x00: eax=0x00000121 ebx=0x01c0003f ecx=0x0000003f edx=0x00000000\n"
                "0x80000000 0x00: eax=0x80000004 ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n",
                &c);
    CHECK_STR(c.vendor, "AuthenticAMD");
    CHECK_INT(c.nlevels, 0);
    /* Hygon: AMD's leaves; 64 KiB L1d with 2 partitions; legacy L2 with no size */
    decode_text("CPU:\n"
                "0x00000000 0x00: eax=0x0000000d ebx=0x6f677948 ecx=0x656e6975 edx=0x6e65476e\n"
                "0x00000004 0x00: eax=0x00000121 ebx=0x01c0003f ecx=0x0000003f edx=0x00000000\n"
                "0x80000000 0x00: eax=0x8000001f ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n"
                "0x80000001 0x00: eax=0x00000000 ebx=0x00000000 ecx=0x00400000 edx=0x00000000\n"
                "0x80000005 0x00: eax=0x00000000 ebx=0x00000000 ecx=0x40080140 edx=0x00000000\n"
                "0x80000006 0x00: eax=0x00000000 ebx=0x00000000 ecx=0x00006140 edx=0x00000000\n"
                "0x8000001d 0x00: eax=0x00004121 ebx=0x01c0103f ecx=0x0000003f edx=0x00000000\n"
                "0x8000001d 0x01: eax=0x00000000 ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n",
                &c);
    CHECK_STR(c.vendor, "HygonGenuine");
    CHECK(c.topoext);
    CHECK_INT(c.nlevels, 2);
    LEVEL(&c, 0, TOPOEXT, 1, 64 * KiB, 64, 2, false);
    LEVEL(&c, 1, LEGACY, 1, 64 * KiB, 64, 0, false);
}

TEST(cpuid_caches_bounds_and_absurd_values)
{
    /* 4 instruction caches, then 16 of 4 KiB L1d, no terminator: 16 subleaves read */
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "0x00000000 0x00: eax=0x00000004 ebx=0x756e6547 "
                                                   "ecx=0x6c65746e edx=0x49656e69\n");
    for (int sub = 0; sub < 20; sub++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "0x00000004 0x%02x: eax=0x0000002%d ebx=0x0000003f ecx=0x0000003f edx=0x0\n", sub,
                              sub < 4 ? 2 : 1);
    cpuid_caches c;
    decode_text(text, &c);
    CHECK_INT(c.nlevels, 12);
    LEVEL(&c, 11, LEAF4, 1, 4 * KiB, 64, 1, false);
    /* 16 levels from 0x8000001D fill the list: the legacy L1d has no room */
    n = (size_t)snprintf(text, sizeof text,
                         "0x00000000 0x00: eax=0x00000001 ebx=0x68747541 ecx=0x444d4163 edx=0x69746e65\n"
                         "0x80000000 0x00: eax=0x8000001d ebx=0x0 ecx=0x0 edx=0x0\n"
                         "0x80000001 0x00: eax=0x0 ebx=0x0 ecx=0x00400000 edx=0x0\n"
                         "0x80000005 0x00: eax=0x0 ebx=0x0 ecx=0x20080140 edx=0x0\n");
    for (int sub = 0; sub < 16; sub++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "0x8000001d 0x%02x: eax=0x00000043 ebx=0x0000003f ecx=0x0000003f edx=0x0\n", sub);
    decode_text(text, &c);
    CHECK_INT(c.nlevels, 16);
    LEVEL(&c, 15, TOPOEXT, 2, 4 * KiB, 64, 1, false);
    /* legacy: line 0, sizes 0, and a legacy L3 with a 0 line are not reported */
    decode_text("0x00000000 0x00: eax=0x00000001 ebx=0x68747541 ecx=0x444d4163 edx=0x69746e65\n"
                "0x80000000 0x00: eax=0x80000008 ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n"
                "0x80000005 0x00: eax=0x00000000 ebx=0x00000000 ecx=0x20080100 edx=0x00000000\n"
                "0x80000006 0x00: eax=0x00000000 ebx=0x00000000 ecx=0x00000040 edx=0x00400000\n",
                &c);
    CHECK_INT(c.nlevels, 0);
    /* a level-0 entry and a reserved type are skipped, the list goes on after them
     * and ends at type 0 */
    decode_text("0x00000000 0x00: eax=0x00000004 ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n"
                "0x00000004 0x00: eax=0x00000001 ebx=0x0000003f ecx=0x0000003f edx=0x0\n"
                "0x00000004 0x01: eax=0x00000044 ebx=0x0000003f ecx=0x0000003f edx=0x0\n"
                "0x00000004 0x02: eax=0x00000063 ebx=0x0000003f ecx=0x0000003f edx=0x0\n"
                "0x00000004 0x03: eax=0x00000000 ebx=0x0000003f ecx=0x0000003f edx=0x0\n"
                "0x00000004 0x04: eax=0x00000041 ebx=0x0000003f ecx=0x0000003f edx=0x0\n",
                &c);
    CHECK_INT(c.nlevels, 1);
    LEVEL(&c, 0, LEAF4, 3, 4 * KiB, 64, 1, false);
    /* no leaf 0: nothing is known */
    decode_text("0x00000004 0x00: eax=0x00000121 ebx=0x01c0003f ecx=0x0000003f edx=0x00000000\n", &c);
    CHECK_STR(c.vendor, "");
    CHECK_INT(c.nlevels, 0);
}

TEST(cpuid_dump_parse_forms)
{
    cpuid_dump d;
    char err[256];
    uint32_t r[4];
    /* no header, tabs, CRLF, upper-case hex, short numbers, comments, blank lines */
    CHECK(cpuid_dump_parse("# comment\r\n\r\n\t0X00000004 0x1: eax=0xABCdef01 ebx=0x2 ecx=0x3 edx=0x4\r\n"
                           "  # another\n0x80000000 0x00 :eax=0x80000008\tebx=0x0 ecx=0x0 edx=0x0",
                           &d, err, sizeof err) ||
          (test_fail(__FILE__, __LINE__, "%s", err), false));
    CHECK_INT(d.n, 2);
    CHECK(cpuid_dump_get(&d, 4, 1, r));
    CHECK_INT(r[0], 0xabcdef01);
    CHECK_INT(r[3], 4);
    CHECK(!cpuid_dump_get(&d, 4, 0, r));
    cpuid_dump_free(&d);
    /* header-less lines, then "CPU 1:": the first block ends there */
    CHECK(cpuid_dump_parse("0x00000000 0x00: eax=0x1 ebx=0x0 ecx=0x0 edx=0x0\nCPU 1:\n"
                           "0x00000000 0x00: eax=0x2 ebx=0x0 ecx=0x0 edx=0x0\n"
                           "0x00000001 0x00: eax=0x2 ebx=0x0 ecx=0x0 edx=0x0\n",
                           &d, err, sizeof err));
    CHECK_INT(d.n, 1);
    CHECK(cpuid_dump_get(&d, 0, 0, r) && r[0] == 1);
    cpuid_dump_free(&d);
}

/* The parse fails and err is exactly `want`; *d is left empty. */
static void refused(int line, const char *text, const char *want)
{
    cpuid_dump d = {(cpuid_entry *)&d, 99};
    char err[256] = "";
    if (cpuid_dump_parse(text, &d, err, sizeof err)) {
        test_fail(__FILE__, line, "accepted, expected \"%s\"", want);
        cpuid_dump_free(&d);
        return;
    }
    if (strcmp(err, want) != 0)
        test_fail(__FILE__, line, "err \"%s\", expected \"%s\"", err, want);
    if (d.entries || d.n)
        test_fail(__FILE__, line, "dump not left empty");
}
#define REFUSED(text, want) refused(__LINE__, text, want)

#define GOOD "0x00000000 0x00: eax=0x00000001 ebx=0x0 ecx=0x0 edx=0x0\n"

TEST(cpuid_dump_parse_refusals)
{
    REFUSED(GOOD "0x00000001 0x00: eax=0x0000zz00 ebx=0x0 ecx=0x0 edx=0x0\n",
            "line 2: bad hex number: \"0x00000001 0x00: eax=0x0000zz00 ebx=0x0 ecx=0x0 edx=0x0\"");
    REFUSED(GOOD "0x00000001 0x00: eax=0x1 ebx=0x123456789 ecx=0x0 edx=0x0\n",
            "line 2: bad hex number: \"0x00000001 0x00: eax=0x1 ebx=0x123456789 ecx=0x0 edx=0x0\"");
    REFUSED(GOOD "\n0x00000001 0x00: eax=0x1 ebx=0x2\n", "line 3: truncated line: \"0x00000001 0x00: eax=0x1 ebx=0x2\"");
    REFUSED(GOOD "0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=\n",
            "line 2: truncated line: \"0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=\"");
    REFUSED(GOOD "0x00000001 0x00: eax=0x1 ecx=0x2 ebx=0x3 edx=0x4\n",
            "line 2: not a CPUID entry: \"0x00000001 0x00: eax=0x1 ecx=0x2 ebx=0x3 edx=0x4\"");
    REFUSED(GOOD "0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=0x4 esi=0x5\n",
            "line 2: trailing text: \"0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=0x4 esi=0x5\"");
    REFUSED(GOOD "0x00000001 0x00 eax=0x1 ebx=0x2 ecx=0x3 edx=0x4\n",
            "line 2: not a CPUID entry: \"0x00000001 0x00 eax=0x1 ebx=0x2 ecx=0x3 edx=0x4\"");
    REFUSED("CPU 0:\n" GOOD GOOD,
            "line 3: leaf and subleaf given twice: \"0x00000000 0x00: eax=0x00000001 ebx=0x0 ecx=0x0 edx=0x0\"");
    /* garbage with a terminal escape: echoed as printable ASCII only */
    REFUSED("CPU 0:\n\x1b[31mhello\xc3\xa9\t!\n", "line 2: not a CPUID entry: \"?[31mhello??\?!\"");
    REFUSED("CPUs: 4\n", "line 1: not a CPUID entry: \"CPUs: 4\"");
    /* a long line is cut */
    REFUSED("0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=0x4 0123456789012345678901234567890123456789\n",
            "line 1: trailing text: \"0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=0x4 01234567890...\"");
    REFUSED("", "no CPUID entry found");
    REFUSED("# only a comment\n\nCPU 0:\n", "no CPUID entry found");
    /* CPU 1's block is not kept but is checked */
    REFUSED("CPU 0:\n" GOOD "CPU 1:\nnonsense\n", "line 4: not a CPUID entry: \"nonsense\"");
}

TEST(cpuid_dump_parse_at_most_4096_entries)
{
    size_t cap = 4097 * 80 + 1, n = 0;
    char *text = malloc(cap);
    if (!text)
        return;
    for (unsigned i = 0; i < 4096; i++)
        n += (size_t)snprintf(text + n, cap - n, "0x%08x 0x00: eax=0x0 ebx=0x0 ecx=0x0 edx=0x0\n", i);
    cpuid_dump d;
    char err[256];
    CHECK(cpuid_dump_parse(text, &d, err, sizeof err));
    CHECK_INT(d.n, 4096);
    cpuid_dump_free(&d);
    snprintf(text + n, cap - n, "0x%08x 0x00: eax=0x0 ebx=0x0 ecx=0x0 edx=0x0\n", 4096u);
    REFUSED(text, "line 4097: more than 4096 entries: \"0x00001000 0x00: eax=0x0 ebx=0x0 ecx=0x0 edx=0x0\"");
    free(text);
}

static void round_trip(const char *name)
{
    cpuid_dump a, b;
    if (!load(name, &a))
        return;
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        test_fail(__FILE__, __LINE__, "open_memstream");
        cpuid_dump_free(&a);
        return;
    }
    cpuid_dump_write(f, &a);
    fclose(f);
    CHECK_CONTAINS(buf, "CPU 0:\n   0x00000000 0x00: eax=0x");
    if (cpuid_dump_parse(buf, &b, err, sizeof err)) {
        CHECK_INT(b.n, a.n);
        if (b.n == a.n)
            for (size_t i = 0; i < a.n; i++)
                if (memcmp(&a.entries[i], &b.entries[i], sizeof a.entries[i]) != 0)
                    test_fail(__FILE__, __LINE__, "%s: entry %zu differs after the round trip", name, i);
        cpuid_dump_free(&b);
    } else {
        test_fail(__FILE__, __LINE__, "%s written and read back: %s", name, err);
    }
    free(buf);
    cpuid_dump_free(&a);
}

TEST(cpuid_dump_write_round_trips)
{
    round_trip("zen5-microvm.txt");
    round_trip("spr-guest.txt");
    round_trip("zen4-host.txt");
    round_trip("live-x86.txt");
    round_trip("live-x86-cpuid-tool.txt");
}

TEST(cpuid_dump_live_vendor_matches_cpuinfo)
{
    cpuid_dump d;
    bool ok = cpuid_dump_live(&d);
#if defined(__x86_64__) || defined(__i386__)
    CHECK(ok);
    if (!ok)
        return;
    uint32_t r[4];
    CHECK(cpuid_dump_get(&d, 0, 0, r));
    CHECK(cpuid_dump_get(&d, 0x80000000, 0, r));
    cpuid_caches c;
    cpuid_caches_decode(&d, &c);
    size_t info_len; /* the machine's file: read as membench reads it (inputs refuse /proc) */
    char *info = platform_read_whole("/proc/cpuinfo", 1 << 20, &info_len), vendor[64];
    if (info && cpuinfo_value(info, "vendor_id", vendor, sizeof vendor))
        CHECK_STR(c.vendor, vendor);
    /* the kernel's "hypervisor" flag is CPUID.1:ECX[31] */
    char flags[4096];
    if (info && cpuinfo_value(info, "flags", flags, sizeof flags) && cpuid_dump_get(&d, 1, 0, r)) {
        char padded[4100];
        snprintf(padded, sizeof padded, " %s ", flags);
        CHECK_INT(strstr(padded, " hypervisor ") != NULL, r[2] >> 31);
    }
    free(info);
    cpuid_dump_free(&d);
#else
    CHECK(!ok); /* CPUID is x86's */
    CHECK_INT(d.n, 0);
#endif
}
