/* SPDX-License-Identifier: MIT */
/* The bash script: one function that finds the command from the words before the
 * cursor (" numa mem ..."), then completes the value of the option before the
 * cursor, else an option, else the command's operands. */
#include <string.h>

#include "cli/completion_flags.h"

/* "--min|--max": the flags whose value is kind (and words, list); "" when none. */
static const char *flag_pattern(char *buf, size_t len, const completion_flag *fl, size_t n, completion_value kind,
                                const char *words, bool list)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (fl[i].value != kind || (words && (strcmp(fl[i].words, words) != 0 || fl[i].list != list)))
            continue;
        const char *both[] = {fl[i].short_flag, fl[i].long_flag};
        for (int k = 0; k < 2; k++)
            if (both[k][0])
                snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "|" : "", both[k]);
    }
    return buf;
}

static void command_case(FILE *f, const char *program, const completion_command *c)
{
    completion_flag fl[COMPLETION_MAX_FLAGS];
    size_t n = completion_flags(c->table, fl, COMPLETION_MAX_FLAGS);
    char id[64];
    fprintf(f, "    %s)\n        opts=\"", completion_ident(c, id, sizeof id));
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s%s%s", i ? " " : "", fl[i].short_flag, fl[i].short_flag[0] && fl[i].long_flag[0] ? " " : "",
                fl[i].long_flag);
    fprintf(f, "\"\n        operands=%d operand_words=\"%s\"\n", c->operands, c->operand_words ? c->operand_words : "");
    fprintf(f, "        case \"$prev\" in\n");
    char pat[2048];
    if (*flag_pattern(pat, sizeof pat, fl, n, VALUE_OTHER, NULL, false))
        fprintf(f, "        %s) return 0 ;;\n", pat);
    if (*flag_pattern(pat, sizeof pat, fl, n, VALUE_FILE, NULL, false))
        fprintf(f, "        %s) _%s_files -f; return 0 ;;\n", pat, program);
    if (*flag_pattern(pat, sizeof pat, fl, n, VALUE_DIR, NULL, false))
        fprintf(f, "        %s) _%s_files -d; return 0 ;;\n", pat, program);
    for (size_t i = 0; i < n; i++) { /* one case per distinct word list */
        if (fl[i].value != VALUE_WORDS)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = fl[j].value == VALUE_WORDS && fl[j].list == fl[i].list && strcmp(fl[j].words, fl[i].words) == 0;
        if (seen)
            continue;
        fprintf(f, "        %s", flag_pattern(pat, sizeof pat, fl, n, VALUE_WORDS, fl[i].words, fl[i].list));
        if (fl[i].list)
            fprintf(f, ") _%s_list \"%s\"; return 0 ;;\n", program, fl[i].words);
        else
            fprintf(f, ") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return 0 ;;\n", fl[i].words);
    }
    fprintf(f, "        esac ;;\n");
}

/* The words of a command: "numa mem", or its name. */
static const char *words_of(const completion_command *c)
{
    return c->words ? c->words : c->name;
}

void completion_write_bash(FILE *f, const char *program, const completion_command *cmds, size_t n)
{
    fprintf(f,
            "_%1$s_list() { # the words of a comma-separated LIST, after the last comma\n"
            "    local pre=\n"
            "    [[ $cur == *,* ]] && pre=${cur%%,*},\n"
            "    COMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"${cur##*,}\"))\n"
            "    compopt -o nospace 2>/dev/null\n"
            "    return 0\n"
            "}\n\n"
            "_%1$s_files() { # $1: -f files, -d directories\n"
            "    compopt -o filenames 2>/dev/null\n"
            "    COMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n"
            "}\n\n"
            "_%1$s() {\n"
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev= i=$((COMP_CWORD - 1))\n"
            "    [ \"$cur\" = = ] && cur= # --json=FILE: bash splits at '='\n"
            "    [ \"${COMP_WORDS[i]-}\" = = ] && i=$((i - 1))\n"
            "    [ $i -gt 0 ] && prev=${COMP_WORDS[i]}\n"
            "    COMPREPLY=()\n"
            "    local line=\" ${COMP_WORDS[*]:1:COMP_CWORD-1} \" cmd=default opts= operands=0 operand_words=\n"
            "    case \"$line\" in\n"
            "    \"  \")\n"
            "        if [[ $cur != -* ]]; then\n"
            "            COMPREPLY=($(compgen -W \"",
            program);
    bool first = true;
    for (size_t i = 0; i < n; i++) { /* every name, and the first word of multi-word commands */
        if (!cmds[i].name)
            continue;
        fprintf(f, "%s%s", first ? "" : " ", cmds[i].name);
        first = false;
        if (cmds[i].words)
            fprintf(f, " %.*s", (int)strcspn(cmds[i].words, " "), cmds[i].words);
    }
    fprintf(f, "\" -- \"$cur\"))\n            return 0\n        fi ;;\n");
    for (size_t i = 0; i < n; i++) {
        if (!cmds[i].name)
            continue;
        const char *w = words_of(&cmds[i]);
        /* each proper prefix of the words offers the next word */
        for (const char *sp = strchr(w, ' '); sp; sp = strchr(sp + 1, ' ')) {
            const char *next = sp + 1;
            fprintf(f, "    \" %.*s \") COMPREPLY=($(compgen -W \"%.*s\" -- \"$cur\")); return 0 ;;\n", (int)(sp - w),
                    w, (int)strcspn(next, " "), next);
        }
        char id[64];
        fprintf(f, "    \" %s \"*", w);
        if (cmds[i].words)
            fprintf(f, " | \" %s \"*", cmds[i].name);
        fprintf(f, ") cmd=%s ;;\n", completion_ident(&cmds[i], id, sizeof id));
    }
    fprintf(f, "    esac\n    case \"$cmd\" in\n");
    for (size_t i = 0; i < n; i++)
        command_case(f, program, &cmds[i]);
    fprintf(f,
            "    esac\n"
            "    if [[ $cur == -* ]] || [ \"$operands\" -eq 0 ]; then\n"
            "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
            "    elif [ -n \"$operand_words\" ]; then\n"
            "        COMPREPLY=($(compgen -W \"$operand_words\" -- \"$cur\"))\n"
            "    else\n"
            "        _%1$s_files -f\n"
            "    fi\n"
            "    return 0\n"
            "}\n"
            "complete -F _%1$s %1$s\n",
            program);
}
