/* SPDX-License-Identifier: MIT */
#include "util/stop_flag.h"

#include <stddef.h>

atomic_int stop_flag;

static bool (*poll_hook)(void);

bool stop_poll(void)
{
    return stop_flagged() || (poll_hook && poll_hook());
}

void stop_poll_set_hook(bool (*hook)(void))
{
    poll_hook = hook;
}
