/* Where a whole-run document (--json, --openmetrics) goes, so that a reader never
 * sees half of one. A regular file (or a link to one) is replaced atomically: the
 * document is written to a temporary file next to it, then renamed over it,
 * keeping the file's permissions and owner. Anything else the user names
 * (/dev/null, a FIFO, a terminal, the file stdout already writes to) is never
 * renamed over: the document is written into it once, at the end. */
#ifndef MEMBENCH_FILE_TARGET_H
#define MEMBENCH_FILE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

typedef struct {
    char *path;   /* the link's target for a link to a regular file */
    bool direct;  /* write into the path at the end, no temporary file */
    bool replace; /* an existing regular file: keep its mode and owner */
    struct stat st;
} file_target;

/* Resolves the path the user gave to flag ("--json"). False with the one-line
 * error "FLAG PATH: cannot write (why)" in err: a directory, a read-only file, a
 * link to nothing, a socket. Free t with file_target_free. */
bool file_target_open(file_target *t, const char *flag, const char *given, char *err, size_t errlen);
/* file_target_open, and for a replaced file a temporary file created and removed
 * in its directory: true when the document can go there. Checked before anything
 * else is said, so a bad path is the run's only message. */
bool file_target_check(const char *flag, const char *given, char *err, size_t errlen);
/* The document write() puts on f, to the target. False (errno set) when any of it
 * was lost; the old file is then left as it was. */
bool file_target_write(const file_target *t, void (*write)(FILE *f, const void *ctx), const void *ctx);
void file_target_free(file_target *t);

#endif
