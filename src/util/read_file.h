/* SPDX-License-Identifier: MIT */
/* A whole input file into memory: only a regular file, with a size limit checked
 * before reading (a FIFO, a device such as /dev/zero, a /proc file or a huge file
 * is refused at once, never opened, waited on or swallowed). */
#ifndef MEMBENCH_READ_FILE_H
#define MEMBENCH_READ_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Opens path for reading only if it is a regular file: its type is checked on an
 * O_PATH descriptor, which opens nothing (a device never acts, a FIFO's blocked
 * writer is not released), and that very file is then opened through the
 * descriptor (/proc/self/fd/N: no second lookup by name that a swap could win),
 * with O_NONBLOCK, O_NOCTTY and O_CLOEXEC, checked again with fstat and made
 * blocking again. For the machine's own files (/proc, /sys, a --root tree): links
 * are followed as the kernel does. Returns the descriptor and the file's size, or
 * -1 with errno set; EINVAL: not a regular file (a FIFO, a device such as
 * /dev/zero, a directory, a socket). */
int open_regular(const char *path, unsigned long long *size);
/* The same for a file the user named as an input (compare's and report's runs,
 * mlc -g, topology --cpuid), which another user may have planted or linked: the
 * path is walked as outputs are (util/path_walk.h: a symbolic link is followed
 * only when it is the user's or root's), and a "regular" file of a kernel file
 * system (/proc/kmsg, /sys, tracefs...: reading can wait for ever or consume what
 * it reads) is refused too. -1 with a few words in why ("not a regular file",
 * "cannot open: ...", "a symbolic link of uid N, ...") without the path. */
int open_input(const char *path, unsigned long long *size, char *why, size_t whylen);

/* Reads path (opened by open_input) into *data (NUL-terminated, free() it) and *len. False: err says
 * why in a few words ("cannot open: No such file or directory", "not a regular
 * file", "too big: ...") without the path, which the caller names. */
bool read_file_limited(const char *path, size_t limit, char **data, size_t *len, char *err, size_t errlen);

#endif
