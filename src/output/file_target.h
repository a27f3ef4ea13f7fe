/* SPDX-License-Identifier: MIT */
/* Where a whole-run document (--json, --openmetrics, report -o, --svg) goes, so
 * that a reader never sees half of one and a root run never writes a file that
 * another user chose.
 *
 * A regular file is replaced atomically: the document is written to a new
 * temporary file in the same directory (a random name, created exclusively, never
 * through a link), then renamed over the name, keeping the old file's permissions
 * and owner. Anything else the user names (/dev/null, a FIFO, a terminal, the file
 * stdout already writes to) is never renamed over: the document is written into it
 * once, at the end.
 *
 * The rules that keep a run's writes where its user meant them:
 * - the path is walked one component at a time (O_PATH|O_NOFOLLOW): a symbolic
 *   link, on the way or at the name, is followed only when it belongs to the user
 *   running membench or to root (stricter than the kernel's protected_symlinks, in
 *   every directory: a root run never writes where another user's link points);
 *   each link is checked and read through one descriptor, so it cannot be swapped
 *   between the two;
 * - the last directory stays open, and every later step is relative to it, so a
 *   directory swapped mid-run cannot move the write;
 * - in a sticky directory (/tmp), an existing file, FIFO or device owned by neither
 *   the user nor the directory's owner is refused, as the kernel's protected_regular
 *   and protected_fifos do for O_CREAT opens;
 * - a FIFO or device of another user (not root; in a sticky directory, not its
 *   owner) is refused: it is written into, and its owner could hold it open
 *   without reading;
 * - a FIFO or device is held open (O_PATH) from the check, must still be at the
 *   name at the end and is opened through the held descriptor, without blocking;
 *   a reader that takes nothing for FILE_TARGET_STALL_S ends the write; stdout's
 *   own file (/dev/stdout) is written through fd 1. */
#ifndef MEMBENCH_FILE_TARGET_H
#define MEMBENCH_FILE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

typedef struct {
    char *path;   /* the path given, for messages */
    int dirfd;    /* the directory the walk ended in, opened once (O_PATH) */
    char *name;   /* the last component, relative to dirfd */
    int std_fd;   /* 1 or 2: the file stdout or stderr writes to, written through it */
    bool direct;  /* write into the file at the end, no temporary file */
    bool replace; /* an existing regular file: keep its mode and owner */
    struct stat st; /* what was checked: a FIFO or device must still be it at the end */
    int held;     /* that FIFO or device, held open (O_PATH) from the check to the write */
} file_target;

/* A FIFO or device that takes nothing of the document for this long ends its
 * write (a reader that holds a FIFO open and never reads would hold the run for
 * ever): "could not write (its reader took nothing for 10 s)". */
#define FILE_TARGET_STALL_S 10.0
#define FILE_TARGET_STALL_TEXT "10 s"

/* Resolves the path the user gave to flag ("--json"). False with the one-line
 * error "FLAG PATH: cannot write (why)" in err: a directory, a read-only file, a
 * link to nothing, a link or file another user planted, a socket. Free t with
 * file_target_free. */
bool file_target_open(file_target *t, const char *flag, const char *given, char *err, size_t errlen);
/* file_target_open, and for a replaced file a temporary file created and removed
 * in its directory: true when the document can go there. Checked before anything
 * else is said, so a bad path is the run's only message. */
bool file_target_check(const char *flag, const char *given, char *err, size_t errlen);
/* The document write() puts on f, to the target. False (errno set) when any of it
 * was lost; the old file is then left as it was. errno ESTALE: the FIFO or device
 * is no longer the file checked; ETIMEDOUT: its reader took nothing for
 * FILE_TARGET_STALL_S (file_target_error says either in words). */
bool file_target_write(const file_target *t, void (*write)(FILE *f, const void *ctx), const void *ctx);
void file_target_free(file_target *t);
/* errno of a failed file_target_write in a few words: strerror, but ESTALE and
 * ETIMEDOUT as what they mean here. */
const char *file_target_error(int e);
/* open, write, free in one: false with "FLAG PATH: cannot write (why)" or "FLAG
 * PATH: could not write (why)" in err. */
bool file_target_write_path(const char *flag, const char *path, void (*write)(FILE *f, const void *ctx),
                            const void *ctx, char *err, size_t errlen);

/* True when path and other name one existing file (the same device and inode). */
bool file_target_same_file(const char *path, const char *other);

#endif
