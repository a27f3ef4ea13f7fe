/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_LOADED_LATENCY_MODE_H
#define MEMBENCH_LOADED_LATENCY_MODE_H
#include "modes/mode.h"
extern const mode_def loaded_latency_mode;
#endif
