/* SPDX-License-Identifier: MIT */
/* What the traffic modes (peak-bandwidth, loaded-latency) share: planning where the
 * threads run and how big their buffers are, from the options, through
 * plan/traffic_plan.h, with every refusal a one-line bad-input message. Thread 0 is
 * the chaser when there is one; the traffic threads follow. */
#ifndef MEMBENCH_TRAFFIC_LAYOUT_H
#define MEMBENCH_TRAFFIC_LAYOUT_H

#include "cli/traffic_options.h"
#include "measure/traffic.h"
#include "memory/page_policy.h"
#include "modes/session.h"
#include "plan/dram_size.h"
#include "plan/placement.h"

typedef struct {
    placement where;   /* every thread: the chaser first, if any */
    int *nodes;        /* per thread: the node its buffers go on (its CPU's memory node) */
    int ntraffic;
    bool chaser;
    page_plan pages;
    uint64_t buffer_bytes; /* each traffic buffer */
    uint64_t chase_bytes;
    dram_basis basis;       /* the DRAM rule's basis for the traffic threads' CPUs */
    dram_basis chase_basis; /* and for the chaser's */
    bool capped;            /* the budget held buffer_bytes below the rule */
} traffic_layout;

/* chaser_cpu < 0: no chaser. buffers: how many buffers each traffic thread needs.
 * Returns 0, or the exit status after saying why. */
int traffic_layout_plan(session *s, const traffic_options *o, int chaser_cpu, int buffers, traffic_layout *L);
/* Every CPU of --cpus is usable here: 0, or 2 after naming the one that is not. */
int traffic_check_cpus(session *s, const traffic_options *o);
/* The setup for traffic_prepare (pointers into L). */
traffic_setup traffic_layout_setup(const traffic_layout *L, int read, int read2, int write);
/* The kernels of mix for this delay and buffer size (0: not planned yet); false
 * after saying why (bad input). */
bool traffic_layout_program(session *s, const traffic_options *o, const traffic_mix *m, uint64_t delay,
                            uint64_t buffer_bytes, traffic_program *p);
void traffic_layout_free(traffic_layout *L);

#endif
