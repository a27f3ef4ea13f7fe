#include "util/read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static bool too_big(unsigned long long bytes, size_t limit, char *err, size_t errlen)
{
    snprintf(err, errlen, "too big: %llu MiB (the limit is %zu MiB)", bytes >> 20, limit >> 20);
    return false;
}

bool read_file_limited(const char *path, size_t limit, char **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return false;
    }
    /* A regular file says its size: refuse before reading a byte. Pipes do not,
     * and are cut off at the limit below; a directory fails to read. */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > limit) {
        fclose(f);
        return too_big((unsigned long long)st.st_size, limit, err, errlen);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            char *more = realloc(buf, 2 * cap + 1);
            if (!more)
                free(buf);
            buf = more;
            cap *= 2;
            if (!buf)
                break;
        }
        size_t want = cap - n;
        if (want > limit + 1 - n) /* one byte past the limit is enough to know */
            want = limit + 1 - n;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (n > limit) {
            free(buf);
            fclose(f);
            return too_big(n, limit, err, errlen);
        }
        if (got == 0)
            break;
    }
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        snprintf(err, errlen, "cannot read: %s", e ? strerror(e) : "read error");
        return false;
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
}
