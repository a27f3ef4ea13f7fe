/* membench: dispatch to a mode. No subcommand = the sc-membench compatible sweep. */
#include <stdio.h>
#include <string.h>

#include "modes/latency_mode.h"
#include "modes/stream_mode.h"
#include "modes/sweep.h"
#include "modes/topology_mode.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "topology") == 0)
        return topology_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "latency") == 0)
        return latency_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "stream") == 0)
        return stream_main(argc - 1, argv + 1);
    return sweep_main(argc, argv);
}
