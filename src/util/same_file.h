/* Whether two paths name one file (the same device and inode, through links): an
 * output path that is one of the inputs would overwrite it. */
#ifndef MEMBENCH_SAME_FILE_H
#define MEMBENCH_SAME_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* The first of paths[0..n) that is the file out names, or NULL (also when out
 * does not exist yet). */
const char *same_file_as_any(const char *out, const char *const *paths, size_t n);

#endif
