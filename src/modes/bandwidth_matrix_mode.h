/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_BANDWIDTH_MATRIX_MODE_H
#define MEMBENCH_BANDWIDTH_MATRIX_MODE_H
#include "modes/mode.h"
extern const mode_def bandwidth_matrix_mode;
#endif
