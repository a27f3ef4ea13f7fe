/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_SWEEP_H
#define MEMBENCH_SWEEP_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def sweep_mode;

#endif
