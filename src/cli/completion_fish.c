/* SPDX-License-Identifier: MIT */
/* The fish script: a function that names the command from the words before the
 * cursor, and one `complete` line per option under that condition. */
#include <string.h>

#include "cli/completion_flags.h"

/* text inside '...': backslashes and quotes escaped. */
static void fish_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void command_lines(FILE *f, const char *program, const completion_command *c)
{
    completion_flag fl[COMPLETION_MAX_FLAGS];
    size_t n = completion_flags(c->table, fl, COMPLETION_MAX_FLAGS);
    char id[64];
    completion_ident(c, id, sizeof id);
    for (size_t i = 0; i < n; i++) {
        const completion_flag *x = &fl[i];
        fprintf(f, "complete -c %s -n '__%s_is %s'", program, program, id);
        if (x->short_flag[0])
            fprintf(f, " -s '%s'", x->short_flag + 1);
        if (x->long_flag[0])
            fprintf(f, " -l '%s'", x->long_flag + 2);
        if (x->value == VALUE_FILE)
            fputs(" -r -F", f);
        else if (x->value == VALUE_DIR)
            fputs(" -x -a '(__fish_complete_directories)'", f);
        else if (x->value == VALUE_WORDS && x->list)
            fprintf(f, " -x -a '(__%s_list %s)'", program, x->words);
        else if (x->value == VALUE_WORDS)
            fprintf(f, " -x -a '%s'", x->words);
        else if (x->value == VALUE_OTHER)
            fputs(" -x", f);
        fputs(" -d '", f);
        fish_text(f, x->help);
        fputs("'\n", f);
    }
    if (c->operands > 0 && c->operand_words)
        fprintf(f, "complete -c %s -n '__%s_is %s' -a '%s'\n", program, program, id, c->operand_words);
    else if (c->operands > 0)
        fprintf(f, "complete -c %s -n '__%s_is %s' -F\n", program, program, id);
}

void completion_write_fish(FILE *f, const char *program, const completion_command *cmds, size_t n)
{
    fprintf(f,
            "# The command the words before the cursor name: default (no mode), a mode,\n"
            "# or +WORDS while a mode of several words is half typed.\n"
            "function __%1$s_command\n"
            "    set -l w (commandline -opc)\n"
            "    set -e w[1]\n"
            "    switch \" $w \"\n",
            program);
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].name)
            continue;
        char id[64];
        completion_ident(&cmds[i], id, sizeof id);
        const char *w = cmds[i].words ? cmds[i].words : cmds[i].name;
        for (const char *sp = strchr(w, ' '); sp; sp = strchr(sp + 1, ' '))
            fprintf(f, "        case ' %.*s '\n            echo '+%.*s'\n", (int)(sp - w), w, (int)(sp - w), w);
        fprintf(f, "        case ' %s *'%s%s%s\n            echo %s\n", w, cmds[i].words ? " ' " : "",
                cmds[i].words ? cmds[i].name : "", cmds[i].words ? " *'" : "", id);
    }
    fprintf(f,
            "        case '*'\n"
            "            echo default\n"
            "    end\n"
            "end\n\n"
            "function __%1$s_is\n"
            "    test (__%1$s_command) = \"$argv[1]\"\n"
            "end\n\n"
            "function __%1$s_first\n"
            "    test (count (commandline -opc)) -eq 1\n"
            "end\n\n"
            "# The words of a comma-separated LIST, after what is typed up to the last comma.\n"
            "function __%1$s_list\n"
            "    set -l pre (string replace -r '[^,]*$' '' -- (commandline -ct))\n"
            "    for v in $argv\n"
            "        echo \"$pre$v\"\n"
            "    end\n"
            "end\n\n"
            "complete -c %1$s -f\n",
            program);
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].name)
            continue;
        fprintf(f, "complete -c %1$s -n __%1$s_first -a '%2$s' -d '", program, cmds[i].name);
        fish_text(f, cmds[i].summary ? cmds[i].summary : "");
        fputs("'\n", f);
        const char *w = cmds[i].words;
        if (w) {
            fprintf(f, "complete -c %1$s -n __%1$s_first -a '%2$.*3$s' -d '", program, w, (int)strcspn(w, " "));
            fish_text(f, cmds[i].summary ? cmds[i].summary : "");
            fputs("'\n", f);
            for (const char *sp = strchr(w, ' '); sp; sp = strchr(sp + 1, ' '))
                fprintf(f, "complete -c %s -n '__%s_is +%.*s' -a '%.*s'\n", program, program, (int)(sp - w), w,
                        (int)strcspn(sp + 1, " "), sp + 1);
        }
    }
    for (size_t i = 0; i < n; i++)
        command_lines(f, program, &cmds[i]);
}
