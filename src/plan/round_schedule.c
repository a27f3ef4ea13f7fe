/* SPDX-License-Identifier: MIT */
#include "plan/round_schedule.h"

bool round_point_within(const round_point *p, double target)
{
    return p->samples >= 2 && p->half_width >= 0 && p->level >= ROUND_TARGET_LEVEL && p->half_width <= target;
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

bool round_budget_allows(bool owed, double elapsed_s, double estimate_s, double budget_s)
{
    return budget_s <= 0 || owed || elapsed_s + estimate_s <= budget_s;
}

bool round_owes_samples(int next, int planned, const round_point *points, const size_t *visit, size_t n)
{
    bool owed = next <= planned;
    for (size_t v = 0; v < n && !owed; v++)
        owed = points[visit[v]].samples < points[visit[v]].needed;
    return owed;
}

uint64_t round_keep_limit(uint64_t budget)
{
    return budget / 8 < ROUND_KEEP_LIMIT ? budget / 8 : ROUND_KEEP_LIMIT;
}

double round_half_width(const sample_stats *s)
{
    if (s->median_level <= 0 || s->median <= 0)
        return -1;
    double up = s->median_high - s->median, down = s->median - s->median_low;
    return (up > down ? up : down) / s->median;
}

void round_point_take_samples(round_point *p, int samples, const sample_stats *stats)
{
    p->samples = stats ? samples : 0;
    p->half_width = stats ? round_half_width(stats) : -1;
    p->level = stats ? stats->median_level : 0;
}

int round_samples_per_visit(int min_samples, int rounds)
{
    if (rounds < 1)
        rounds = 1;
    int k = (min_samples + rounds - 1) / rounds;
    return k > 1 ? k : 1;
}

int round_visit_samples(int per, int have, int cap)
{
    int room = cap > 0 ? cap - have : per;
    if (room >= per)
        return per;
    return room > 1 ? room : 1;
}

round_pace_cost round_pace_cost_of(double cycle_s, double chased_s, double once_s, double sample_s)
{
    return (round_pace_cost){cycle_s - chased_s - once_s, sample_s > 0 ? chased_s / sample_s : 0, false};
}

void round_pace_left(const round_pace_cost *points, size_t n, size_t from, int later_rounds, double *fixed_s,
                     double *units)
{
    *fixed_s = *units = 0;
    for (size_t k = 0; k < n; k++) {
        if (points[k].gone)
            continue;
        double visits = later_rounds + (k >= from ? 1 : 0);
        *fixed_s += visits * (points[k].fixed_s > 0 ? points[k].fixed_s : 0);
        *units += visits * points[k].units;
    }
}

double round_pace_length(double left_s, double fixed_s, double units, double min_s, double max_s)
{
    if (units <= 0)
        return max_s;
    double len = (left_s - fixed_s) / units;
    return len > max_s ? max_s : len < min_s ? min_s : len;
}
