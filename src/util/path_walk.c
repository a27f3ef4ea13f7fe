/* SPDX-License-Identifier: MIT */
#include "util/path_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINKS 40 /* the kernel's own limit on links in one lookup */

/* Directories and links are opened O_PATH: no read permission needed, and a link
 * opened with O_NOFOLLOW is the link itself, to check and read through one
 * descriptor. */
#ifndef O_PATH
#define O_PATH O_RDONLY /* without it a link on the way fails to open: refused, never followed */
#endif

static bool say(char *why, size_t whylen, const char *text)
{
    snprintf(why, whylen, "%s", text);
    return false;
}

bool path_walk_start(path_walk *w, const char *given, char *why, size_t whylen)
{
    w->links = 0;
    w->dirfd = -1;
    if (!*given || strlen(given) >= sizeof w->todo)
        return say(why, whylen, strerror(*given ? ENAMETOOLONG : ENOENT));
    w->dirfd = open(given[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (w->dirfd < 0)
        return say(why, whylen, strerror(errno));
    strcpy(w->todo, given);
    return true;
}

bool path_walk_trusted_link(const struct stat *lst)
{
    return lst->st_uid == geteuid() || lst->st_uid == 0;
}

bool path_walk_follow(path_walk *w, int lfd, const char *after, int *e)
{
    char text[PATH_MAX];
    ssize_t n = readlinkat(lfd, "", text, sizeof text - 1); /* the link just checked, not a new lookup */
    if (n < 0 || ++w->links > MAX_LINKS) {
        *e = n < 0 ? errno : ELOOP;
        return false;
    }
    text[n] = '\0';
    char next[sizeof w->todo];
    if ((size_t)snprintf(next, sizeof next, "%s%s%s", text, *after ? "/" : "", after) >= sizeof next) {
        *e = ENAMETOOLONG;
        return false;
    }
    if (text[0] == '/') {
        int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (root < 0) {
            *e = errno;
            return false;
        }
        close(w->dirfd);
        w->dirfd = root;
    }
    memcpy(w->todo, next, sizeof next);
    return true;
}

bool path_walk_to_last(path_walk *w, char *name, char *why, size_t whylen)
{
    for (;;) {
        char *p = w->todo;
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        const char *after = p + len;
        while (*after == '/')
            after++;
        if (len == 0 || (!*after && ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))))
            return say(why, whylen, strerror(EISDIR)); /* names a directory */
        if (len > NAME_MAX)
            return say(why, whylen, strerror(ENAMETOOLONG));
        char comp[NAME_MAX + 1];
        memcpy(comp, p, len);
        comp[len] = '\0';
        if (!*after) {
            if (p[len] == '/') /* "x.json/": only a directory could be meant */
                return say(why, whylen, "a directory's name: it ends in '/'");
            memcpy(name, comp, len + 1);
            return true;
        }
        int fd = openat(w->dirfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            return say(why, whylen, strerror(e));
        }
        int e = 0;
        bool ok = true;
        char rest[sizeof w->todo];
        snprintf(rest, sizeof rest, "%s", after);
        if (S_ISLNK(st.st_mode)) {
            if (!path_walk_trusted_link(&st)) {
                snprintf(why, whylen, "a symbolic link on the way of uid %ld, not of this user or root",
                         (long)st.st_uid);
                ok = false;
            } else if (!path_walk_follow(w, fd, rest, &e)) {
                ok = say(why, whylen, strerror(e));
            }
            close(fd);
        } else if (S_ISDIR(st.st_mode)) {
            close(w->dirfd);
            w->dirfd = fd;
            memmove(w->todo, rest, strlen(rest) + 1);
        } else {
            close(fd);
            ok = say(why, whylen, strerror(ENOTDIR));
        }
        if (!ok)
            return false;
    }
}

void path_walk_end(path_walk *w)
{
    if (w->dirfd >= 0)
        close(w->dirfd);
    w->dirfd = -1;
}
