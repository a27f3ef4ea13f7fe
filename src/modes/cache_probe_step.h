/* SPDX-License-Identifier: MIT */
/* The cache probe as a step of every mode that sizes DRAM buffers: run before the
 * mode plans, when --cache-probe says so (auto: when no source gives the last
 * level's size for one instance), and only on this machine (not on a recorded
 * tree). What it found becomes the topology's measured view. */
#ifndef MEMBENCH_CACHE_PROBE_STEP_H
#define MEMBENCH_CACHE_PROBE_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "modes/session.h"

void session_probe_caches(session *s);
/* The same for any topology of this machine: runs when always, or when the last
 * level is unknown; the findings go into t (topology_set_measured), anything that
 * kept it from running into t's warnings. budget_of: memory/memory_budget.h's. */
void cache_probe_into(topology *t, bool always, bool (*budget_of)(uint64_t *, char *, size_t));

/* The largest size to probe (a ladder to 128 MiB runs first, the whole one only
 * when that finds no DRAM plateau): 1 GiB when the last level is unknown or known only per
 * package, else 4x it (at least 64 MiB, at most 2 GiB); never more than a third of
 * the memory budget (the probe's chains take about 2.5x it). A power of two. */
uint64_t cache_probe_max_bytes(const topology *t, uint64_t budget);

/* A mode sized `what` ("the chased buffer", "each array") to be DRAM's, total bytes
 * over all its threads (all_instances: compared with every last-level instance,
 * else one); given: the size came from the command line. Records the basis in the
 * plan ("size_basis") and, with every_record, in every record the mode emits (a
 * curve's mode marks its DRAM point itself), and says in one warning when the
 * buffers may still fit a cache (what NULL: the mode said it). Returns that. */
bool session_dram_sized(session *s, const char *what, uint64_t total, bool all_instances, bool given,
                        bool every_record);

#endif
