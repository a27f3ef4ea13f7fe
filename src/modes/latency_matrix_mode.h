/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_LATENCY_MATRIX_MODE_H
#define MEMBENCH_LATENCY_MATRIX_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def latency_matrix_mode;

#endif
