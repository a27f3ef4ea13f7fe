#include "output/file_target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool same_file_as_fd(const struct stat *st, int fd)
{
    struct stat o;
    return fstat(fd, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

static bool refuse(char *err, size_t errlen, const char *flag, const char *path, const char *why)
{
    snprintf(err, errlen, "%s %s: cannot write (%s)", flag, path, why);
    return false;
}

bool file_target_open(file_target *t, const char *flag, const char *given, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct stat st, lst;
    if (stat(given, &st) != 0) {
        if (errno != ENOENT)
            return refuse(err, errlen, flag, given, strerror(errno));
        if (lstat(given, &lst) == 0) /* a link to nothing: renaming would replace the link */
            return refuse(err, errlen, flag, given, "a symbolic link to a file that does not exist");
        t->path = strdup(given);
        return t->path != NULL || refuse(err, errlen, flag, given, strerror(ENOMEM));
    }
    if (S_ISDIR(st.st_mode))
        return refuse(err, errlen, flag, given, strerror(EISDIR));
    if (S_ISREG(st.st_mode) && !same_file_as_fd(&st, 1) && !same_file_as_fd(&st, 2)) {
        if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
            return refuse(err, errlen, flag, given, "the file is read-only");
        if (access(given, W_OK) != 0)
            return refuse(err, errlen, flag, given, strerror(errno));
        t->path = realpath(given, NULL);
        t->replace = true;
        t->st = st;
        return t->path != NULL || refuse(err, errlen, flag, given, strerror(errno));
    }
    if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        t->direct = true;
        t->path = strdup(given);
        return t->path != NULL || refuse(err, errlen, flag, given, strerror(ENOMEM));
    }
    return refuse(err, errlen, flag, given, "not a regular file, device or FIFO");
}

/* Opens the temporary file a replacement is written to before it is renamed over
 * path; *tmp gets its name (free it), NULL on failure with errno set. */
static FILE *open_temp(const char *path, char **tmp)
{
    /* In the target's directory (rename stays within one file system), with a short
     * name of its own: "PATH.tmp.PID" overflowed NAME_MAX for a long valid PATH. */
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    size_t len = strlen(path) + 48;
    *tmp = malloc(len);
    if (!*tmp)
        return NULL;
    snprintf(*tmp, len, "%.*s/.membench-%ld.tmp", dirlen, dir, (long)getpid());
    FILE *f = fopen(*tmp, "w");
    if (!f) {
        int saved = errno;
        free(*tmp);
        *tmp = NULL;
        errno = saved;
    }
    return f;
}

bool file_target_check(const char *flag, const char *given, char *err, size_t errlen)
{
    file_target t;
    if (!file_target_open(&t, flag, given, err, errlen))
        return false;
    bool ok = true;
    if (!t.direct) {
        char *tmp;
        FILE *f = open_temp(t.path, &tmp);
        if (f) {
            fclose(f);
            unlink(tmp);
            free(tmp);
        } else {
            ok = refuse(err, errlen, flag, given, strerror(errno));
        }
    }
    free(t.path);
    return ok;
}

bool file_target_write(const file_target *t, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    if (t->direct) {
        /* O_NONBLOCK: a FIFO nobody reads fails (after a second's grace for a reader
         * that is just starting) instead of hanging; O_APPEND: the file stdout writes
         * to keeps what is already in it. */
        int fd = -1;
        for (int tries = 0; tries < 100; tries++) {
            fd = open(t->path, O_WRONLY | O_APPEND | O_NONBLOCK);
            if (fd >= 0 || errno != ENXIO)
                break;
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        }
        if (fd < 0)
            return false;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        FILE *f = fdopen(fd, "a");
        if (!f) {
            close(fd);
            return false;
        }
        write(f, ctx);
        bool ok = fflush(f) == 0 && !ferror(f);
        return fclose(f) == 0 && ok;
    }
    char *tmp;
    FILE *f = open_temp(t->path, &tmp);
    if (!f)
        return false;
    if (t->replace) { /* the file keeps its permissions and, where we may, its owner */
        bool kept = fchmod(fileno(f), t->st.st_mode & 07777) == 0;
        kept = (geteuid() != 0 || fchown(fileno(f), t->st.st_uid, t->st.st_gid) == 0) && kept;
        (void)kept; /* not fatal: the document still goes where it was asked */
    }
    write(f, ctx);
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, t->path) == 0;
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok;
}

void file_target_free(file_target *t)
{
    free(t->path);
    t->path = NULL;
}
