/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_STREAM_MODE_H
#define MEMBENCH_STREAM_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def stream_mode;

#endif
