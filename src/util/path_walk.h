/* SPDX-License-Identifier: MIT */
/* Walking a path the user gave one component at a time, so that a root run never
 * goes where another user's symbolic link points: each directory is opened O_PATH
 * with O_NOFOLLOW, and a link, on the way or at the name, is followed only when it
 * belongs to the user running membench or to root (stricter than the kernel's
 * protected_symlinks, in every directory). Each link is checked and read through
 * one descriptor, so it cannot be swapped between the two. Outputs
 * (output/file_target.c) and inputs (util/read_file.c) are both walked so. */
#ifndef MEMBENCH_PATH_WALK_H
#define MEMBENCH_PATH_WALK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The walk's state: the directory reached (an O_PATH descriptor), the components
 * still to walk, and the links followed so far. */
typedef struct {
    int dirfd;
    char todo[2 * PATH_MAX];
    int links;
} path_walk;

/* Starts at / or the working directory. False with the reason in why. */
bool path_walk_start(path_walk *w, const char *given, char *why, size_t whylen);
/* Walks the directories of w->todo, never through a link that is not trusted,
 * until one component is left: it goes into name (NAME_MAX+1 bytes). False with the
 * reason in why ("a symbolic link on the way of uid 65534, not of this user or
 * root", "Not a directory"). */
bool path_walk_to_last(path_walk *w, char *name, char *why, size_t whylen);
/* A link may be followed: it is the user's or root's. */
bool path_walk_trusted_link(const struct stat *lst);
/* Replaces the link's component (lfd: the link, opened O_PATH|O_NOFOLLOW) by the
 * link's text followed by after: the walk goes on from the link's directory, or
 * from / for an absolute text. False with errno-style *e. */
bool path_walk_follow(path_walk *w, int lfd, const char *after, int *e);
/* Closes the directory. */
void path_walk_end(path_walk *w);

#endif
