/* SPDX-License-Identifier: MIT */
/* A whole input file into memory: only a regular file, with a size limit checked
 * before reading (a FIFO, a device such as /dev/zero, or a huge file is refused
 * at once, never waited on or swallowed). */
#ifndef MEMBENCH_READ_FILE_H
#define MEMBENCH_READ_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Opens path for reading only if it is a regular file: its type is checked by
 * name before it is opened (a device is never opened: that alone can act), then
 * it is opened with O_NONBLOCK (a FIFO swapped in would not be waited on), O_NOCTTY
 * and O_CLOEXEC, checked again with fstat (the same file, still regular) before a
 * byte is read, and made blocking again. Returns the
 * descriptor and the file's size, or -1 with errno set; EINVAL: not a regular
 * file (a FIFO, a device such as /dev/zero, a directory, a socket). */
int open_regular(const char *path, unsigned long long *size);

/* Reads path into *data (NUL-terminated, free() it) and *len. False: err says
 * why in a few words ("cannot open: No such file or directory", "not a regular
 * file", "too big: ...") without the path, which the caller names. */
bool read_file_limited(const char *path, size_t limit, char **data, size_t *len, char *err, size_t errlen);

#endif
