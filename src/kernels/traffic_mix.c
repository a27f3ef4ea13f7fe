/* SPDX-License-Identifier: MIT */
/* The mix table and the step that runs a mix (see traffic_mix.h). */
#include "kernels/traffic_mix.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/splitmix64.h"

#define L STORE_LOADS_ONLY
#define RG STORE_REGULAR
#define NT STORE_NONTEMPORAL
#define WRITE_PATTERN 0x5a5a5a5a5a5a5a5aULL
#define TRIAD_SCALAR 3.0

/*  name   ratio  MLC label              description                                         stores cp rd wr triad */
static const traffic_mix mixes[] = {
    {"R", "1:0", "ALL Reads", "all reads", L, 0, 1, 0, false},
    {"W2", "2:1", "2:1 Reads-Writes", "2 reads : 1 regular write", RG, 1, 1, 0, false},
    {"W3", "3:1", "3:1 Reads-Writes", "3 reads : 1 regular write", RG, 1, 2, 0, false},
    {"W4", "3:2", "", "3 reads : 2 regular writes", RG, 2, 1, 0, false},
    {"W5", "1:1", "1:1 Reads-Writes", "1 read : 1 regular write (copy)", RG, 1, 0, 0, false},
    {"W6", "0:1", "", "non-temporal writes only", NT, 0, 0, 1, false},
    {"W7", "2:1", "", "2 reads : 1 non-temporal write", NT, 1, 1, 0, false},
    {"W8", "1:1", "", "1 read : 1 non-temporal write (copy)", NT, 1, 0, 0, false},
    {"W9", "3:1", "", "3 reads : 1 non-temporal write", NT, 1, 2, 0, false},
    {"W10", "2:1", "Stream-triad like", "triad: 2 read buffers : 1 non-temporal write", NT, 0, 0, 0, true},
    {"W11", "2:1", "Stream-triad like",
     "triad: 2 read buffers : 1 regular write (3:1 counting the write-allocate read, as MLC does)", RG, 0, 0, 0, true},
    {"W12", "4:1", "", "4 reads : 1 regular write", RG, 1, 3, 0, false},
    {"W13", "5:1", "", "5 reads : 1 regular write", RG, 1, 4, 0, false},
    {"W14", "6:1", "", "6 reads : 1 regular write", RG, 1, 5, 0, false},
    {"W15", "7:1", "", "7 reads : 1 regular write", RG, 1, 6, 0, false},
    {"W16", "8:1", "", "8 reads : 1 regular write", RG, 1, 7, 0, false},
    {"W17", "9:1", "", "9 reads : 1 regular write", RG, 1, 8, 0, false},
};
#define NMIXES (sizeof mixes / sizeof mixes[0])

const traffic_mix *traffic_mix_table(size_t *count)
{
    *count = NMIXES;
    return mixes;
}

const traffic_mix *traffic_mix_find(const char *name)
{
    char buf[8];
    if (!name || strlen(name) >= sizeof buf - 1)
        return NULL;
    if (isdigit((unsigned char)name[0]))
        snprintf(buf, sizeof buf, "W%s", name); /* MLC's -W 5 */
    else
        snprintf(buf, sizeof buf, "%s", name);
    buf[0] = (char)toupper((unsigned char)buf[0]);
    for (size_t i = 0; i < NMIXES; i++)
        if (strcmp(mixes[i].name, buf) == 0)
            return &mixes[i];
    return NULL;
}

