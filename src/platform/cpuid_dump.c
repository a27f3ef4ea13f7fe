/* SPDX-License-Identifier: MIT */
#include "platform/cpuid_dump.h"

#include <stdlib.h>
#include <string.h>

#include "util/parse_number.h"

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* "name" (may be ""), then "0x" and 1 to 8 hex digits, then a blank, `stop` or the
 * end of the line. Returns NULL or why not. */
static const char *field(const char **pp, const char *end, const char *name, char stop, uint32_t *v)
{
    const char *p = skip_blanks(*pp, end);
    if (p == end)
        return "truncated line";
    size_t nlen = strlen(name);
    if ((size_t)(end - p) < nlen || memcmp(p, name, nlen) != 0)
        return "not a CPUID entry";
    p += nlen;
    if (end - p < 2 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
        return p == end ? "truncated line" : nlen ? "bad hex number" : "not a CPUID entry";
    p += 2;
    uint32_t x = 0;
    int digits = 0;
    for (; p < end && hex_digit(*p) >= 0; p++, digits++) {
        if (digits == 8)
            return "bad hex number"; /* more than 32 bits */
        x = x << 4 | (uint32_t)hex_digit(*p);
    }
    if (digits == 0 || (p < end && *p != ' ' && *p != '\t' && *p != stop))
        return "bad hex number";
    *v = x;
    *pp = p;
    return NULL;
}

/* "0xLEAF 0xSUB: eax=0x.. ebx=0x.. ecx=0x.. edx=0x.." */
static const char *parse_entry(const char *p, const char *end, cpuid_entry *e)
{
    const char *why;
    if ((why = field(&p, end, "", '\0', &e->leaf)) || (why = field(&p, end, "", ':', &e->subleaf)))
        return why;
    p = skip_blanks(p, end);
    if (p == end)
        return "truncated line";
    if (*p != ':')
        return "not a CPUID entry";
    p++;
    static const char *const names[4] = {"eax=", "ebx=", "ecx=", "edx="};
    uint32_t *regs[4] = {&e->eax, &e->ebx, &e->ecx, &e->edx};
    for (int i = 0; i < 4; i++)
        if ((why = field(&p, end, names[i], '\0', regs[i])))
            return why;
    return skip_blanks(p, end) == end ? NULL : "trailing text";
}

/* "CPU 12:" or "CPU:" */
static bool is_header(const char *p, const char *end)
{
    if (end - p < 4 || memcmp(p, "CPU", 3) != 0)
        return false;
    p = skip_blanks(p + 3, end);
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    return p < end && *p == ':' && skip_blanks(p + 1, end) == end;
}

/* The line for an error message: printable ASCII only (no newline, escape or
 * half of a UTF-8 character reaches a terminal), cut short. */
static void excerpt(const char *p, const char *end, char *buf, size_t size)
{
    size_t n = 0, max = size > 4 ? size - 4 : 0;
    for (; p < end && n < max && n < 60; p++)
        buf[n++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
    if (p < end && size >= 4)
        buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    if (size)
        buf[n] = '\0';
}

static bool fail(cpuid_dump *out, char *err, size_t errlen, size_t line, const char *why, const char *p,
                 const char *end)
{
    char text[72];
    excerpt(p, end, text, sizeof text);
    if (line)
        snprintf(err, errlen, "line %zu: %s: \"%s\"", line, why, text);
    else
        snprintf(err, errlen, "%s", why);
    cpuid_dump_free(out);
    return false;
}

bool cpuid_dump_parse(const char *text, cpuid_dump *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0, line = 0;
    bool header_seen = false, keeping = true;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p), *next = nl ? nl + 1 : end;
        line++;
        if (end > p && end[-1] == '\r')
            end--;
        const char *s = skip_blanks(p, end);
        if (s == end || *s == '#') {
            p = next;
            continue;
        }
        if (is_header(s, end)) {
            /* the second CPU's block, or any CPU's after header-less lines */
            if (header_seen || out->n > 0)
                keeping = false;
            header_seen = true;
            p = next;
            continue;
        }
        cpuid_entry e;
        const char *why = parse_entry(s, end, &e);
        if (why)
            return fail(out, err, errlen, line, why, s, end);
        if (keeping) {
            for (size_t i = 0; i < out->n; i++)
                if (out->entries[i].leaf == e.leaf && out->entries[i].subleaf == e.subleaf)
                    return fail(out, err, errlen, line, "leaf and subleaf given twice", s, end);
            if (out->n == CPUID_DUMP_MAX_ENTRIES)
                return fail(out, err, errlen, line, "more than 4096 entries", s, end);
            if (out->n == cap) {
                cap = cap ? 2 * cap : 64;
                cpuid_entry *grown = realloc(out->entries, cap * sizeof *grown);
                if (!grown)
                    return fail(out, err, errlen, line, "out of memory", s, end);
                out->entries = grown;
            }
            out->entries[out->n++] = e;
        }
        p = next;
    }
    if (out->n == 0)
        return fail(out, err, errlen, 0, "no CPUID entry found", "", "");
    return true;
}

