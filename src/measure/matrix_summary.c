/* SPDX-License-Identifier: MIT */
#include "measure/matrix_summary.h"

static void extremes(const matrix_point *p, size_t count, matrix_point *lo, matrix_point *hi)
{
    if (count == 1 || p->ns < lo->ns)
        *lo = *p;
    if (count == 1 || p->ns > hi->ns)
        *hi = *p;
}

matrix_summary matrix_summarise(const matrix_point *p, size_t n)
{
    matrix_summary s = {0};
    for (size_t i = 0; i < n; i++) {
        s.n++;
        extremes(&p[i], s.n, &s.fastest, &s.slowest);
        if (p[i].mem_node == p[i].cpu_node) {
            s.nlocal++;
            extremes(&p[i], s.nlocal, &s.local_min, &s.local_max);
        } else {
            s.nremote++;
            extremes(&p[i], s.nremote, &s.remote_min, &s.remote_max);
        }
    }
    return s;
}
