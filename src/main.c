/* SPDX-License-Identifier: MIT */
/* membench: find the mode in the mode table (no subcommand: the sc-membench
 * compatible sweep) and run it in a session on this machine. */
#include "modes/session.h"

int main(int argc, char **argv)
{
    int words;
    const mode_def *m = mode_find_argv(argc, argv, &words);
    session_env env = session_env_live();
    return session_run(m ? m : mode_table(NULL)[0], argc, argv, &env);
}