const char *traffic_mix_names(void)
{
    static char names[NMIXES * 5];
    if (!names[0])
        for (size_t i = 0; i < NMIXES; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", mixes[i].name);
    return names;
}

unsigned traffic_mix_read_units(const traffic_mix *m)
{
    return m->copies + m->reads + (m->triad ? 2u : 0u);
}

unsigned traffic_mix_write_units(const traffic_mix *m)
{
    return m->copies + m->writes + (m->triad ? 1u : 0u);
}

unsigned traffic_mix_rfo_units(const traffic_mix *m)
{
    return m->stores == STORE_REGULAR ? traffic_mix_write_units(m) : 0;
}

bool traffic_mix_uses_read(const traffic_mix *m)
{
    return m->copies + m->reads > 0 || m->triad;
}

bool traffic_mix_uses_second_read(const traffic_mix *m)
{
    return m->triad;
}

bool traffic_mix_uses_write(const traffic_mix *m)
{
    return traffic_mix_write_units(m) > 0;
}

double traffic_mix_dram_bytes(const traffic_mix *m, double app_bytes)
{
    unsigned app = traffic_mix_read_units(m) + traffic_mix_write_units(m);
    return app_bytes * (double)(app + traffic_mix_rfo_units(m)) / (double)app;
}

static bool need(const kernel **slot, bool wanted, kernel_family f, int op, kernel_store s, const char *isa,
                 const traffic_mix *m, const char *what, char *why, size_t whylen)
{
    *slot = NULL;
    if (!wanted)
        return true;
    *slot = kernel_choose(f, op, s, isa, true);
    if (*slot)
        return true;
    if (isa)
        snprintf(why, whylen, "%s needs %s%s; the %s kernels of --kernel have none", m->name, what,
                 s == STORE_NONTEMPORAL ? " with non-temporal stores" : "", isa);
    else
        snprintf(why, whylen, "%s needs %s%s; this CPU's kernels have none", m->name, what,
                 s == STORE_NONTEMPORAL ? " with non-temporal stores" : "");
    return false;
}

bool traffic_program_make(traffic_program *p, const traffic_mix *m, const char *isa, size_t unit, char *why,
                          size_t whylen)
{
    memset(p, 0, sizeof *p);
    p->mix = m;
    p->unit = unit;
    bool nt = m->stores == STORE_NONTEMPORAL;
    return need(&p->copy, m->copies > 0, KERNEL_SWEEP, nt ? OP_COPY_NT : OP_COPY, m->stores, isa, m, "a copy kernel",
                why, whylen) &&
           need(&p->read, m->reads > 0, KERNEL_SWEEP, OP_READ, STORE_LOADS_ONLY, isa, m, "a read kernel", why,
                whylen) &&
           need(&p->write, m->writes > 0, KERNEL_SWEEP, nt ? OP_WRITE_NT : OP_WRITE, m->stores, isa, m,
                "a write kernel", why, whylen) &&
           need(&p->triad, m->triad, KERNEL_STREAM, STREAM_TRIAD, m->stores, isa, m, "a triad kernel", why, whylen);
}

uint64_t traffic_step_bytes(const traffic_program *p)
{
    return (uint64_t)(traffic_mix_read_units(p->mix) + traffic_mix_write_units(p->mix)) * p->unit;
}

/* Where the next n bytes of a stream start: from the top again when they would
 * run past the end. */
static size_t take(size_t *pos, size_t n, size_t bytes)
{
    if (*pos + n > bytes)
        *pos = 0;
    size_t at = *pos;
    *pos += n;
    return at;
}

/* Random traffic: the n bytes start at a random multiple of unit that fits. */
static size_t take_random(uint64_t *rng, size_t n, size_t unit, size_t bytes)
{
    size_t places = n <= bytes ? (bytes - n) / unit + 1 : 1;
    return (size_t)(splitmix64_next(rng) % places) * unit;
}

uint64_t traffic_step(const traffic_program *p, traffic_cursor *c)
{
    const traffic_mix *m = p->mix;
    size_t u = p->unit;
    size_t rn = (size_t)(m->copies + m->reads + m->triad) * u, wn = (size_t)(m->copies + m->writes + m->triad) * u;
    size_t r = p->random ? take_random(&c->rng, rn, u, c->bytes) : take(&c->rpos, rn, c->bytes);
    size_t w = p->random ? take_random(&c->rng, wn, u, c->bytes) : take(&c->wpos, wn, c->bytes);
    kernel_args a = {.bytes = u, .pattern = WRITE_PATTERN, .scalar = TRIAD_SCALAR};
    for (unsigned i = 0; i < m->copies; i++, r += u, w += u) {
        a.out = c->write + w;
        a.in[0] = c->read + r;
        p->copy->fn(&a);
    }
    for (unsigned i = 0; i < m->reads; i++, r += u) {
        a.in[0] = c->read + r;
        c->xor_sink ^= p->read->fn(&a);
    }
    for (unsigned i = 0; i < m->writes; i++, w += u) {
        a.out = c->write + w;
        p->write->fn(&a);
    }
    if (m->triad) {
        a.out = c->write + w;
        a.in[0] = c->read + r;
        a.in[1] = c->read2 + (p->random ? take_random(&c->rng, u, u, c->bytes) : take(&c->r2pos, u, c->bytes));
        p->triad->fn(&a);
    }
    return traffic_step_bytes(p);
}
