/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_TOPOLOGY_MODE_H
#define MEMBENCH_TOPOLOGY_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def topology_mode;

#endif
