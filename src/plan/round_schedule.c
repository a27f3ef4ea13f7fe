#include "plan/round_schedule.h"

bool round_point_within(const round_point *p, double target)
{
    return p->samples >= 2 && p->half_width >= 0 && p->half_width <= target;
}

bool round_point_wants(const round_point *p, double target)
{
    if (p->finished || (p->cap > 0 && p->samples >= p->cap))
        return false;
    if (p->samples < p->needed || p->more)
        return true;
    return target > 0 && !round_point_within(p, target);
}

size_t round_next(const round_point *points, size_t n, double target, size_t *visit)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (round_point_wants(&points[i], target))
            visit[k++] = i;
    return k;
}
