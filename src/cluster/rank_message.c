/* SPDX-License-Identifier: MIT */
/* "MBR2 <exit> <started> <ended> <steps together> <lost at> <host bytes> <error bytes or -1>
 * <document bytes or -1>\n" then the three texts back to back: lengths first, so no text
 * needs escaping. */
#include "cluster/rank_message.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "MBR2"

char *rank_message_encode(const rank_message *m, size_t *len)
{
    const char *host = m->host ? m->host : "?";
    size_t hl = strlen(host), el = m->error ? strlen(m->error) : 0, dl = m->document ? m->document_len : 0;
    char head[192];
    int n = snprintf(head, sizeof head, MAGIC " %d %.6f %.6f %d %d %zu %lld %lld\n", m->exit_status, m->started,
                     m->ended, m->steps_together, m->steps_lost_at, hl, m->error ? (long long)el : -1LL,
                     m->document ? (long long)dl : -1LL);
    char *out = malloc((size_t)n + hl + el + dl);
    if (!out)
        return NULL;
    memcpy(out, head, (size_t)n);
    memcpy(out + n, host, hl);
    if (el)
        memcpy(out + n + hl, m->error, el);
    if (dl)
        memcpy(out + n + hl + el, m->document, dl);
    *len = (size_t)n + hl + el + dl;
    return out;
}

/* A copy of len bytes, NUL-terminated; len < 0: NULL. */
static char *take(const char *p, long long len)
{
    if (len < 0)
        return NULL;
    char *s = malloc((size_t)len + 1);
    if (s) {
        memcpy(s, p, (size_t)len);
        s[len] = '\0';
    }
    return s;
}

bool rank_message_decode(const char *bytes, size_t len, rank_message *m)
{
    memset(m, 0, sizeof *m);
    const char *nl = memchr(bytes, '\n', len < 192 ? len : 192);
    if (!nl || len < 5 || memcmp(bytes, MAGIC " ", 5) != 0)
        return false;
    char head[192];
    memcpy(head, bytes, (size_t)(nl - bytes));
    head[nl - bytes] = '\0';
    int status, together, lost_at;
    long long hl, el, dl;
    char extra;
    double started, ended;
    if (sscanf(head, MAGIC " %d %lf %lf %d %d %lld %lld %lld %c", &status, &started, &ended, &together, &lost_at, &hl,
               &el, &dl, &extra) != 8 ||
        hl < 0 || el < -1 || dl < -1 || together < 0 || lost_at < -1)
        return false;
    size_t body = len - (size_t)(nl + 1 - bytes);
    unsigned long long want = (unsigned long long)hl + (unsigned long long)(el > 0 ? el : 0) +
                              (unsigned long long)(dl > 0 ? dl : 0);
    if (want != body)
        return false;
    const char *p = nl + 1;
    m->exit_status = status;
    m->started = started;
    m->ended = ended;
    m->steps_together = together;
    m->steps_lost_at = lost_at;
    m->host = take(p, hl);
    m->error = take(p + hl, el);
    m->document = take(p + hl + (el > 0 ? el : 0), dl);
    m->document_len = dl > 0 ? (size_t)dl : 0;
    return m->host && (el < 0 || m->error) && (dl < 0 || m->document);
}

void rank_message_free(rank_message *m)
{
    free(m->host);
    free(m->error);
    free(m->document);
    memset(m, 0, sizeof *m);
}
