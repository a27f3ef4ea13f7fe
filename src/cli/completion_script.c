/* SPDX-License-Identifier: MIT */
#include "cli/completion_script.h"

#include <string.h>

#include "cli/completion_flags.h"

bool completion_shell_known(const char *shell)
{
    const char *list = COMPLETION_SHELLS;
    size_t len = strlen(shell);
    for (const char *w = list; *w; w += strcspn(w, " "), w += *w == ' ')
        if (len && strcspn(w, " ") == len && strncmp(w, shell, len) == 0)
            return true;
    return false;
}

void completion_script_write(FILE *f, const char *shell, const char *program, const char *version,
                             const completion_command *cmds, size_t n)
{
    const char *installed = strcmp(shell, "bash") == 0  ? "/usr/share/bash-completion/completions/%s"
                            : strcmp(shell, "zsh") == 0 ? "/usr/share/zsh/vendor-completions/_%s"
                                                        : "/usr/share/fish/vendor_completions.d/%s.fish";
    if (strcmp(shell, "zsh") == 0)
        fprintf(f, "#compdef %s\n", program);
    fprintf(f, "# %s completion for %s %s, written by `%s completions %s` from its option\n# tables. Installed as ",
            shell, program, version, program, shell);
    fprintf(f, installed, program);
    if (strcmp(shell, "fish") == 0)
        fprintf(f, "; or: %s completions fish | source\n\n", program);
    else
        fprintf(f, "; or: source <(%s completions %s)\n\n", program, shell);
    if (strcmp(shell, "bash") == 0)
        completion_write_bash(f, program, cmds, n);
    else if (strcmp(shell, "zsh") == 0)
        completion_write_zsh(f, program, cmds, n);
    else
        completion_write_fish(f, program, cmds, n);
}
