/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_COMPLETIONS_MODE_H
#define MEMBENCH_COMPLETIONS_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def completions_mode;

#endif