bool cpuid_dump_get(const cpuid_dump *d, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    for (size_t i = 0; i < d->n; i++) {
        const cpuid_entry *e = &d->entries[i];
        if (e->leaf == leaf && e->subleaf == subleaf) {
            regs[0] = e->eax, regs[1] = e->ebx, regs[2] = e->ecx, regs[3] = e->edx;
            return true;
        }
    }
    return false;
}

void cpuid_dump_free(cpuid_dump *d)
{
    free(d->entries);
    d->entries = NULL;
    d->n = 0;
}

void cpuid_dump_write(FILE *f, const cpuid_dump *d)
{
    fputs("CPU 0:\n", f);
    for (size_t i = 0; i < d->n; i++) {
        const cpuid_entry *e = &d->entries[i];
        fprintf(f, "   0x%08x 0x%02x: eax=0x%08x ebx=0x%08x ecx=0x%08x edx=0x%08x\n", (unsigned)e->leaf,
                (unsigned)e->subleaf, (unsigned)e->eax, (unsigned)e->ebx, (unsigned)e->ecx, (unsigned)e->edx);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Leaves 4 and 0x8000001D end with a subleaf of type 0 (kept, as cpuid -r does). */
enum { MAX_SUBLEAVES = 16, MAX_HV_LEAVES = 16, LIVE_CAP = 8 + 2 * MAX_SUBLEAVES + 1 + MAX_HV_LEAVES };

static const cpuid_entry *add(cpuid_dump *d, uint32_t leaf, uint32_t sub)
{
    unsigned a, b, c, dx;
    __cpuid_count(leaf, sub, a, b, c, dx);
    d->entries[d->n] = (cpuid_entry){leaf, sub, a, b, c, dx};
    return &d->entries[d->n++];
}

static void add_subleaves(cpuid_dump *d, uint32_t leaf)
{
    for (uint32_t sub = 0; sub < MAX_SUBLEAVES; sub++)
        if ((add(d, leaf, sub)->eax & 0x1f) == 0)
            break;
}

bool cpuid_dump_live(cpuid_dump *out)
{
    memset(out, 0, sizeof *out);
    if (__get_cpuid_max(0, NULL) == 0)
        return false; /* no CPUID instruction (an early i486) */
    out->entries = calloc(LIVE_CAP, sizeof *out->entries);
    if (!out->entries)
        return false;
    uint32_t max = add(out, 0, 0)->eax;
    bool hypervisor = max >= 1 && add(out, 1, 0)->ecx >> 31;
    if (max >= 4)
        add_subleaves(out, 4);
    if (hypervisor) {
        uint32_t hmax = add(out, 0x40000000, 0)->eax;
        for (uint32_t leaf = 0x40000001; leaf <= hmax && leaf <= 0x40000000 + MAX_HV_LEAVES; leaf++)
            add(out, leaf, 0);
    }
    uint32_t emax = add(out, 0x80000000, 0)->eax;
    if ((emax & 0xffff0000) != 0x80000000)
        emax = 0; /* no extended leaves: eax is some other leaf's */
    static const uint32_t ext[] = {0x80000001, 0x80000005, 0x80000006, 0x80000008};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (emax >= ext[i])
            add(out, ext[i], 0);
    if (emax >= 0x8000001d)
        add_subleaves(out, 0x8000001d);
    return true;
}
#else
bool cpuid_dump_live(cpuid_dump *out)
{
    memset(out, 0, sizeof *out);
    return false; /* CPUID is x86's */
}
#endif
