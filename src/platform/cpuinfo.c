/* SPDX-License-Identifier: MIT */
#include "platform/cpuinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of a line that starts with key, then blanks, then ':'; NULL if the line
 * is another key. *len is the value's length (to the end of the line). */
static const char *line_value(const char *line, const char *next, const char *key, size_t *len)
{
    size_t klen = strlen(key);
    if (strncmp(line, key, klen) != 0)
        return NULL;
    const char *p = line + klen;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != ':' || (next && p > next))
        return NULL;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    *len = next ? (size_t)(next - p) : strlen(p);
    while (*len > 0 && (p[*len - 1] == ' ' || p[*len - 1] == '\t' || p[*len - 1] == '\r'))
        (*len)--;
    return p;
}

bool cpuinfo_value(const char *info, const char *key, char *out, size_t size)
{
    for (const char *line = info; line && *line;) {
        const char *next = strchr(line, '\n');
        size_t len;
        const char *v = line_value(line, next, key, &len);
        if (v) {
            if (len >= size)
                len = size - 1;
            memcpy(out, v, len);
            out[len] = '\0';
            return true;
        }
        line = next ? next + 1 : NULL;
    }
    return false;
}

/* Names of a few common arm64 cores (MIDR implementer, part), for the reader. */
static const char *arm_part_name(const char *impl, const char *part)
{
    static const struct {
        unsigned long impl, part;
        const char *name;
    } parts[] = {
        {0x41, 0xd03, "Cortex-A53"},  {0x41, 0xd08, "Cortex-A72"},  {0x41, 0xd0b, "Cortex-A76"},
        {0x41, 0xd0c, "Neoverse N1"}, {0x41, 0xd40, "Neoverse V1"}, {0x41, 0xd49, "Neoverse N2"},
        {0x41, 0xd4f, "Neoverse V2"}, {0xc0, 0xac3, "Ampere-1"},    {0x46, 0x001, "A64FX"},
    };
    unsigned long i = strtoul(impl, NULL, 0), p = strtoul(part, NULL, 0);
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
        if (parts[k].impl == i && parts[k].part == p)
            return parts[k].name;
    return NULL;
}

/* IBM Z machine types (the "machine" number) and the models they are. */
static const char *s390_machine_name(const char *type)
{
    static const char *const names[][2] = {{"2964", "z13"},  {"2965", "z13s"},     {"3906", "z14"},
                                           {"3907", "z14 ZR1"}, {"8561", "z15 T01"}, {"8562", "z15 T02"},
                                           {"3931", "z16 A01"}, {"3932", "z16 A02"}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(names[k][0], type) == 0)
            return names[k][1];
    return NULL;
}

/* s390x: "machine : 8561" (per-CPU blocks, newer kernels) or, in every kernel,
 * "processor 0: version = FF,  identification = 0133E8,  machine = 8561". */
static bool s390_model(const char *info, char *buf, size_t size)
{
    char type[32] = "";
    if (!cpuinfo_value(info, "machine", type, sizeof type)) {
        const char *m = strstr(info, "machine = ");
        if (m)
            sscanf(m + strlen("machine = "), "%31[0-9A-Za-z]", type);
    }
    if (!type[0])
        return false;
    const char *name = s390_machine_name(type);
    snprintf(buf, size, "IBM/S390 machine %s%s%s%s", type, name ? " (" : "", name ? name : "", name ? ")" : "");
    return true;
}

void cpuinfo_model(const char *info, char *buf, size_t size)
{
    char a[128], b[128];
    if (!info)
        info = "";
    if (cpuinfo_value(info, "model name", buf, size) && buf[0]) /* x86, arm32, LoongArch */
        return;
    if (cpuinfo_value(info, "vendor_id", a, sizeof a) && strcmp(a, "IBM/S390") == 0 && s390_model(info, buf, size))
        return;
    /* arm64 names no model: its implementer and part numbers identify the core. */
    if (cpuinfo_value(info, "CPU implementer", a, sizeof a) && cpuinfo_value(info, "CPU part", b, sizeof b)) {
        const char *name = arm_part_name(a, b);
        snprintf(buf, size, "arm64 CPU implementer %s part %s%s%s%s", a, b, name ? " (" : "", name ? name : "",
                 name ? ")" : "");
        return;
    }
    /* RISC-V: the core's compatible string when the device tree gives one. */
    if (cpuinfo_value(info, "uarch", buf, size) && buf[0])
        return;
    if (cpuinfo_value(info, "isa", a, sizeof a) && a[0]) {
        snprintf(buf, size, "RISC-V %s", a);
        return;
    }
    /* POWER: "cpu : POWER9 (architected), altivec supported", and the machine. */
    if (cpuinfo_value(info, "cpu", a, sizeof a) && a[0]) {
        bool m = cpuinfo_value(info, "model", b, sizeof b) && b[0];
        snprintf(buf, size, "%s%s%s", a, m ? "; " : "", m ? b : "");
        return;
    }
    if ((cpuinfo_value(info, "Model", buf, size) || cpuinfo_value(info, "cpu model", buf, size)) && buf[0])
        return;
    snprintf(buf, size, "unknown");
}

/* One "cacheN : level=... type=... scope=... size=...K line_size=..." line. */
static bool cache_line(const char *text, cpuinfo_cache *out)
{
    int idx;
    const char *colon = strchr(text, ':'), *p;
    if (sscanf(text, "cache%d", &idx) != 1 || !colon)
        return false;
    char type[32] = "", scope[32] = "";
    int level = 0, line = 0;
    unsigned long long kb = 0;
    if ((p = strstr(colon, "level=")))
        level = atoi(p + 6);
    if ((p = strstr(colon, "type=")))
        sscanf(p + 5, "%31[A-Za-z]", type);
    if ((p = strstr(colon, "scope=")))
        sscanf(p + 6, "%31[A-Za-z]", scope);
    if ((p = strstr(colon, " size="))) /* not line_size= */
        kb = strtoull(p + 6, NULL, 10);
    if ((p = strstr(colon, "line_size=")))
        line = atoi(p + 10);
    if (level <= 0 || kb == 0 || kb >= (1ULL << 40))
        return false;
    *out = (cpuinfo_cache){level, strcmp(type, "Instruction") != 0, strcmp(scope, "Shared") == 0, kb * 1024ULL,
                           line > 0 && line <= 4096 ? line : 0};
    return true;
}

size_t cpuinfo_caches(const char *info, cpuinfo_cache *out, size_t max)
{
    size_t n = 0;
    for (const char *line = info; line && *line && n < max;) {
        const char *next = strchr(line, '\n');
        char text[256];
        size_t len = next ? (size_t)(next - line) : strlen(line);
        if (len >= sizeof text)
            len = sizeof text - 1;
        memcpy(text, line, len);
        text[len] = '\0';
        n += cache_line(text, &out[n]);
        line = next ? next + 1 : NULL;
    }
    return n;
}
