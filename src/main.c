/* membench: find the mode in the mode table (no subcommand: the sc-membench
 * compatible sweep) and run it in a session on this machine. */
#include "modes/session.h"

int main(int argc, char **argv)
{
    const mode_def *m = argc > 1 ? mode_find(argv[1]) : NULL;
    session_env env = session_env_live();
    return session_run(m ? m : mode_table(NULL)[0], argc, argv, &env);
}
