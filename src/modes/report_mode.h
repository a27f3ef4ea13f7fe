/* SPDX-License-Identifier: MIT */
#ifndef MEMBENCH_REPORT_MODE_H
#define MEMBENCH_REPORT_MODE_H

#include "modes/mode.h"
#include "modes/session.h"

extern const mode_def report_mode;

#endif
