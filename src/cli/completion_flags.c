/* SPDX-License-Identifier: MIT */
#include "cli/completion_flags.h"

#include <string.h>

/* What the value of s completes to; words gets the candidates. */
static completion_value value_of(const option_spec *s, char *words, size_t len, bool *list)
{
    words[0] = '\0';
    *list = false;
    if (!s->value_name)
        return VALUE_NONE;
    if (s->values) {
        s->values(words, len);
    } else if (s->kind == OPT_CHOICE) {
        for (int i = 0; s->choices[i]; i++)
            options_add_word(words, len, s->choices[i]);
    } else if (strchr(s->value_name, '|')) { /* "4k|2m|1g|thp" */
        for (const char *w = s->value_name; *w;) {
            char one[64];
            size_t l = strcspn(w, "|");
            snprintf(one, sizeof one, "%.*s", (int)l, w);
            options_add_word(words, len, one);
            w += l + (w[l] == '|');
        }
    }
    if (words[0]) {
        size_t vl = strlen(s->value_name);
        *list = vl >= 4 && strcmp(s->value_name + vl - 4, "LIST") == 0;
        return VALUE_WORDS;
    }
    if (strstr(s->value_name, "FILE"))
        return VALUE_FILE;
    if (strcmp(s->value_name, "DIR") == 0)
        return VALUE_DIR;
    return VALUE_OTHER;
}

size_t completion_flags(const option_table *t, completion_flag *out, size_t max)
{
    size_t n = 0;
    for (const option_spec *e = t->specs; e->key && n < max; e++) {
        const option_spec *s = options_resolve(e);
        if (!s)
            continue;
        completion_flag *c = &out[n++];
        memset(c, 0, sizeof *c);
        if (s->short_name)
            snprintf(c->short_flag, sizeof c->short_flag, "-%c", s->short_name);
        if (s->long_name)
            snprintf(c->long_flag, sizeof c->long_flag, "--%s", s->long_name);
        c->value_name = s->value_name;
        c->value = value_of(s, c->words, sizeof c->words, &c->list);
        const char *help = s->help ? s->help : "";
        snprintf(c->help, sizeof c->help, "%.*s", (int)strcspn(help, "\n"), help);
        if (s->negatable && s->kind == OPT_FLAG && s->long_name && n < max) { /* --no-NAME */
            completion_flag *no = &out[n++];
            memset(no, 0, sizeof *no);
            snprintf(no->long_flag, sizeof no->long_flag, "--no-%s", s->long_name);
            snprintf(no->help, sizeof no->help, "Turn off --%s", s->long_name);
        }
    }
    return n;
}

const char *completion_ident(const completion_command *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s", c->name ? c->name : "default");
    for (char *p = buf; *p; p++)
        if (*p == '-')
            *p = '_';
    return buf;
}
