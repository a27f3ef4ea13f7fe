#include "util/same_file.h"

#include <sys/stat.h>

const char *same_file_as_any(const char *out, const char *const *paths, size_t n)
{
    struct stat o, in;
    if (stat(out, &o) != 0)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (stat(paths[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino)
            return paths[i];
    return NULL;
}
