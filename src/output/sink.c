/* SPDX-License-Identifier: MIT */
#include "output/sink.h"

void sink_begin(sink *s, const run_info *info)
{
    if (s && s->ops->begin)
        s->ops->begin(s, info);
}

void sink_record(sink *s, const run_info *info, const result_record *r)
{
    if (s && s->ops->record)
        s->ops->record(s, info, r);
}

void sink_end(sink *s, const run_info *info)
{
    if (s && s->ops->end)
        s->ops->end(s, info);
}

void sink_burst(sink *s, bool on, const run_info *info)
{
    if (!s)
        return;
    if (on)
        s->burst++;
    else if (s->burst > 0 && --s->burst == 0 && s->ops->burst_end)
        s->ops->burst_end(s, info);
}

void sink_destroy(sink *s)
{
    if (s && s->ops->destroy)
        s->ops->destroy(s);
}
