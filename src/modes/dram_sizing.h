/* SPDX-License-Identifier: MIT */
/* A mode's DRAM-intended footprint held to the rule (plan/dram_size.h): recorded in
 * the plan and the records, and said in one warning when it falls short. */
#ifndef MEMBENCH_DRAM_SIZING_H
#define MEMBENCH_DRAM_SIZING_H

#include <stdbool.h>
#include <stdint.h>

#include "modes/session.h"
#include "plan/dram_size.h"

/* A mode sized `what` ("the chased buffer", "each array") to be DRAM's: total bytes
 * over all its threads, against the rule of basis b (the mode's CPUs); given: the
 * size came from the command line; capped: the memory budget cut it below the rule.
 * Records the basis and the rule in the plan ("size_basis", "dram_rule_bytes") and,
 * with every_record, in every record the mode emits (a curve's mode marks its DRAM
 * point itself), and says in one warning when the footprint is below the rule (what
 * NULL: the mode said it). Returns whether it is (may_fit_cache). */
/* Where the rule is the floor (no source describes the last level) and the size is
 * membench's, the run first checks the plateau (session.h: dram_check) with kernels
 * of `kind`. */
bool session_dram_sized(session *s, const dram_basis *b, dram_figure kind, const char *what, uint64_t total, bool given,
                        bool capped, bool every_record);

#endif
