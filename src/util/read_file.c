/* SPDX-License-Identifier: MIT */
#include "util/read_file.h"

#include "util/path_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <unistd.h>

static bool too_big(unsigned long long bytes, size_t limit, char *err, size_t errlen)
{
    if (limit >= (1u << 20))
        snprintf(err, errlen, "too big: %llu MiB (the limit is %zu MiB)", bytes >> 20, limit >> 20);
    else
        snprintf(err, errlen, "too big: %llu bytes (the limit is %zu)", bytes, limit);
    return false;
}

static bool failed(int fd, char *buf, const char *what, int e, char *err, size_t errlen)
{
    free(buf);
    if (fd >= 0)
        close(fd);
    snprintf(err, errlen, "%s: %s", what, strerror(e));
    return false;
}

static int close_keeping_errno(int fd, int e)
{
    close(fd);
    errno = e;
    return -1;
}

/* O_PATH opens nothing (Linux ignores O_NONBLOCK and O_NOCTTY beside it: they are
 * there for a system without it, where a FIFO would then not be waited on). */
#ifndef O_PATH
#define O_PATH 0
#endif

/* Kernel file systems whose "regular" files are no files: reading one can wait for
 * ever or take what it reads (/proc/kmsg consumes the kernel log, a tracefs
 * trace_pipe blocks), so none is read as an input. */
static const char *kernel_fs_name(long type)
{
    static const struct {
        unsigned long magic;
        const char *name;
    } fs[] = {{0x9fa0, "procfs"},      {0x62656572, "sysfs"},     {0x64626720, "debugfs"},
              {0x74726163, "tracefs"}, {0x73636673, "securityfs"}, {0x62656570, "configfs"},
              {0xcafe4a11, "bpf"},     {0x27e0eb, "cgroup"},       {0x63677270, "cgroup2"},
              {0xde5e81e4, "efivarfs"}, {0x6165676c, "pstore"},    {0x65735543, "fusectl"}};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        if ((unsigned long)type == fs[i].magic)
            return fs[i].name;
    return NULL;
}

/* The regular file pfd (an O_PATH descriptor, or one already open) names, opened
 * for reading through the descriptor itself (/proc/self/fd/N reopens that very
 * inode: no lookup by name, so nothing swapped in at the name since the check is
 * ever opened, and a FIFO's blocked writer is never released). Where /proc is not
 * mounted, by name relative to dirfd (nofollow: O_NOFOLLOW for an input, whose
 * links the walk follows itself) and checked to be the same
 * file: a FIFO swapped in within that window is opened (without blocking), then
 * refused. O_NONBLOCK while opening, then cleared. */
static int reopen_regular(int pfd, const struct stat *st, int dirfd, const char *name, int nofollow,
                          unsigned long long *size)
{
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
    int fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
        fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | nofollow | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat now;
    if (fstat(fd, &now) != 0)
        return close_keeping_errno(fd, errno);
    if (!S_ISREG(now.st_mode) || now.st_dev != st->st_dev || now.st_ino != st->st_ino)
        return close_keeping_errno(fd, EINVAL);
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        return close_keeping_errno(fd, errno);
    *size = (unsigned long long)now.st_size;
    return fd;
}

int open_regular(const char *path, unsigned long long *size)
{
    /* The type first, on an O_PATH descriptor (which opens nothing: a device never
     * acts, a FIFO's writer is not released), then that same file is opened. */
    int pfd = open(path, O_PATH | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (pfd < 0)
        return -1;
    struct stat st;
    int fd = -1, e = 0;
    if (fstat(pfd, &st) != 0)
        e = errno;
    else if (!S_ISREG(st.st_mode))
        e = EINVAL;
    else if ((fd = reopen_regular(pfd, &st, AT_FDCWD, path, 0, size)) < 0)
        e = errno;
    close(pfd);
    errno = e;
    return fd;
}

/* The last component of an input's walk: a link (followed when trusted: 0), or the
 * file, opened (1, *fd). -1: refused, why says why. */
static int open_last(path_walk *w, const char *name, int *fd, unsigned long long *size, char *why, size_t whylen)
{
    int pfd = openat(w->dirfd, name, O_PATH | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (pfd < 0 || fstat(pfd, &st) != 0) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        if (pfd >= 0)
            close(pfd);
        return -1;
    }
    int status = -1, e = 0;
    struct statfs fs;
    const char *kernel_fs = NULL;
    if (S_ISLNK(st.st_mode)) {
        if (!path_walk_trusted_link(&st))
            snprintf(why, whylen, "a symbolic link of uid %ld, not of this user or root: not followed",
                     (long)st.st_uid);
        else if (path_walk_follow(w, pfd, "", &e))
            status = 0;
        else
            snprintf(why, whylen, "cannot open: %s", strerror(e));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "not a regular file");
    } else if (fstatfs(pfd, &fs) == 0 && (kernel_fs = kernel_fs_name((long)fs.f_type)) != NULL) {
        snprintf(why, whylen, "not a regular file (a file of %s, a kernel file system: reading it can wait or act)",
                 kernel_fs);
    } else if ((*fd = reopen_regular(pfd, &st, w->dirfd, name, O_NOFOLLOW, size)) < 0) {
        if (errno == EINVAL)
            snprintf(why, whylen, "not a regular file");
        else
            snprintf(why, whylen, "cannot open: %s", strerror(errno));
    } else {
        status = 1;
    }
    close(pfd);
    return status;
}

int open_input(const char *path, unsigned long long *size, char *why, size_t whylen)
{
    path_walk w;
    char name[NAME_MAX + 1], walk_why[200];
    int fd = -1, r = 0;
    if (!path_walk_start(&w, path, walk_why, sizeof walk_why)) {
        snprintf(why, whylen, "cannot open: %s", walk_why);
        r = -1;
    }
    while (r == 0) {
        if (!path_walk_to_last(&w, name, walk_why, sizeof walk_why)) {
            snprintf(why, whylen, "cannot open: %s", walk_why);
            r = -1;
        } else {
            r = open_last(&w, name, &fd, size, why, whylen);
        }
    }
    path_walk_end(&w);
    return r > 0 ? fd : -1;
}

bool read_file_limited(const char *path, size_t limit, char **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    unsigned long long size;
    int fd = open_input(path, &size, err, errlen);
    if (fd < 0)
        return false;
    if (size > limit) { /* refused before reading a byte */
        close(fd);
        return too_big(size, limit, err, errlen);
    }
    /* The size may change while it is read (a file being written): read to the
     * end, never past limit + 1 bytes. */
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf)
            return failed(fd, NULL, "cannot read", ENOMEM, err, errlen);
        if (n == cap) {
            char *more = realloc(buf, 2 * cap + 1);
            if (!more)
                return failed(fd, buf, "cannot read", ENOMEM, err, errlen);
            buf = more;
            cap *= 2;
        }
        size_t want = cap - n;
        if (want > limit + 1 - n) /* one byte past the limit is enough to know */
            want = limit + 1 - n;
        ssize_t got = read(fd, buf + n, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return failed(fd, buf, "cannot read", errno, err, errlen);
        n += (size_t)got;
        if (n > limit) {
            free(buf);
            close(fd);
            return too_big(n, limit, err, errlen);
        }
        if (got == 0)
            break;
    }
    close(fd);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
}
