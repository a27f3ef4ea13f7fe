#include "output/file_target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/splitmix64.h"

#define MAX_LINKS 40 /* the kernel's own limit on links in one lookup */

#ifdef O_PATH
#define DIR_OPEN_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC) /* needs no read permission */
#else
#define DIR_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
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

/* The next path in a link chain: the link's text, relative to the link's directory. */
static char *link_target(int dirfd, const char *dir, const char *name)
{
    char text[PATH_MAX];
    ssize_t n = readlinkat(dirfd, name, text, sizeof text - 1);
    if (n < 0)
        return NULL;
    text[n] = '\0';
    if (text[0] == '/' || !strcmp(dir, "."))
        return strdup(text);
    size_t len = strlen(dir) + 1 + (size_t)n + 1;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s", dir, text);
    return p;
}

/* One step of the lookup: the last component of t->path in its directory. Returns
 * 1 when t is resolved, 0 when t->path became a link's target to look up next,
 * -1 on a refusal (in err). */
static int resolve_step(file_target *t, const char *flag, const char *given, char *err, size_t errlen)
{
    char *dir, *name;
    if (!split_path(t->path, &dir, &name)) {
        free(dir);
        free(name);
        struct stat st;
        bool is_dir = stat(t->path, &st) == 0 && S_ISDIR(st.st_mode);
        return refuse(err, errlen, flag, given, is_dir ? strerror(EISDIR) : "not a file name"), -1;
    }
    int dirfd = open(dir, DIR_OPEN_FLAGS);
    struct stat dst, lst, st;
    if (dirfd < 0 || fstat(dirfd, &dst) != 0) {
        int e = errno;
        if (dirfd >= 0)
            close(dirfd);
        free(dir);
        free(name);
        return refuse(err, errlen, flag, given, strerror(e)), -1;
    }
    int status = -1;
    uid_t me = geteuid();
    if (fstatat(dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) { /* a new file */
            t->dirfd = dirfd, t->name = name, name = NULL, dirfd = -1;
            status = 1;
        } else {
            refuse(err, errlen, flag, given, strerror(errno));
        }
    } else if (S_ISLNK(lst.st_mode)) {
        if (lst.st_uid != me && lst.st_uid != 0) {
            refuse_owner(err, errlen, flag, given, "a symbolic link", &lst, "root");
        } else if (fstatat(dirfd, name, &st, 0) != 0) {
            refuse(err, errlen, flag, given,
                   errno == ENOENT ? "a symbolic link to a file that does not exist" : strerror(errno));
        } else if (S_ISREG(st.st_mode) && !same_file_as_fd(&st, 1) && !same_file_as_fd(&st, 2)) {
            /* A trusted link to a file: the file is replaced and the link stays, so the
             * chain is walked with the same rules link by link. */
            char *next = link_target(dirfd, dir, name);
            if (!next) {
                refuse(err, errlen, flag, given, strerror(errno));
            } else {
                free(t->path);
                t->path = next;
                status = 0;
            }
        } else if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            t->direct = t->follow = true; /* /dev/stdout: the kernel follows /proc's links */
            status = 1;
        } else {
            refuse(err, errlen, flag, given, S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file, device or FIFO");
        }
    } else if ((dst.st_mode & S_ISVTX) && lst.st_uid != me && lst.st_uid != dst.st_uid) {
        refuse_owner(err, errlen, flag, given, "in a sticky directory, a file", &lst, "the directory's owner");
    } else if (S_ISDIR(lst.st_mode)) {
        refuse(err, errlen, flag, given, strerror(EISDIR));
    } else if (S_ISREG(lst.st_mode) && !same_file_as_fd(&lst, 1) && !same_file_as_fd(&lst, 2)) {
        if (!(lst.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
            refuse(err, errlen, flag, given, "the file is read-only");
        else if (faccessat(dirfd, name, W_OK, 0) != 0)
            refuse(err, errlen, flag, given, strerror(errno));
        else {
            t->replace = true;
            t->st = lst;
            t->dirfd = dirfd, t->name = name, name = NULL, dirfd = -1;
            status = 1;
        }
    } else if (S_ISREG(lst.st_mode) || S_ISCHR(lst.st_mode) || S_ISFIFO(lst.st_mode)) {
        t->direct = true;
        t->dirfd = dirfd, t->name = name, name = NULL, dirfd = -1;
        status = 1;
    } else {
        refuse(err, errlen, flag, given, "not a regular file, device or FIFO");
    }
    if (dirfd >= 0)
        close(dirfd);
    free(dir);
    free(name);
    return status;
}

bool file_target_open(file_target *t, const char *flag, const char *given, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->dirfd = -1;
    t->path = strdup(given);
    if (!t->path)
        return refuse(err, errlen, flag, given, strerror(ENOMEM));
    for (int hop = 0; hop <= MAX_LINKS; hop++) {
        int r = resolve_step(t, flag, given, err, errlen);
        if (r != 0) {
            if (r < 0)
                file_target_free(t);
            return r > 0;
        }
    }
    file_target_free(t);
    return refuse(err, errlen, flag, given, strerror(ELOOP));
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

/* Opens a FIFO, device or stdout's file for the document. O_NONBLOCK: a FIFO nobody
 * reads fails (after a second's grace for a reader that is just starting) instead of
 * hanging; O_APPEND: the file stdout writes to keeps what is already in it. */
static int open_direct(const file_target *t)
{
    int fd = -1;
    for (int tries = 0; tries < 100; tries++) {
        fd = t->follow ? open(t->path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC)
                       : openat(t->dirfd, t->name, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0 || errno != ENXIO)
            break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
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

bool file_target_write(const file_target *t, void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    if (t->direct) {
        int fd = open_direct(t);
        return fd >= 0 && write_fd(fd, "a", write, ctx);
    }
    char tmp[64];
    int fd = open_temp(t, tmp, sizeof tmp);
    if (fd < 0)
        return false;
    if (t->replace) { /* the file keeps its permissions and, where we may, its owner */
        bool kept = fchmod(fd, t->st.st_mode & 07777) == 0;
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
    t->path = t->name = NULL;
    t->dirfd = -1;
}

bool file_target_write_path(const char *flag, const char *path, void (*write)(FILE *f, const void *ctx),
                            const void *ctx, char *err, size_t errlen)
{
    file_target t;
    if (!file_target_open(&t, flag, path, err, errlen))
        return false;
    bool ok = file_target_write(&t, write, ctx);
    if (!ok)
        snprintf(err, errlen, "%s %s: could not write (%s)", flag, path, strerror(errno));
    file_target_free(&t);
    return ok;
}
