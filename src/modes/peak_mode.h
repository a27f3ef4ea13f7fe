/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_PEAK_MODE_H
#define MEMBENCH_PEAK_MODE_H
#include "modes/mode.h"
extern const mode_def peak_mode;
#endif
