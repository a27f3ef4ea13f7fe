/* The default mode: sc-membench's sweep of sizes x operations. */
#ifndef MEMBENCH_SWEEP_H
#define MEMBENCH_SWEEP_H

/* Returns the process exit status. */
int sweep_main(int argc, char **argv);

#endif
