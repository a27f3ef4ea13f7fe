/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_C2C_MODE_H
#define MEMBENCH_C2C_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def c2c_mode;

#endif
