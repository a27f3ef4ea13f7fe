/* SPDX-License-Identifier: MIT */
/* The zsh script (#compdef): one _arguments function per command, and a
 * dispatcher that finds the command from the words before the cursor. */
#include <string.h>

#include "cli/completion_flags.h"

/* text inside '...' and inside _arguments' [...]: quotes closed and reopened,
 * brackets and colons escaped. */
static void zsh_text(FILE *f, const char *s, bool colons)
{
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else if (*s == '[' || *s == ']' || *s == '\\' || (colons && *s == ':'))
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
}

static void command_function(FILE *f, const char *program, const completion_command *c)
{
    completion_flag fl[COMPLETION_MAX_FLAGS];
    size_t n = completion_flags(c->table, fl, COMPLETION_MAX_FLAGS);
    char id[64];
    fprintf(f, "_%s_%s() {\n    _arguments -s -S", program, completion_ident(c, id, sizeof id));
    for (size_t i = 0; i < n; i++) {
        const completion_flag *x = &fl[i];
        const char *eq = x->value != VALUE_NONE ? "=" : ""; /* --json=FILE and --json FILE */
        if (x->short_flag[0] && x->long_flag[0])
            fprintf(f, " \\\n        '*'{%s,%s%s}'", x->short_flag, x->long_flag, eq);
        else if (x->short_flag[0])
            fprintf(f, " \\\n        '*%s", x->short_flag);
        else
            fprintf(f, " \\\n        '*%s%s", x->long_flag, eq);
        fputc('[', f);
        zsh_text(f, x->help, false);
        fputc(']', f);
        if (x->value != VALUE_NONE) {
            fputc(':', f);
            zsh_text(f, x->value_name, true);
            fputc(':', f);
        }
        if (x->value == VALUE_FILE)
            fputs("_files", f);
        else if (x->value == VALUE_DIR)
            fputs("_files -/", f);
        else if (x->value == VALUE_WORDS && x->list)
            fprintf(f, "_sequence compadd - %s", x->words);
        else if (x->value == VALUE_WORDS)
            fprintf(f, "(%s)", x->words);
        else if (x->value == VALUE_OTHER)
            fputc(' ', f); /* nothing to offer */
        fputc('\'', f);
    }
    if (c->operands > 0 && c->operand_words)
        fprintf(f, " \\\n        '*:operand:(%s)'", c->operand_words);
    else if (c->operands > 0)
        fputs(" \\\n        '*:file:_files'", f);
    fputs("\n}\n\n", f);
}

void completion_write_zsh(FILE *f, const char *program, const completion_command *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        command_function(f, program, &cmds[i]);
    fprintf(f, "_%s() {\n    local -a modes\n    modes=(", program);
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].name)
            continue;
        fprintf(f, "\n        '%s:", cmds[i].name);
        zsh_text(f, cmds[i].summary ? cmds[i].summary : "", true);
        fputc('\'', f);
        if (cmds[i].words) { /* "numa" of "numa mem" */
            fprintf(f, "\n        '%.*s:", (int)strcspn(cmds[i].words, " "), cmds[i].words);
            zsh_text(f, cmds[i].summary ? cmds[i].summary : "", true);
            fputc('\'', f);
        }
    }
    fprintf(f, "\n    )\n"
               "    local line=\" ${words[2,CURRENT-1]} \" cmd=default n=1\n"
               "    case \"$line\" in\n"
               "    (\"  \")\n"
               "        if [[ $PREFIX != -* ]]; then\n"
               "            _describe -t modes 'mode' modes\n"
               "            return\n"
               "        fi ;;\n");
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].name)
            continue;
        char id[64];
        completion_ident(&cmds[i], id, sizeof id);
        const char *w = cmds[i].words ? cmds[i].words : cmds[i].name;
        int nwords = 1;
        for (const char *sp = strchr(w, ' '); sp; sp = strchr(sp + 1, ' ')) {
            const char *next = sp + 1;
            fprintf(f, "    (\" %.*s \") compadd %.*s; return ;;\n", (int)(sp - w), w, (int)strcspn(next, " "), next);
            nwords++;
        }
        fprintf(f, "    (\" %s \"*) cmd=%s n=%d ;;\n", w, id, nwords + 1);
        if (cmds[i].words)
            fprintf(f, "    (\" %s \"*) cmd=%s n=2 ;;\n", cmds[i].name, id);
    }
    fprintf(f,
            "    esac\n"
            "    if (( n > 1 )); then\n"
            "        words=(\"${(@)words[n,-1]}\")\n"
            "        (( CURRENT -= n - 1 ))\n"
            "    fi\n"
            "    _%1$s_$cmd\n"
            "}\n\n"
            "if [ \"$funcstack[1]\" = \"_%1$s\" ]; then\n"
            "    _%1$s \"$@\"\n"
            "else\n"
            "    compdef _%1$s %1$s\n"
            "fi\n",
            program);
}
