#ifndef MEMBENCH_STREAM_MODE_H
#define MEMBENCH_STREAM_MODE_H
/* `membench stream`: STREAM, with explicit stores and placement. */
int stream_main(int argc, char **argv);
#endif
