#ifndef MEMBENCH_LATENCY_MODE_H
#define MEMBENCH_LATENCY_MODE_H
/* `membench latency`: a latency curve and the cache sizes it implies. */
int latency_main(int argc, char **argv);
#endif
