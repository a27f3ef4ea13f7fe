/* A whole file into memory, with a size limit checked before reading (a huge or
 * endless input is refused, not swallowed). */
#ifndef MEMBENCH_READ_FILE_H
#define MEMBENCH_READ_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Reads path into *data (NUL-terminated, free() it) and *len. False: err says
 * why in a few words ("cannot open: No such file or directory", "too big: ...")
 * without the path, which the caller names. */
bool read_file_limited(const char *path, size_t limit, char **data, size_t *len, char *err, size_t errlen);

#endif
