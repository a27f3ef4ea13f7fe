/* SPDX-License-Identifier: MIT */
#include "output/file_target.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/path_walk.h"
#include "util/splitmix64.h"

/* Links are opened O_PATH (util/path_walk.c walks the directories). */
#ifndef O_PATH
#define O_PATH O_RDONLY /* without it a link on the way fails to open: refused, never followed */
#endif

static bool same_inode(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static bool same_file_as_fd(const struct stat *st, int fd)
{
    struct stat o;
    return fstat(fd, &o) == 0 && same_inode(&o, st);
}

/* 1 or 2 when st is the file stdout or stderr writes to, else -1. */
static int std_fd_of(const struct stat *st)
{
    return same_file_as_fd(st, 1) ? 1 : same_file_as_fd(st, 2) ? 2 : -1;
}

static bool refuse(char *err, size_t errlen, const char *flag, const char *path, const char *why)
{
    snprintf(err, errlen, "%s %s: cannot write (%s)", flag, path, why);
    return false;
}

static bool refuse_owner(char *err, size_t errlen, const char *flag, const char *path, const char *what,
                         const struct stat *st, const char *trusted)
{
    char why[200];
    snprintf(why, sizeof why, "%s of uid %ld, not of this user or %s", what, (long)st->st_uid, trusted);
    return refuse(err, errlen, flag, path, why);
}

/* Splits path into its directory and last component (both allocated). False for a
 * path that names no file: empty, or ending in '/', "." or "..". */
static bool split_path(const char *path, char **dir, char **name)
{
    const char *slash = strrchr(path, '/');
    const char *last = slash ? slash + 1 : path;
    *dir = *name = NULL;
    if (!*last || !strcmp(last, ".") || !strcmp(last, ".."))
        return false;
    *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    *name = strdup(last);
    return *dir && *name;
}

bool file_target_same_file(const char *path, const char *other)
{
    struct stat a, b;
    bool has_a = stat(path, &a) == 0, has_b = stat(other, &b) == 0;
    if (has_a || has_b)
        return has_a && has_b && same_inode(&a, &b);
    /* Neither exists yet: the same name in the same directory. */
    char *da = NULL, *na = NULL, *db = NULL, *nb = NULL;
    bool same = split_path(path, &da, &na) && split_path(other, &db, &nb) && !strcmp(na, nb) &&
                stat(da, &a) == 0 && stat(db, &b) == 0 && same_inode(&a, &b);
    free(da), free(na), free(db), free(nb);
    return same;
}

/* The last component, name, in w->dirfd. Returns 1 when t is resolved, 0 when the
 * walk goes on through a trusted link, -1 on a refusal (in err). */
static int resolve_last(path_walk *w, const char *name, file_target *t, const char *flag, const char *given, char *err,
                        size_t errlen)
{
    struct stat dst, lst, st;
    int fd = openat(w->dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            return refuse(err, errlen, flag, given, strerror(errno)), -1;
        t->name = strdup(name); /* a new file */
        return t->name ? 1 : (refuse(err, errlen, flag, given, strerror(ENOMEM)), -1);
    }
    int status = -1;
    if (fstat(fd, &lst) != 0 || fstat(w->dirfd, &dst) != 0) {
        refuse(err, errlen, flag, given, strerror(errno));
    } else if (S_ISLNK(lst.st_mode)) {
        int e = 0;
        if (!path_walk_trusted_link(&lst))
            refuse_owner(err, errlen, flag, given, "a symbolic link", &lst, "root");
        else if (fstatat(w->dirfd, name, &st, 0) != 0) /* a link to nothing: it would be replaced, not followed */
            refuse(err, errlen, flag, given,
                   errno == ENOENT ? "a symbolic link to a file that does not exist" : strerror(errno));
        else if ((t->std_fd = std_fd_of(&st)) >= 0)
            t->direct = true, status = 1; /* /dev/stdout */
        else if (path_walk_follow(w, fd, "", &e))
            status = 0;
        else
            refuse(err, errlen, flag, given, strerror(e));
    } else if ((dst.st_mode & S_ISVTX) && lst.st_uid != geteuid() && lst.st_uid != dst.st_uid) {
        refuse_owner(err, errlen, flag, given, "in a sticky directory, a file", &lst, "the directory's owner");
    } else if (S_ISDIR(lst.st_mode)) {
        refuse(err, errlen, flag, given, strerror(EISDIR));
    } else if ((S_ISFIFO(lst.st_mode) || S_ISCHR(lst.st_mode)) && lst.st_uid != geteuid() && lst.st_uid != 0 &&
               !((dst.st_mode & S_ISVTX) && lst.st_uid == dst.st_uid)) {
        /* Written into, never replaced: another user's FIFO in a directory they may
         * write to could be held open and never read, and the run would wait on it. */
        refuse_owner(err, errlen, flag, given, S_ISFIFO(lst.st_mode) ? "a FIFO" : "a device", &lst, "root");
    } else if (S_ISREG(lst.st_mode) && (t->std_fd = std_fd_of(&lst)) >= 0) {
        t->direct = true, status = 1;
    } else if (S_ISREG(lst.st_mode) && !(lst.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
        refuse(err, errlen, flag, given, "the file is read-only");
    } else if (S_ISREG(lst.st_mode) && faccessat(w->dirfd, name, W_OK, 0) != 0) {
        refuse(err, errlen, flag, given, strerror(errno));
    } else if (S_ISREG(lst.st_mode) || S_ISCHR(lst.st_mode) || S_ISFIFO(lst.st_mode)) {
        t->replace = S_ISREG(lst.st_mode);
        t->direct = !t->replace;
        t->st = lst; /* a FIFO or device is checked again when it is opened */
        t->name = strdup(name);
        status = t->name ? 1 : (refuse(err, errlen, flag, given, strerror(ENOMEM)), -1);
        if (status == 1 && t->direct) { /* held: its inode cannot be freed and reused until the write */
            t->held = fd;
            fd = -1;
        }
    } else {
        refuse(err, errlen, flag, given, "not a regular file, device or FIFO");
    }
    if (fd >= 0)
        close(fd);
    return status;
}

bool file_target_open(file_target *t, const char *flag, const char *given, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->dirfd = t->std_fd = t->held = -1;
    path_walk w;
    char why[200];
    if (!path_walk_start(&w, given, why, sizeof why)) {
        path_walk_end(&w);
        return refuse(err, errlen, flag, given, why);
    }
    t->path = strdup(given);
    int r = t->path ? 0 : (refuse(err, errlen, flag, given, strerror(ENOMEM)), -1);
    char name[NAME_MAX + 1];
    while (r == 0) {
        if (path_walk_to_last(&w, name, why, sizeof why))
            r = resolve_last(&w, name, t, flag, given, err, errlen);
        else
            r = -1, refuse(err, errlen, flag, given, why);
    }
    t->dirfd = w.dirfd;
    if (r < 0)
        file_target_free(t);
    return r > 0;
}

/* Creates the temporary file a replacement is written to before it is renamed over
 * the target: a random name in the target's directory (rename stays within one file
 * system), created exclusively and never through a link, so nothing planted at a
 * name can receive the document. The name goes into tmp. -1 with errno set. */
static int open_temp(const file_target *t, char *tmp, size_t len)
{
    static uint64_t calls;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 17) ^
                    (uint64_t)(uintptr_t)&ts ^ ++calls;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(tmp, len, ".membench-%016llx.tmp", (unsigned long long)splitmix64_next(&seed));
        /* 0666 less the umask: a new document gets the mode a plain write would give it. */
        int fd = openat(t->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

bool file_target_check(const char *flag, const char *given, char *err, size_t errlen)
{
    file_target t;
    if (!file_target_open(&t, flag, given, err, errlen))
        return false;
    bool ok = true;
    if (!t.direct) {
        char tmp[64];
        int fd = open_temp(&t, tmp, sizeof tmp);
        if (fd >= 0) {
            close(fd);
            unlinkat(t.dirfd, tmp, 0);
        } else {
            ok = refuse(err, errlen, flag, given, strerror(errno));
        }
    }
    file_target_free(&t);
    return ok;
}

/* Opens the FIFO or device for the document. It must still be the file checked at
 * the start: the name must still name it (the check held it open since, O_PATH,
 * so its inode cannot have been freed and given to a new file: an rm and mkfifo at
 * the name is a different inode, as a rename over it is), else ESTALE. That very
 * file is then opened through the held descriptor (/proc/self/fd/N), so a swap
 * after this look opens nothing planted; without /proc, by name (O_NOFOLLOW), and
 * what was opened must be it. O_NONBLOCK: a FIFO nobody reads fails (after a
 * second's grace for a reader that is just starting) instead of hanging, and it
 * stays non-blocking for the write (write_direct). stdout's or stderr's own file
 * is written through that descriptor, after what the stream holds, so neither
 * writes over the other. */
static int open_direct(const file_target *t)
{
    if (t->std_fd >= 0) {
        fflush(t->std_fd == 1 ? stdout : stderr);
        return fcntl(t->std_fd, F_DUPFD_CLOEXEC, 3);
    }
    struct stat st;
    if (fstatat(t->dirfd, t->name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !same_inode(&st, &t->st)) {
        errno = ESTALE;
        return -1;
    }
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", t->held);
    const int flags = O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    int fd = -1;
    for (int tries = 0; tries < 100; tries++) {
        fd = t->held >= 0 ? open(self, flags) : -1;
        if (fd < 0 && (t->held < 0 || errno == ENOENT || errno == ENOTDIR)) /* no /proc */
            fd = openat(t->dirfd, t->name, flags | O_NOFOLLOW);
        if (fd >= 0 || errno != ENXIO)
            break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    if (fd >= 0 && (fstat(fd, &st) != 0 || !same_inode(&st, &t->st))) {
        close(fd);
        errno = ESTALE;
        return -1;
    }
    return fd;
}

static double monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* n bytes to the non-blocking fd, waiting (poll) while it takes nothing: a reader
 * that takes nothing for FILE_TARGET_STALL_S ends the write with ETIMEDOUT, so a
 * FIFO held open and never read cannot hold the run for ever. */
static bool write_direct(int fd, const char *p, size_t n)
{
    double last = monotonic_s();
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w > 0) {
            p += w, n -= (size_t)w;
            last = monotonic_s();
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return false;
        double left = FILE_TARGET_STALL_S - (monotonic_s() - last);
        if (left <= 0) {
            errno = ETIMEDOUT;
            return false;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
            return false;
    }
    return true;
}

/* The document rendered in memory, then written to a FIFO or device. */
static bool write_to_direct(int fd, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    char *doc = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&doc, &len);
    if (!m) {
        int e = errno;
        close(fd);
        errno = e;
        return false;
    }
    write(m, ctx);
    bool ok = fflush(m) == 0 && !ferror(m);
    ok = fclose(m) == 0 && ok;
    int e = ok ? 0 : ENOMEM;
    if (ok) {
        ok = write_direct(fd, doc, len);
        e = ok ? 0 : errno;
    }
    free(doc);
    ok = close(fd) == 0 && ok;
    if (!ok && e)
        errno = e;
    return ok;
}

static bool write_fd(int fd, const char *mode, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    FILE *f = fdopen(fd, mode);
    if (!f) {
        close(fd);
        return false;
    }
    write(f, ctx);
    bool ok = fflush(f) == 0 && !ferror(f);
    return fclose(f) == 0 && ok;
}

const char *file_target_error(int e)
{
    if (e == ETIMEDOUT)
        return "its reader took nothing for " FILE_TARGET_STALL_TEXT;
    if (e == ESTALE)
        return "it is no longer the file checked at the start";
    return strerror(e);
}

bool file_target_write(const file_target *t, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    if (t->direct) {
        int fd = open_direct(t);
        if (fd >= 0 && t->std_fd >= 0) /* stdout's own descriptor: as it is (blocking or not) */
            return write_fd(fd, "a", write, ctx);
        return fd >= 0 && write_to_direct(fd, write, ctx);
    }
    char tmp[64];
    int fd = open_temp(t, tmp, sizeof tmp);
    if (fd < 0)
        return false;
    if (t->replace) { /* the file keeps its permissions and, where we may, its owner */
        bool kept = fchmod(fd, t->st.st_mode & 0777) == 0; /* never set-id bits on a new file */
        kept = (geteuid() != 0 || fchown(fd, t->st.st_uid, t->st.st_gid) == 0) && kept;
        (void)kept; /* not fatal: the document still goes where it was asked */
    }
    /* renameat replaces whatever is at the name by then, a link included: the
     * document never goes through anything planted there after the check. */
    bool ok = write_fd(fd, "w", write, ctx) && renameat(t->dirfd, tmp, t->dirfd, t->name) == 0;
    if (!ok) {
        int e = errno;
        unlinkat(t->dirfd, tmp, 0);
        errno = e;
    }
    return ok;
}

void file_target_free(file_target *t)
{
    free(t->path);
    free(t->name);
    if (t->dirfd >= 0)
        close(t->dirfd);
    if (t->held >= 0)
        close(t->held);
    t->path = t->name = NULL;
    t->dirfd = t->std_fd = t->held = -1;
}

bool file_target_write_path(const char *flag, const char *path, void (*write)(FILE *f, const void *ctx),
                            const void *ctx, char *err, size_t errlen)
{
    file_target t;
    if (!file_target_open(&t, flag, path, err, errlen))
        return false;
    bool ok = file_target_write(&t, write, ctx);
    if (!ok)
        snprintf(err, errlen, "%s %s: could not write (%s)", flag, path, file_target_error(errno));
    file_target_free(&t);
    return ok;
}
