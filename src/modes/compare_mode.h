/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_COMPARE_MODE_H
#define MEMBENCH_COMPARE_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def compare_mode;

#endif
