/* SPDX-License-Identifier: MIT */
/* `membench mlc`: Intel MLC's command line and text layout, run on membench's own
 * modes (each MLC test one or more steps of another mode, see session_open_step). */
#ifndef MEMBENCH_MLC_MODE_H
#define MEMBENCH_MLC_MODE_H

#include "modes/mode.h"

extern const mode_def mlc_mode;

#endif
