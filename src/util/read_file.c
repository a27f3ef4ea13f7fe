/* SPDX-License-Identifier: MIT */
#include "util/read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int open_regular(const char *path, unsigned long long *size)
{
    /* The type first, by name: opening a device can act by itself (a watchdog arms,
     * a tape rewinds, a FIFO's blocked writer is released), so only a regular file is
     * opened at all, and it must still be that file once open. */
    struct stat before, st;
    if (stat(path, &before) != 0)
        return -1;
    if (!S_ISREG(before.st_mode)) {
        errno = EINVAL;
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0)
        return close_keeping_errno(fd, errno);
    if (!S_ISREG(st.st_mode) || st.st_dev != before.st_dev || st.st_ino != before.st_ino)
        return close_keeping_errno(fd, EINVAL);
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        return close_keeping_errno(fd, errno);
    *size = (unsigned long long)st.st_size;
    return fd;
}

bool read_file_limited(const char *path, size_t limit, char **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    unsigned long long size;
    int fd = open_regular(path, &size);
    if (fd < 0) {
        if (errno == EINVAL)
            snprintf(err, errlen, "not a regular file");
        else
            snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return false;
    }
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
