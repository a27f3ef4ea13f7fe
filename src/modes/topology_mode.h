#ifndef MEMBENCH_TOPOLOGY_MODE_H
#define MEMBENCH_TOPOLOGY_MODE_H
/* `membench topology [--json] [--sysfs DIR]`: prints what the machine is. */
int topology_main(int argc, char **argv);
#endif
