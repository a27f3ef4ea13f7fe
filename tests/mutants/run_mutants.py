#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-mutants: plants one bug at a time in a scratch copy of the tree and
expects the named suite to fail on it. A planted bug that the suite lets through
("survived") means a promise no test holds; the run fails then, and also when a
mutation no longer applies (the code it plants into changed: update the list).

  run_mutants.py [NAME-SUBSTRING]     all mutants, or those whose name contains it
                                      (A|B: either)

Each mutant: (name, file, the exact text replaced, its replacement, suite). Suites:
  unit      the unit tests (build/membench-tests); "unit:NAME" runs first only the
            tests whose name contains NAME, and all of them when those pass (the
            filter saves time, it never lets a mutant survive)
  schema    a small sweep, latency and stream run checked by tests/cli/check_schema.py
  observed  a sweep on --cpus 1,0, a stream and a latency --mem-node 0 run checked by
            tests/cli/check_observed.py (observed CPU and page nodes against the plan)
  faulty    build/membench-faulty with a corrupting copy (sweep) and triad (STREAM)
            kernel: each run must fail and STREAM must never say "Solution Validates"
  poll      tests/cli/poll_json.py: every read of --json during a 2 s run parses
  latrounds tests/cli/check_latency_rounds.py: membench latency's rounds, --rounds 1,
            --target-ci, --max-time and Ctrl-C (about 5 s)
  rounds    tests/cli/check_rounds.py: the sweep's rounds, --target-ci, --max-time, -t
  restart   tests/cli/check_restart.py: a series restart forced at visit 2 (membench-faulty)
  pool      the sweep's pool: a pooled run checked by tests/cli/check_pool.py, and a write
            and a copy kernel that stop writing after one pass (MEMBENCH_LAZY) must fail,
            on pooled and on kept buffers
  files     tests/cli/check_file_safety.sh: planted links and files at the output names
            (its root-only checks need root, as in CI)
  numamem   tests/cli/check_numa_mem.py: numa mem's layouts, faults, stops and suite
            (about 30 s)
  traffic   tests/cli/check_traffic.py: peak-bandwidth, bandwidth-matrix and
            loaded-latency records, CSV and analysis (about 5 s)
  pipe      `membench latency-matrix ... | head -1` of 20 s or more: exit 141 within
            timeout 20, JSON stopped_by SIGPIPE, nothing said as an error
  patterns  tests/cli/check_latency_patterns.py: the TLB-local headline and the full random
            chase beside it, in latency, the sweep and latency-matrix (about 3 s)
  c2c       tests/cli/check_c2c.py: what the writer and the reader did in HITM and HIT, and
            which time is stored as which (membench-faulty's known times) (2 s)
  openmetrics tests/cli/check_openmetrics.py: every series against the JSON (about a minute)
  plan      tests/cli/check_plan.py: --plan on the recorded large machines of
            tests/machines/make_tree.py and on this one (a few seconds)
  warnings  tests/cli/check_warnings.py: the terminal's warnings by kind against the JSON,
            -v, Ctrl-C, and the progress line on a pty (about 10 s)
  compare   tests/cli/check_compare.py: compare's table, JSON, refusals and a gone reader
            of stdout (a few seconds)
  headline  tests/cli/check_headline.py: the headline every text run ends with, against
            the run's JSON; none for numa mem -q (a few seconds)
  fleet     tests/report/check_fleet.py: membench report of about 500 runs, its table,
            CSV and sorting in headless Chromium (about a minute)
  numa      the x86-64 NUMA guest (make check-numa, several minutes): only with
            MUTANTS_NUMA=1, else reported as skipped (a one-node host cannot tell)
  numa-wide the 16-CPU x86-64 guest (NUMA_ARCHES=x86_64-wide, about 4 minutes under
            TCG): the default run, mlc and numa mem on 16 CPUs in 4 nodes; like numa,
            only with MUTANTS_NUMA=1
Prints one line per mutant as it is judged and the kill count; exit 0 only when every
one is killed. MUTANT_JOBS (default: 2, or 1 on one CPU) workers plant in scratch trees
of their own (the mutants of the rounds, latrounds and warnings suites last, by one
worker alone); each suite a chosen mutant uses is first run once unmutated (a suite that
fails then stops the run: it would "kill" everything). A check script under a mutant
stops at its first failing check (MEMBENCH_CHECK_FAILFAST=1): that is the kill."""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

MUTANTS = [
    ("the TLB-local passes take the chunk offsets in order (buddy lines one pass apart)",
     "src/kernels/chase.c", "r |= ((pass >> b) & 1u) << (v->spread_bits - 1 - b);", "r |= ((pass >> b) & 1u) << b;",
     "unit:chase"),
    ("every TLB-local pass visits the groups' chunks in one order",
     "src/kernels/chase.c", "(g + 1) * 0xD6E8FEB86659FD93ULL ^ (pass + 1) * 0x9E3779B97F4A7C15ULL",
     "(g + 1) * 0xD6E8FEB86659FD93ULL ^ (pass & 0) * 0x9E3779B97F4A7C15ULL", "unit:chase"),
    ("a TLB-local chain never closes its cycle", "src/kernels/chase.c",
     "    if (prev) {\n        group_at_place(v, to == places ? 0 : to, &at);",
     "    if (prev && to < places) {\n        group_at_place(v, to, &at);", "unit:chase"),
    ("a chain linked in parts: each part's last node not linked on to the next part's first",
     "src/kernels/chase.c", "    if (prev) {\n        group_at_place(v, to == places ? 0 : to, &at);",
     "    if (prev && to == places) {\n        group_at_place(v, 0, &at);", "unit:chase_built_in_parts"),
    ("the plan's estimate links every chain in parts however small (no CHASE_LINK_MIN_PART)",
     "src/plan/sweep_estimate.c", "max2(1, min2(threads, most))", "max2(1, min2(threads, threads + 0 * most))",
     "unit:estimate_links"),
    ("a chain linked in parts: the nodes past an even share linked by no part",
     "src/kernels/chase.c", "    *to = *from + each + (part < more ? 1 : 0);", "    *to = *from + each;",
     "unit:chase_built_in_parts"),
    ("the full random chase is chased in the headline's TLB-local order", "src/measure/latency.c",
     "r.layout = (chase_layout){CHASE_RANDOM, rq->layout.node_bytes, 0, rq->layout.seed, 0};",
     "r.layout = rq->layout;", "patterns"),
    ("the full random figure is the headline's samples again", "src/measure/latency.c",
     "result_set_random(out, p->random->ns, p->random->rounds, p->random->nsamples)",
     "result_set_random(out, p->ns, p->rounds, p->nsamples)", "patterns"),
    ("latency's full random chase at the smallest size, not the DRAM point", "src/modes/latency_mode.c",
     "rq.with_random = bytes == st->sizes[st->nsizes - 1];", "rq.with_random = bytes == st->sizes[0];", "patterns"),
    ("latency's headline chased fully random by default", "src/cli/latency_options.c",
     "    o->order = CHASE_TLB_LOCAL;\n", "    o->order = CHASE_RANDOM;\n", "patterns"),
    ("the sweep never chases fully random (sc-membench's latency_ns from the TLB-local chase)", "src/modes/sweep.c",
     "        lr.with_random = true;", "        lr.with_random = false;", "patterns"),
    ("latency-matrix chases fully random by default", "src/modes/latency_matrix_mode.c",
     "st->layout.order = o->full_random ? CHASE_RANDOM : CHASE_TLB_LOCAL;", "st->layout.order = CHASE_RANDOM;",
     "patterns"),
    # latency's time budget shortens the default sample (issue 34: the curve in 15 s)
    ("latency's default sample not shortened where the rounds would pass the time budget",
     "src/modes/latency_mode.c", "if (o->sample_ms_given || budget <= 0 || at <= budget || o->rounds == 1) {",
     "if (1) {", "patterns"),
    ("latency's shortened sample named in the plan but not chased", "src/modes/latency_mode.c",
     "    o->sample_ms = lo;\n", "", "patterns"),
    ("latency shortens a --sample-ms given too", "src/modes/latency_mode.c",
     "if (o->sample_ms_given || budget <= 0", "if (budget <= 0", "patterns"),
    ("latency's shortened sample below the 5 ms floor", "src/modes/latency_mode.c",
     "double lo = LATENCY_MIN_SAMPLE_MS, hi", "double lo = 0.5, hi", "patterns"),
    ("latency's curve as dense past the largest cache as in it (the DRAM plateau's chains most of its time)",
     "src/modes/latency_mode.c", "return o->points_per_octave / 2 > 0 ? o->points_per_octave / 2 : 1;",
     "return o->points_per_octave;", "plan"),
    ("the time model leaves out the first touch of a chain outside the pool (latency: 15 s planned for 29-46)",
     "src/plan/sweep_estimate.c",
     "e->touch_s += (double)p->bytes * chases / min2(rate, package);",
     "(void)chases, (void)rate, (void)package;", "plan"),
    ("latency links every chain again at each round", "src/modes/latency_mode.c",
     "pt->keep = o->rounds > 1 && kept + chains + reserve <= limit;", "pt->keep = false && reserve;", "patterns"),
    ("latency, latency-matrix and mlc idle chase with other seeds", "src/modes/latency_matrix_mode.c",
     "    st->layout.seed = o->seed;\n    if (st->layout.order == CHASE_TLB_LOCAL && !o->chase_range) {",
     "    st->layout.seed = o->seed + 1;\n    if (st->layout.order == CHASE_TLB_LOCAL && !o->chase_range) {",
     "patterns"),
    ("c2c's writer only reads its window: HITM measured on clean lines", "src/measure/c2c.c",
     "            line[1] = line[0] + (uintptr_t)k; /* a store beside the link: Modified */",
     "            acc += line[1] + (uintptr_t)k; /* a store beside the link: Modified */", "c2c"),
    ("c2c reports the reader's re-chase of its own lines as the transfer", "src/measure/c2c.c",
     "            c->ns[c->got] = ns;", "            c->ns[c->got] = own + 0 * ns;", "c2c"),
    ("the sweep's DRAM latency chain is the per-thread size (an L3 figure with hundreds of threads)",
     "src/modes/sweep.c", "if (dram && chase < st->dram_chain_min)", "if (0 && dram && chase < st->dram_chain_min)",
     "plan"),
    ("W10's triad runs regular stores while the mix names non-temporal ones", "src/kernels/traffic_mix.c",
     "need(&p->triad, m->triad, KERNEL_STREAM, STREAM_TRIAD, m->stores,",
     "need(&p->triad, m->triad, KERNEL_STREAM, STREAM_TRIAD, STORE_REGULAR,", "traffic"),
    ("OpenMetrics' membench_random_latency_seconds carries the headline's median", "src/output/openmetrics_sink.c",
     "    return r->random_summary.median * 1e-9;", "    return r->summary.median * 1e-9;", "openmetrics"),
    ("latency ignores its time budget", "src/modes/latency_mode.c",
     "round_loop_run_budget(s, &l, st->start, budget);", "round_loop_run_budget(s, &l, st->start, 0 * budget);",
     "patterns"),
    ("the sweep CSV's latency_ns carries the TLB-local headline's median, not the full random chase's",
     "src/core/result.c", "        *stats = &r->random_summary;\n", "        *stats = &r->summary;\n", "unit:csv"),
    ("the sweep CSV's latency_ns falls back to the TLB-local median when the random chase is missing",
     "src/core/result.c", "        return r->nsamples > 0;\n    }\n    return false;",
     "        return r->nsamples > 0;\n    }\n    *stats = &r->summary;\n    *nsamples = r->nsamples;\n    return true;",
     "unit:csv"),
    ("numa mem -q prints the headline (perf's -q prints its lines alone)", "src/modes/session.c",
     "    if (!s->parent && !s->quiet_end)", "    if (!s->parent)", "headline"),
    ("the headline goes to stdout, into the sweep's CSV", "src/modes/session.c",
     "headline_sink_create(s->env.err, s->who)", "headline_sink_create(s->env.out, s->who)", "headline"),
    ("the headline's idle latency is the full random chase's", "src/output/headline_sink.c",
     'snprintf(value, sizeof value, "%.1f ns", g->rec->value);', 'snprintf(value, sizeof value, "%.1f ns", h->random_ns);',
     "headline"),
    ("the headline's bandwidth in MB/s under a GB/s label", "src/output/headline_sink.c",
     'snprintf(value, sizeof value, "%.1f GB/s", g->rec->value / 1000);',
     'snprintf(value, sizeof value, "%.1f GB/s", g->rec->value);', "headline"),
    ("the sweep chases fully random only at the DRAM point (sc-membench's latency_ns missing at the other sizes)",
     "src/modes/sweep.c", "        lr.with_random = true;", "        lr.with_random = p->size->dram;", "rounds"),
    ("the traffic threads skip the injection delay while the records still name it",
     "src/measure/traffic.c", "spins += spin_delay(ph->delay);", "spins += spin_delay(0);", "traffic"),
    ("traffic's bytes_per_sample in MB, not bytes",
     "src/measure/traffic.c", "out->bytes_per_sample = round(mbs * 1e6 * ph->window_s);",
     "out->bytes_per_sample = round(mbs * ph->window_s);", "traffic"),
    ("peak-bandwidth's CSV gives the best window as mb_s and the median as best_window_mb_s",
     "src/output/traffic_sink.c", "num(r, \"traffic_threads\"), headline,\n                num(r, \"dram_mb_s\"), r->summary.max,",
     "num(r, \"traffic_threads\"), r->summary.max,\n                num(r, \"dram_mb_s\"), headline,", "traffic"),
    ("loaded-latency calls a largest delay above idle back at idle",
     "src/measure/loaded_curve.c", "return largest->latency_low <= idle_high && largest->latency_high >= idle_low &&",
     "return largest->latency_low <= idle_high * 10 && largest->latency_high >= idle_low &&", "unit:loaded_curve"),
    ("loaded-latency states any knee, significant or not",
     "src/measure/loaded_curve.c", "points[i].latency_low > k->latency_high &&", "", "unit:loaded_curve"),
    ("the traffic modes' headline is the best window again, not the median",
     "src/core/result.c", "return r->metric == METRIC_LATENCY || r->median_headline ? r->summary.median : r->summary.max;",
     "return r->metric == METRIC_LATENCY ? r->summary.median : r->summary.max;", "unit:result_headline"),
    ("compare does not see another membench version (a record of another method judged as this one's)",
     "src/core/compare.c", "a->mode, a->version};", "a->mode, b->version};", "unit:compare_differences"),
    ("document sink: a burst's records rewrite the document each (the burst ignored)",
     "src/output/document_sink.c", "    if (s->burst > 0)\n        ((document_sink *)s)->pending = true;",
     "    if (0)\n        ((document_sink *)s)->pending = true;", "unit:document_sink"),
    ("document sink: a burst's end leaves its records unwritten",
     "src/output/document_sink.c", "    if (((document_sink *)s)->pending)\n        rewrite(s, info);",
     "    if (0)\n        rewrite(s, info);", "unit:document_sink"),
    ("sink bursts: an inner burst's end ends the outer one",
     "src/output/sink.c", "--s->burst == 0", "(s->burst = 0) == 0", "unit:document_sink"),
    ("c2c handoff: a partner's beat does not move the deadline (a slow but live partner times out)",
     "src/measure/handoff.c", "            beat = now_beat;\n            start = clock_now();",
     "            beat = now_beat;", "unit:c2c_handoff"),
    ("c2c calls two visits split when their samples overlap",
     "src/measure/c2c.c", "bool apart = ahi < blo || bhi < alo;", "bool apart = ahi < blo || bhi < alo || 1;",
     "unit:c2c_visits"),
    ("c2c joins the visits but keeps the first visit's pins",
     "src/measure/c2c.c", "first->pins_verified = first->pins_verified < second->pins_verified",
     "first->pins_verified = first->pins_verified > second->pins_verified", "unit:c2c_add_visit"),
    ("c2c's default pair measures HITM before HIT (MLC: HIT first)",
     "src/modes/c2c_mode.c", "bool hit = o->clean || (both_states && k == 0);",
     "bool hit = o->clean || (both_states && k == 1);", "unit:c2c_plan"),
    ("the scheduler never takes a point's interval level",
     "src/plan/round_schedule.c", "p->level = stats ? stats->median_level : 0;", "p->level = 0;", "unit:rounds_"),
    ("--target-ci met by a narrow interval below 95% (3 round medians: 75%)",
     "src/plan/round_schedule.c", "p->level >= ROUND_TARGET_LEVEL && ", "", "unit:rounds_"),
    ("sweep records go out as points finish, not in plan order",
     "src/modes/sweep.c", "    while (st->next_emit < st->npoints && st->points[st->next_emit].done)\n"
     "        emit_point(s, st, &st->points[st->next_emit++]);",
     "    emit_point(s, st, &st->points[i]);\n    st->next_emit = st->npoints;", "restart"),
    ("a restarted series takes its dropped samples back in the same visit",
     "src/measure/bandwidth.c", "            p->nsamples = 0;\n            got = 0;",
     "            count += p->nsamples;\n            p->nsamples = 0;\n            got = 0;", "restart"),
    ("a restarted series keeps the samples of the old length",
     "src/measure/bandwidth.c", "            p->nsamples = 0;\n            got = 0;", "            got = 0;", "restart"),
    ("the warm-up goes on while the chase is faster at all, not by 5%",
     "src/measure/latency.c", "if (again > ns * WARMUP_SETTLED)", "if (again > ns)", "unit:latency_warm_up"),
    ("the warm-up compares each chase with the first, not the one before",
     "src/measure/latency.c", "        ns = again;\n    }\n    return ran;", "    }\n    return ran;",
     "unit:latency_warm_up"),
    ("the warm-up not capped at 12 chases",
     "src/measure/latency.c", "while (ran < WARMUP_MAX_EXTRA &&", "while (ran < 4 * WARMUP_MAX_EXTRA &&",
     "unit:latency_warm_up"),
    ("a small node's margin below 16 MiB (an eighth of it, however small)",
     "src/memory/memory_budget.c", "return margin < NODE_MARGIN_MIN ? NODE_MARGIN_MIN : margin;", "return margin;",
     "unit:node_margin"),
    ("the budget keeps a fixed 64 MiB free: a 64 MiB cgroup gets no budget at all",
     "src/memory/memory_budget.c", "MEMORY_MARGIN_PERCENT + memory_reserve_bytes(available);",
     "MEMORY_MARGIN_PERCENT + MEMORY_MARGIN_FIXED;", "unit:memory_budget_of"),
    ("the budget keeps only an eighth free (a 256 MiB cgroup: too little left for the process itself)",
     "src/memory/memory_budget.c", "return reserve_share(bytes, MEMORY_RESERVE_SHARE);",
     "return reserve_share(bytes, NODE_MARGIN_SHARE);", "unit:memory_budget_of"),
    ("a sweep with every size left out by the budget runs, measures nothing and exits 0",
     "src/modes/sweep.c", "    } else if (st->plan.n == 0) {", "    } else if (st->plan.n == 0 && 0) {",
     "unit:session_small_budgets"),
    ("a meminfo value over 2^64 bytes wraps (2^55 kB: a budget of 0)",
     "src/platform/memory_available_linux.c", "kb > UINT64_MAX / 1024", "kb > UINT64_MAX", "unit:memory_available_"),
    ("MemAvailable beyond the machine's memory taken as it is",
     "src/platform/memory_available_linux.c", "    if (!ceiling || avail <= ceiling)",
     "    if (1 || !ceiling || avail <= ceiling)", "unit:memory_available_"),
    ("numa mem -a takes -p and the rest and ignores them (perf's 15-minute suite starts)",
     "src/cli/numa_options.c", "        if (options_given_except(&numa_option_table, o, with_all, ignored, sizeof ignored))",
     "        if (0 && options_given_except(&numa_option_table, o, with_all, ignored, sizeof ignored))",
     "unit:numa_mem_all"),
    ("--list-kernels and --version end parsing: the values after them go unchecked",
     "src/cli/options.c", "if (r == PARSE_ERROR || (r == PARSE_EXIT_OK && c->action == ACTION_HELP))",
     "if (r != PARSE_OK)", "unit:listing_flags"),
    ("a bound allocation keeps the machine-wide 64 MiB free on every node, however small",
     "src/memory/buffer.c", "node_margin_bytes_of(node)", "MEMORY_MARGIN_FIXED", "numa"),
    ("a record in rounds gets the host's load since the record before, not over its own visits",
     "src/modes/session.c", "    record_host_load(r, host_load_span_shares(visits));", "    (void)r, (void)visits;",
     "restart"),
    ("a pooled destination not cleared at a visit: a kernel that stopped writing finds its output there",
     "src/measure/bandwidth.c", "bool reused = p->open || p->rq.pool != NULL;", "bool reused = p->open;", "pool"),
    ("a kept destination not cleared at a later visit: a kernel that stopped writing finds its output there",
     "src/measure/bandwidth.c", "bool reused = p->open || p->rq.pool != NULL;", "bool reused = p->rq.pool != NULL;",
     "pool"),
    ("a write-only kernel's pooled destination starts 2 KiB into its page, as copy's",
     "src/measure/bandwidth.c", "uses_src(k) ? 0 : pool->dst_offset, bytes", "0, bytes", "pool"),
    ("a pooled record names the pool's whole buffers, not the part the point used",
     "src/measure/bandwidth.c", "buffer_view(&ps->src, 0, bytes)", "buffer_view(&ps->src, 0, ps->src.len + 0 * bytes)",
     "unit:bw_pool"),
    ("a latency chain lent the pool's memory from 2 KiB into its page",
     "src/measure/bandwidth.c", "buffer_view(&pool->ts[tid].dst, pool->dst_offset, bytes)",
     "buffer_view(&pool->ts[tid].dst, 0, bytes)", "unit:bw_pool"),
    ("a chain's home in a pool destination, which write and copy overwrite between its visits",
     "src/measure/bandwidth.c", "*out = buffer_view(&pool->ts[i].src, 0, bytes);",
     "*out = buffer_view(&pool->ts[i].dst, 0, bytes);", "pool"),
    ("--plan: memory per node all counted on the first node",
     "src/plan/sweep_estimate.c", "        node_bytes[k] += bytes;", "        node_bytes[0] += bytes;", "plan"),
    ("--plan: the CPU lists leave the first thread's CPU out",
     "src/modes/plan_cost.c", "for (int i = 0; ids && i < place->n; i++)", "for (int i = 1; ids && i < place->n; i++)",
     "plan"),
    ("the plan's spread placement puts a node's second CPU where its first belongs (one CPU twice, one missing)",
     "src/plan/placement.c", "out[n++] = per_node[k][round];", "out[n++] = per_node[k][round ? round : 1];", "plan"),
    ("--plan: the estimate counts one round whatever -r says",
     "src/plan/sweep_estimate.c", "for (int r = 1; r <= rq->rounds; r++)", "for (int r = 1; r <= 1; r++)", "plan"),
    ("--plan: the estimate leaves out the warm-ups",
     "src/plan/sweep_estimate.c", "        e->warmup_s += sample;\n", "        e->warmup_s += 0 * sample;\n", "plan"),
    ("--plan: the bound leaves out the rounds latency's CV rule may add",
     "src/plan/sweep_estimate.c", "for (int r = rq->rounds + 1; r <= rq->latency_rounds; r++)",
     "for (int r = rq->rounds + 1; r <= rq->rounds; r++)", "plan"),
    ("--plan --sysfs: the recorded budget is all of MemFree, no margin",
     "src/modes/session.c", "*bytes = memory_budget_from(free_bytes);", "*bytes = free_bytes;", "plan"),
    ("the plan is measured after all (--plan)",
     "src/modes/session.c", "if (rc == 0 && session_common(&s)->plan)", "if (rc == 0 && 0)", "plan"),
    ("the plan gives an L3 share below the L2 share L3/2 and L3 points (L2 measured under L3's name)",
     "src/plan/sweep_plan.c", "    if (round_down_pow2(l3 / 2) > l2)\n", "    if (1)\n", "plan"),
    ("the sweep's DRAM point rounded down (below the DRAM rule, all threads together)",
     "src/plan/sweep_plan.c", "dram = round_up_pow2((rule + (uint64_t)nthreads - 1) / (uint64_t)nthreads);",
     "dram = round_down_pow2((rule + (uint64_t)nthreads - 1) / (uint64_t)nthreads);", "unit:session_sweep_dram_point"),
    ("chains given no home in the pool: linked again at every visit",
     "src/modes/sweep.c", "            home_chains(st);", "            (void)home_chains;", "pool"),
    ("a part of a pool source lent twice: the next chain is linked over the last",
     "src/measure/bandwidth.c", "        pool->lent[i] += bytes;\n", "", "unit:bw_pool"),
    ("chains homed smallest first: the largest finds the source taken and is linked at every visit",
     "src/modes/sweep.c", "(!largest || p->bytes > largest->bytes))", "(!largest || p->bytes < largest->bytes))",
     "unit:session_sweep_homes"),
    ("a chain's home on a thread of another node than the chaser's",
     "src/measure/bandwidth.c", "int at = pool->nodes ? pool->nodes[i] : -1;", "int at = node;", "unit:bw_pool"),
    ("a read point's XOR taken at its first visit only: a chain linked in the source since fails it",
     "src/measure/bandwidth.c", "s->xor_of == s->src.ptr && s->xor_generation == rq->pool->generation",
     "s->xor_of == s->src.ptr", "pool"),
    ("one write pattern for every visit: a write kernel that stopped writing passes on what it left",
     "src/measure/bandwidth.c", "WRITE_PATTERN ^ ((atomic_fetch_add(&visits, 1) + 1) * 0x9e3779b97f4a7c15ULL)",
     "WRITE_PATTERN + 0 * atomic_fetch_add(&visits, 1)", "pool"),
    ("numa mem -M: each node asked only for one task's memory, not all bound to it at once",
     "src/modes/numa_mem_mode.c", "need += (i == 0 ? u->proc_bytes : 0) + u->thread_bytes;",
     "need = (i == 0 ? u->proc_bytes : 0) + u->thread_bytes;", "numa"),
    ("a visit's samples not trimmed to what the cap leaves",
     "src/plan/round_schedule.c", "    if (room >= per)\n", "    if (1)\n", "unit:rounds_visit_samples"),
    ("a range's node judged from a few pages when most had no answer",
     "src/memory/buffer.c", "if (best < 0 || 2 * known < n)", "if (best < 0)", "unit:page_nodes_verdict"),
    ("a STREAM chunk's sampled pages include the one it shares with its neighbour",
     "src/memory/buffer.c", "uintptr_t first = align_up(base, SMALL_PAGE),",
     "uintptr_t first = base & ~(uintptr_t)(SMALL_PAGE - 1),", "unit:buffer_range_samples"),
    ("a later visit's warm-up chase a quarter of a sample even when that is less than one traversal",
     "src/measure/latency.c", "warm = quarter > whole ? quarter : whole;", "warm = quarter + 0 * whole;",
     "unit:latency_later_visits"),
    ("sweep latency takes its CV samples back to back in the last of the -r rounds",
     "src/modes/sweep.c", "    int count = round_visit_samples(",
     "    int count = round == o->tries ? 0 : round_visit_samples(", "rounds"),
    ("sweep bandwidth over the fastest thread's time, not the sample's span",
     "src/measure/bandwidth.c", "return n > 0 ? last - first : 0;", "return n > 0 ? lo : 0;", "unit:slowest_thread"),
    ("STREAM rate from the fastest thread of each iteration",
     "src/measure/stream_run.c", "if (c.times[i][f][k] > slowest)", "if (c.times[i][f][k] < slowest || !i)", "unit:slowest_thread"),
    ("latency reported as the mean, not the median",
     "src/core/result.c", "r->median_headline ? r->summary.median : r->summary.max;\n}",
     "r->median_headline ? r->summary.mean : r->summary.max;\n}",
     "schema"),
    ("median interval one order statistic too narrow",
     "src/util/stats.c", "s->median_low = sorted[j - 1];", "s->median_low = sorted[j];", "unit:stats_median"),
    ("median interval coverage without the factor 2",
     "src/util/stats.c", "s->median_level = 1 - 2 * below;", "s->median_level = 1 - below;", "unit:stats_median"),
    ("median interval over samples as if independent, not over the rounds' batch medians",
     "src/core/result.c", "        batch_interval(r, rounds);", "        (void)rounds;", "unit:result_interval_batches"),
    ("time batches one sample short (the last sample of each batch given to the next)",
     "src/util/stats.c", "            batch_end[b++] = i;", "            batch_end[b++] = i - 1;", "unit:stats_time_batches"),
    ("compare's bootstrap over samples as if independent, not over the runs' rounds",
     "src/core/compare.c", "stats_time_batches(r->nsamples, r->sample_rounds,", "stats_time_batches(r->nsamples, NULL,",
     "unit:compare_judges"),
    ("host noise: the full 10th-90th range instead of half of it",
     "src/measure/noise_probe.c", "/ (2 * v.median_s);", "/ v.median_s;", "unit:noise_verdict"),
    # the memory probe (issue 14's memory contention): judged, combined, written, read round its parts
    ("host noise: the memory probe's variation left out of varied_pct (the CPU probe's alone)",
     "src/measure/noise_probe.c", "if (!memory.known || (cpu.known && cpu.varied_pct >= memory.varied_pct))",
     "if (!memory.known || cpu.known)", "unit:noise_verdict"),
    ("host noise: the smaller of the two probes' variations taken",
     "src/measure/noise_probe.c", "cpu.varied_pct >= memory.varied_pct", "cpu.varied_pct <= memory.varied_pct",
     "unit:noise_verdict"),
    ("host_noise.memory_varied_pct written as the CPU probe's",
     "src/output/json_report.c", "number_or_null(j, \"memory_varied_pct\", n->memory_varied_pct,",
     "number_or_null(j, \"memory_varied_pct\", n->cpu_varied_pct,", "schema"),
    ("the memory probe's verdict counted on a cache larger than half its buffer",
     "src/measure/noise_probe.c", "return llc_bytes > 0 && bytes >= 2 * llc_bytes;", "return llc_bytes > 0 && bytes >= llc_bytes;",
     "unit:noise_memory"),
    ("the memory probe's buffer not bounded by the memory budget",
     "src/measure/noise_probe.c", "return b <= budget / NOISE_MEM_BUDGET_SHARE ? (size_t)b : 0;",
     "return b <= budget + NOISE_MEM_MAX_BYTES ? (size_t)b : 0;",
     "unit:noise_memory"),
    ("the memory probe reads its first part every time (a cached part on a large cache)",
     "src/measure/noise_probe.c", "    p->next = (p->next + 1) % NOISE_MEM_PARTS;\n", "", "unit:noise_memory"),
    ("host probe only at the start and after records: a sweep in rounds judged from 2-3 probes",
     "src/modes/round_loop.c", "            session_between_visits(s);", "", "rounds"),
    ("time budget: the rounds past -r start however late (issue 38)",
     "src/plan/round_schedule.c", "return budget_s <= 0 || owed || elapsed_s + estimate_s <= budget_s;",
     "return budget_s <= 0 || owed || elapsed_s + estimate_s <= budget_s + 1e9;", "unit:rounds_budget"),
    ("time budget: it cuts the -r rounds too (issue 38)",
     "src/plan/round_schedule.c", "    bool owed = next <= planned;", "    bool owed = next < 0 && planned < 0;",
     "unit:rounds_budget"),
    ("time budget: it cuts a restarted point's retakes (fewer samples than -r) (issue 38)",
     "src/plan/round_schedule.c", "owed = points[visit[v]].samples < points[visit[v]].needed;",
     "owed = points[visit[v]].samples < 0;", "unit:rounds_budget"),
    ("time budget: the sweep runs its rounds without it (issue 38)",
     "src/modes/sweep.c", "round_loop_run_budget(s, &l, st->start, sweep_time_budget(o));",
     "round_loop_run(s, &l, st->start);", "rounds"),
    ("time budget: default 150 s, not 15 (issue 38)",
     "src/cli/sweep_options.h", "#define SWEEP_TIME_BUDGET_S 15.0", "#define SWEEP_TIME_BUDGET_S 150.0", "rounds"),
    ("latency CSV's latency_best_ns the highest sample, not the lowest",
     "src/output/latency_sink.c", 'fprintf(f, ",%.3f", r->summary.min);', 'fprintf(f, ",%.3f", r->summary.max);',
     "unit:latency_row"),
    ("latency's full random best the median again",
     "src/output/latency_sink.c", "*best = st->min;", "*best = st->median;", "patterns"),
    ("loaded-latency back at idle whenever the intervals meet (+29% passed so)",
     "src/measure/loaded_curve.c", "(off < 0 ? -off : off) <= LOADED_IDLE_TOLERANCE * idle_ns",
     "(off < 0 ? -off : off) <= 10 * idle_ns", "unit:loaded_curve_back"),
    ("loaded-latency never says a delay read below idle",
     "src/measure/loaded_curve.c", "return p->latency_ns < idle_ns * (1 - LOADED_IDLE_TOLERANCE);",
     "return p->latency_ns < idle_ns * 0;",
     "unit:loaded_curve_says"),
    ("loaded-latency's first delay after idle settles 50 ms like the others",
     "src/measure/traffic.c", "ph->prog && !r->traffic_ran ? SETTLE_AFTER_QUIET_S : SETTLE_S", "SETTLE_S", "traffic"),
    ("--max-size leaves out a size equal to the cap",
     "src/plan/sweep_plan.c", "if (plan->points[i].bytes <= max_bytes)", "if (plan->points[i].bytes < max_bytes)",
     "unit:plan_max_size"),
    ("--max-size: the plan says no size was left out",
     "src/modes/sweep.c", 'params_int(&p->values, "sizes_above_max_size", (long long)st->above_max);',
     'params_int(&p->values, "sizes_above_max_size", 0LL);', "rounds"),
    ("host probe start times from the clock's epoch, not the run's start",
     "src/modes/session.c", "s->probe_at[s->nprobes] = now - s->start;", "s->probe_at[s->nprobes] = now;", "schema"),
    ("host interval widened by twice the host's variation (the meaningful difference)",
     "src/output/json_report.c", "double widen = s->median * noise->varied_pct / 100;",
     "double widen = s->median * noise->meaningful_pct / 100;", "schema"),
    ("compare widens B/A's low end by B's host only, not A's",
     "src/core/compare.c", "ri->low *= (1 - b_pct / 100) / (1 + a_pct / 100);", "ri->low *= (1 - b_pct / 100);",
     "unit:compare_widens"),
    ("latency step count kept until a sample is half off its length, not a quarter",
     "src/measure/latency.c", "(lasted >= 0.75 * sample_s && lasted <= 1.25 * sample_s)",
     "(lasted >= 0.5 * sample_s && lasted <= 1.5 * sample_s)", "unit:latency_step_count"),
    ("latency warm-up: one load per 2 MiB page, not per 4 KiB page",
     "src/measure/latency.c", "    uint64_t walk = pages;", "    uint64_t walk = pages / 512;",
     "unit:latency_warm_up_loads"),
    ("read checked from its last sample's XOR whatever the pass count (an even count's is 0)",
     "src/measure/bandwidth.c", "        if (c->passes % 2 == 1) {", "        if (true) {", "unit:read_verified"),
    ("read's timed pass not checked when the pass count is odd",
     "src/measure/bandwidth.c", "            s->verified = s->last_xor == s->expected_xor;",
     "            s->verified = true;", "unit:read_verified"),
    ("a first pass that lasts a sample already followed by a calibration sample all the same",
     "src/measure/bandwidth.c", "        if (c->passes == 1) {", "        if (false) {", "unit:read_verified"),
    ("the pool's sources not marked rewritten after a chain is linked there: read checked against a stale XOR",
     "src/modes/sweep.c", "        bw_pool_source_rewritten(st->pool); /* the read points' expected XOR is stale */\n", "",
     "pool"),
    ("the step into DRAM: the most ns of any step, steep or not (a TLB climb can win)",
     "src/measure/cache_levels.c", "        if (climb_ratio(s) < steepest / DOMINANT_RELATIVE_SHARE)\n            continue;\n",
     "", "unit:cache_levels"),
    ("steal read from the wrong /proc/stat column",
     "src/measure/host_load.c", "*steal = v[7];", "*steal = v[6];", "unit:host_load"),
    ("a round taken for a shift whenever it lies apart: a host that recovered ends the rounds too",
     "src/measure/latency.c", "    return new_lo > old_hi;", "    return new_lo != old_hi;", "unit:latency_cv_rule"),
    ("a round of one sample taken for a shift (-r 7: the CV rule would end at almost every round)",
     "src/measure/latency.c", "if (k == 0 || n - k < 2)", "if (k == 0)", "unit:latency_cv_rule"),
    ("the CV rule asks for more rounds after a shifted round",
     "src/measure/latency.c", " && !chase_last_round_shifted(ns, rounds, n);", " && rounds != NULL;",
     "unit:latency_cv_rule"),
    ("a jump of exactly 1.5 not taken for two levels",
     "src/util/stats.c", "if (at == 0 || jump < STATS_LEVEL_JUMP)", "if (at == 0 || jump <= STATS_LEVEL_JUMP)",
     "unit:stats_two_levels"),
    ("one sample below a jump taken for a level",
     "src/util/stats.c", "for (size_t i = 2; i + 2 <= n; i++) {", "for (size_t i = 1; i + 2 <= n; i++) {",
     "unit:stats_two_levels"),
    ("one sample above a jump taken for a level",
     "src/util/stats.c", "for (size_t i = 2; i + 2 <= n; i++) {", "for (size_t i = 2; i + 1 <= n; i++) {",
     "unit:stats_two_levels"),
    ("the upper level's median taken over all the samples",
     "src/util/stats.c", "sorted_median(sorted + at, n - at)", "sorted_median(sorted, n)", "unit:stats_two_levels"),
    ("a point in two levels not warned about",
     "src/modes/session.c", "        warn_two_levels(s, kept);", "        (void)warn_two_levels;", "unit:session_warns"),
    ("summary.two_levels always null in --json",
     "src/output/json_report.c", "    if (!s->low_level_n) {\n        json_null(j, \"two_levels\");",
     "    if (1) {\n        json_null(j, \"two_levels\");", "unit:json_summary"),
    ("compare marks a figure in two levels from A's samples for B too",
     "src/core/compare.c", "row->b_two_levels = in_two_levels(row->b_runs, row->b_nruns);",
     "row->b_two_levels = in_two_levels(row->a_runs, row->a_nruns);",
     "unit:compare_marks"),
    ("compare counts only the figures in two levels in both runs",
     "src/core/compare.c", "out->two_levels += row->a_two_levels || row->b_two_levels;",
     "out->two_levels += row->a_two_levels && row->b_two_levels;", "unit:compare_marks"),
    ("an inner cache level may take the step into DRAM",
     "src/measure/cache_levels.c", "if ((dram && s >= dram) || nearest_inner_level",
     "if ((dram && s < dram && !s) || nearest_inner_level", "unit:cache_levels"),
    ("an inner cache level may take a step after the step into DRAM",
     "src/measure/cache_levels.c", "if ((dram && s >= dram) || nearest_inner_level",
     "if ((dram && s == dram) || nearest_inner_level", "unit:cache_levels"),
    ("the dominant step kept from the inner levels on a curve that does not reach the last level",
     "src/measure/cache_levels.c", "curve_around(sizes, nsizes, levels[nlevels - 1].size)", "nsizes > 0",
     "unit:cache_levels"),
    ("a step may be two inner levels' edge (each level takes its nearest step)",
     "src/measure/cache_levels.c", "nearest_inner_level(levels, nlevels, s) != i)",
     "nearest_inner_level(levels, nlevels, s) > nlevels)", "unit:cache_levels"),
    ("the report draws a point in two levels like any other",
     "src/output/svg_chart.c", "bool two = p->low_level_n > 0;", "bool two = p->low_level_n > 1000000;",
     "unit:report_draws"),
    ("the report's tooltip calls a host interval the median interval, and back",
     "src/core/report_model.c", "*name = names[k];", "*name = names[1 - k];", "unit:report_tooltip"),
    # membench report's first screen, axes and escaping (report37)
    ("report: a point's y drawn with the x axis's scale",
     "src/output/svg_chart.c", "px, chart_axis_px(y, p->y / c->y_scale), p->rec->size_bytes",
     "px, chart_axis_px(x, p->y / c->y_scale), p->rec->size_bytes", "unit:report_draws_y"),
    ("report: a topology field (THP) written into the page unescaped",
     "src/output/report_html.c", '    text(f, json_get_text(t, "thp_mode"));',
     '    fputs(json_get_text(t, "thp_mode") ? json_get_text(t, "thp_mode") : "", f);', "unit:report_headline"),
    ("report: bandwidth drawn in MB/s on the GB/s axis",
     "src/core/report_model.c", ".y_scale = 1000}", ".y_scale = 1}", "unit:report_draws_y"),
    ("report: the point drawn is the best sample, not the median",
     "src/core/report_model.c", ".y = median,", ".y = r->value,", "unit:report_sorts"),
    ("report: the headline's DRAM figure taken at a size that fits the last-level cache",
     "src/core/report_headline.c", "if (dram_from > 0 && (double)best->size_bytes <= dram_from) {", "if (0) {",
     "unit:report_headline"),
    ("report: the headline's LLC said to come from sysfs whatever its source",
     "src/core/report_headline.c", 'source ? source : "source not recorded"', 'source ? "sysfs" : "source not recorded"',
     "unit:report_headline"),
    ("report: warnings not grouped by kind (all counted as other)",
     "src/output/report_html.c", "n += warning_kind(&w->items[j]) == k;", "n += k == NKINDS;", "unit:report_headline"),
    ("report: STREAM's chart swaps regular and non-temporal stores",
     "src/core/report_model.c", '"non-temporal") == 0 ? 1 : strcmp(s->stores, "regular") == 0 ? 0 : -1',
     '"non-temporal") == 0 ? 0 : strcmp(s->stores, "regular") == 0 ? 1 : -1', "unit:report_stream"),
    ("report --baseline: each run judged the wrong way round (A/B, not B/A)",
     "src/core/report_model.c", "compare_runs(&m->runs[0], &m->runs[i], -1, true,",
     "compare_runs(&m->runs[i], &m->runs[0], -1, true,", "unit:report_baseline"),
    ("report --baseline: a run's ratio chart point at the median, not B/A",
     "src/core/report_model.c", "p->y = row->ratio.ratio;", "p->y = row->b_median;", "unit:report_baseline"),
    # membench report's fleet table and CSV (issue 38, item 4)
    ("report fleet: the DRAM read figure shown in the write column",
     "src/core/report_fleet.c", "case FLEET_WRITE: return figure(&h->fig[HEAD_WRITE]);",
     "case FLEET_WRITE: return figure(&h->fig[HEAD_READ]);", "unit:report_fleet"),
    ("report fleet: DRAM read per thread divided by the vCPUs, not the read record's threads",
     "src/core/report_fleet.c", "row->per_thread = read->value / (double)read->threads;",
     "row->per_thread = read->value / (double)(row->vcpus > 0 ? row->vcpus : 1);", "unit:report_fleet"),
    ("report fleet: a figure not measured shown in the page as 0",
     "src/output/report_fleet_html.c", "    if (num && !c.missing) {", "    if (num) {", "unit:report_fleet"),
    ("report fleet: a figure not measured written to the CSV as 0",
     "src/output/report_csv.c", "            if (c.missing)\n                continue;",
     "            if (c.missing && fleet_columns[k].unit == FLEET_TEXT)\n                continue;", "unit:report_fleet"),
    ("report fleet: a host name written into the page unescaped",
     "src/output/report_fleet_html.c", "        markup_text(f, c.text);", "        fputs(c.text, f);",
     "unit:report_fleet"),
    ("report fleet: CSV text that starts as a formula left as it is",
     "src/output/report_csv.c", "if (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\\t' || *s == '\\r')",
     "if (0)", "unit:report_fleet"),
    ("report fleet: a quote in CSV text not doubled",
     "src/output/report_csv.c", 'fputs("\\"\\"", f);', "fputc('\"', f);", "unit:report_fleet"),
    ("report fleet: a page of many runs still draws the overlay charts",
     "src/output/report_html.c", "bool overlay = m->nruns <= REPORT_CHART_RUNS;", "bool overlay = true;",
     "unit:report_fleet"),
    ("report fleet: the table sorts numbers as text",
     "src/output/report_fleet_html.c", "return dir*(num?a-z:a.localeCompare(z,undefined,{numeric:true}));",
     "return dir*String(a).localeCompare(String(z));", "fleet"),
    ("report fleet: empty cells sort first when descending",
     "src/output/report_fleet_html.c", "if(a===null||z===null)return(a===null)-(z===null);",
     "if(a===null||z===null)return dir*((a===null)-(z===null));", "fleet"),
    ("report fleet: two runs of one file name not told apart by their paths",
     "src/modes/report_mode.c", "shared[order[i]] = shared[order[i + 1]] = true;", "shared[order[i]] = true;", "fleet"),
    ("report fleet: --csv naming the page itself accepted",
     "src/modes/report_mode.c", "if (o->csv && o->output && file_target_same_file(o->csv, o->output)) {", "if (0) {",
     "fleet"),
    ("report: a cache line says sysfs whatever the run says its size came from",
     "src/core/report_model.c", 'source ? " (" : "", source ? source : "",', 'source ? " (" : "", source ? "sysfs" : "",',
     "unit:report_sorts"),
    ("latency step accepted although the intervals overlap",
     "src/measure/cache_estimate.c", "bool apart = p[i].low > p[base].high;", "bool apart = true;", "unit:latency_steps"),
    ("copy kernel stores one vector twice",
     "src/kernels/kernel_body.h", "KB_STORE(d + i + 2, v2);", "KB_STORE(d + i + 2, v1); (void)v2;", "unit:sweep_kernel_matches"),
    ("an error message quoting a document keeps its newlines",
     "src/util/one_line.c", "*replace = is_control(c) && !(newlines_ok && c == '\\n');",
     "*replace = is_control(c) && !(newlines_ok || c == '\\n');", "unit:one_line"),
    ("terminal text keeps C1 and bidi controls (ASCII controls only, as before issue 35)",
     "src/util/one_line.c", "return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||"
     "\n           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;",
     "return c < 0x20 || c == 0x7F;", "unit:one_line"),
    ("terminal text keeps U+2028 and U+2029 (line and paragraph separators, as before issue 47)",
     "src/util/one_line.c", " || c == 0x2028 || c == 0x2029;", ";", "unit:one_line"),
    ("terminal text passes bytes that are not UTF-8 (a lone 0x9B is CSI)",
     "src/util/one_line.c", "        *replace = true;\n        return 1;", "        *replace = false;\n        return 1;",
     "unit:one_line"),
    ("compare passes the gate when no figure is in both runs (an empty run)",
     "src/core/compare.c", "return r->beyond || !r->matched ? 1 : r->gated", "return r->beyond ? 1 : r->gated",
     "unit:compare_gate"),
    ("compare's gate: an interval holding 1 and reaching beyond the threshold is no difference (cannot tell removed)",
     "src/core/compare.c", "    if (row->verdict == VERDICT_SAME && compare_reaches_beyond(&row->ratio, higher, rep->threshold_pct))\n"
     "        row->verdict = VERDICT_TOO_WIDE;\n", "", "unit:compare_cannot_tell"),
    ("compare's gate: cannot tell on the fast side too (an interval reaching 5% faster)",
     "src/core/compare.c", "return higher_is_better ? ri->low < 1 - threshold_pct / 100 : ri->high > 1 + threshold_pct / 100;",
     "return (void)higher_is_better, ri->low < 1 - threshold_pct / 100 || ri->high > 1 + threshold_pct / 100;",
     "unit:compare_cannot_tell"),
    ("compare's gate: --threshold exits 0 when a figure cannot tell",
     "src/core/compare.c", "r->gated && r->untold ? COMPARE_EXIT_CANNOT_TELL : 0", "0", "unit:compare_gate_cannot"),
    ("compare's gate: each run's host widening not capped (a claim of 99.9% widens by 99.9%)",
     "src/core/compare.c", "    out->host_a_capped = out->host_a_pct > COMPARE_HOST_WIDEN_CAP_PCT;\n"
     "    out->host_b_capped = out->host_b_pct > COMPARE_HOST_WIDEN_CAP_PCT;",
     "    out->host_a_capped = out->host_b_capped = false;", "unit:compare_caps"),
    ("compare's gate: a halving the runs' own batches call slower read as cannot tell once widened",
     "src/core/compare.c", "    if (large_slow)\n        row->verdict = VERDICT_SLOWER;\n", "",
     "unit:compare_halving"),
    ("issue 45: compare draws no runs, a side's runs pooled as one run's batches (the spread between runs unseen)",
     "src/util/bootstrap.c", "size_t r = resample_runs ? draw(state, s->runs) : k;", "size_t r = ((void)resample_runs, k);",
     "compare"),
    ("issue 45: compare with one run a side calls a 15% difference slower (the one-run rule removed)",
     "src/core/compare.c", "    if (rep->one_run_rule && (row->a_nruns == 1 || row->b_nruns == 1) &&",
     "    if (0 && rep->one_run_rule && (row->a_nruns == 1 || row->b_nruns == 1) &&", "compare"),
    ("issue 45: compare's A of several runs is the first run's median, not every A run's samples pooled",
     "src/core/compare.c", "    row->a_median = median_of(row->a_runs, row->a_nruns);\n    row->b_median",
     "    row->a_median = median_of(row->a_runs, 1);\n    row->b_median", "unit:compare_run_sets"),
    ("issue 45: compare's B runs start at the word 'vs' itself",
     "src/cli/compare_options.c", "o->b_paths = o->common.operands + split + (at >= 0);",
     "o->b_paths = o->common.operands + split;", "compare"),
    ("a run document's \\u0000 read as the end of its string",
     "src/core/run_load.c", "if (!without_nul(&run->doc, \"\", err, errlen) || !load_doc(run, err, errlen)) {",
     "if ((0 && !without_nul(&run->doc, \"\", err, errlen)) || !load_doc(run, err, errlen)) {",
     "unit:run_load_refuses_nul"),
    ("compare's kept draws give B's median the lower middle value for an even count",
     "src/util/bootstrap.c", "    return (lower + v[order[j]]) / 2;", "    return lower;", "unit:bootstrap_kept"),
    ("bandwidth verification skipped",
     "src/measure/bandwidth.c", "team_run(t, job_verify, &c);", "(void)job_verify;", "unit:measure_bandwidth_fills"),
    ("the memory budget from MemTotal instead of MemAvailable",
     "src/platform/memory_available_linux.c", 'meminfo_bytes(meminfo, "MemAvailable", &avail)',
     'meminfo_bytes(meminfo, "MemTotal", &avail)', "unit:memory_available"),
    ("team barrier: the last arrival wakes the sleepers but moves no generation on (they sleep again)",
     "src/team/team.c", "release_all(&t->barrier_gen, &t->barrier_sleepers);", "platform_wake_all(&t->barrier_gen);",
     "unit:oversubscribed_barrier"),
    ("team barrier: the last arrival moves the generation on but wakes no sleeper",
     "src/team/team.c", "release_all(&t->barrier_gen, &t->barrier_sleepers);",
     "atomic_fetch_add_explicit(&t->barrier_gen, 1, memory_order_seq_cst);", "unit:oversubscribed_barrier"),
    ("team barrier: released one arrival early",
     "src/team/team.c", "memory_order_acq_rel) == (unsigned)t->n - 1)", "memory_order_acq_rel) == (unsigned)t->n - 2)",
     "unit:oversubscribed_barrier"),
    ("team barrier: the arrivals' count not reset for the next generation",
     "src/team/team.c", "        atomic_store_explicit(&t->barrier_count, 0, memory_order_relaxed);\n", "",
     "unit:oversubscribed_barrier"),
    ("team: a sleeper woken by a signal (EINTR) goes on without re-checking its word",
     "src/team/team.c", "    while (atomic_load_explicit(word, memory_order_seq_cst) == seen)\n        platform_wait_on",
     "    if (atomic_load_explicit(word, memory_order_seq_cst) == seen)\n        platform_wait_on", "unit:signal_wakes"),
    ("team: a job dispatched without waking the sleeping workers",
     "src/team/team.c", "release_all(&t->job_gen, &t->job_sleepers); /* publishes",
     "atomic_fetch_add_explicit(&t->job_gen, 1, memory_order_seq_cst); /* publishes", "unit:oversubscribed_barrier"),
    ("team: the last worker of a job does not wake team_run",
     "src/team/team.c", "        platform_wake_all(&t->pending);\n", "        (void)0;\n", "unit:oversubscribed_barrier"),
    ("team: stopping a team wakes none of its idle workers",
     "src/team/team.c", "release_all(&t->job_gen, &t->job_sleepers); /* wakes the idle",
     "atomic_fetch_add_explicit(&t->job_gen, 1, memory_order_seq_cst); /* wakes the idle", "unit:idle_oversubscribed"),
    ("team: a team_create that failed part way leaves its started threads running",
     "src/team/team.c", "        team_destroy(t);\n        return failed(why, error, started);",
     "        return failed(why, error, started);", "unit:cannot_start_every_thread"),
    ("every thread pinned to thread 0's CPU",
     "src/team/team.c", "platform_pin_self(w->place.ids, w->place.count);",
     "platform_pin_self(t->workers[0].place.ids, t->workers[0].place.count);", "observed"),
    ("the sweep's wrong data not failing the result (the check's verdict ignored)",
     "src/measure/bandwidth.c", "if (!p->ts[i].verified)", "if (0 && !p->ts[i].verified)", "faulty"),
    ("STREAM validation skipped, 'Solution Validates' still printed",
     "src/measure/stream_run.c", "if (!(fabs(err[i] / expect[i]) <= STREAM_EPSILON))",
     "if (0 && !(fabs(err[i] / expect[i]) <= STREAM_EPSILON))", "faulty"),
    ("STREAM's failed validation not failing the run",
     "src/measure/stream_run.c", "if (!validated)", "if (0 && !validated)", "faulty"),
    ("--json written in place instead of renamed over",
     "src/output/file_target.c", "int fd = openat(t->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);",
     "int fd = openat(t->dirfd, t->name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666); (void)tmp;", "poll"),
    ("the temporary file at a predictable name, opened through links (.membench-PID.tmp)",
     "src/output/file_target.c", 'snprintf(tmp, len, ".membench-%016llx.tmp", (unsigned long long)splitmix64_next(&seed));',
     'snprintf(tmp, len, ".membench-%ld.tmp", (long)getpid()); (void)seed;', "files"),
    ("mlc -m's mask read from the wrong end (its leftmost digit as CPUs 0-3)",
     "src/cli/mlc_options.c", "        char c = hex[n - 1 - d];", "        char c = hex[d];", "unit:mlc_mask"),
    ("mlc -m's bits read high to low within a digit",
     "src/cli/mlc_options.c", "4 * d + (size_t)b);", "4 * d + (size_t)(3 - b));", "unit:mlc_mask"),
    ("bandwidth-matrix's CSV names the memory node first, the CPU node second", "src/output/bandwidth_matrix_sink.c",
     '"cpu_node", -1),\n                (int)params_get_number(&r->params, "mem_node", -1), r->threads',
     '"mem_node", -1),\n                (int)params_get_number(&r->params, "cpu_node", -1), r->threads',
     "unit:bandwidth_matrix_sink"),
    ("bandwidth-matrix writes a cell under the other memory node's column", "src/output/bandwidth_matrix_sink.c",
     "    m->row[col] = result_value(r);", "    m->row[m->ncols - 1 - (size_t)col] = result_value(r);",
     "unit:bandwidth_matrix_sink"),
    ("another user's link at the output name followed",
     "src/util/path_walk.c", "return lst->st_uid == geteuid() || lst->st_uid == 0;", "(void)lst;\n    return true;", "files"),
    ("another user's file in a sticky directory replaced",
     "src/output/file_target.c", "} else if ((dst.st_mode & S_ISVTX) && lst.st_uid != geteuid() && lst.st_uid != dst.st_uid) {",
     "} else if (0) {", "files"),
    ("report --svg writes a chart over the run it reads",
     "src/output/report_files.c", "            if (file_target_same_file(path, runs[i])) {", "            if (0) {", "files"),
    # Issue 47 (hostile, round three): MUTANTS="issue 47" runs these.
    ("issue 47: c2c's figure and reader_own_ns swapped (the figure the reader's re-chase of its own lines)",
     "src/measure/c2c.c", "            c->ns[c->got] = ns;\n            c->own_ns[c->got++] = own;",
     "            c->ns[c->got] = own;\n            c->own_ns[c->got++] = ns;", "c2c"),
    ("issue 47: stream's STREAM-rule warning filed under the memory-budget kind",
     "src/modes/stream_mode.c", "session_warn(s, WARN_STREAM_RULE,", "session_warn(s, WARN_MEMORY_BUDGET,", "warnings"),
    ("issue 47: a FIFO output not checked to be still at the name (a FIFO renamed or made anew there)",
     "src/output/file_target.c",
     "if (fstatat(t->dirfd, t->name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !same_inode(&st, &t->st)) {", "if (0) {",
     "files"),
    ("issue 47: another user's FIFO at an output name written into (held open, never read: a hang)",
     "src/output/file_target.c",
     "} else if ((S_ISFIFO(lst.st_mode) || S_ISCHR(lst.st_mode)) && lst.st_uid != geteuid() && lst.st_uid != 0 &&",
     "} else if (0 && (S_ISFIFO(lst.st_mode) || S_ISCHR(lst.st_mode)) && lst.st_uid != geteuid() && lst.st_uid != 0 &&",
     "files"),
    ("issue 47: a FIFO output that takes nothing waited on for ever (no stall limit)",
     "src/output/file_target.c", "        if (left <= 0) {", "        if (0) {", "files"),
    ("issue 47: inputs follow another user's symbolic link",
     "src/util/read_file.c", "        if (!path_walk_trusted_link(&st))", "        if (0)", "files"),
    ("issue 47: a kernel file system's 'regular' file (/proc/kmsg) read as an input",
     "src/util/read_file.c", "(kernel_fs = kernel_fs_name((long)fs.f_type)) != NULL) {",
     "(kernel_fs = kernel_fs_name((long)fs.f_type)) != NULL && 0) {", "unit:read_file"),
    ("issue 47: an input opened again by name after its check (a FIFO swapped in is opened)",
     "src/util/read_file.c", "    int fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);",
     "    int fd = -1;\n    errno = ENOENT;", "files"),
    ("issue 47: report --csv not checked against the --svg charts (the table over a chart)",
     "src/output/report_files.c", "        if (csv && file_target_same_file(path, csv)) {", "        if (0) {", "files"),
    ("issue 47: compare judges on after stdout's reader is gone",
     "src/core/compare.c", "        if (stop_poll()) { /* a bootstrap", "        if (0) { /* a bootstrap", "compare"),
    # The 16-CPU guest: bugs that only show past CPU 7 or with two-digit CPU numbers.
    ("the spread placement wraps at 8 places: threads 8-15 doubled up on CPUs 0-7's places",
     "src/plan/placement.c", "k = (size_t)i % p; /* the order already spreads */",
     "k = (size_t)i % (p < 8 ? p : 8); /* the order already spreads */", "numa-wide"),
    ("CPUs matched to their node's cpulist modulo 8 (a byte-wide mask): CPUs 8-15 get the node of CPUs 0-7",
     "src/topology/topology.c", "if (t->cpus[c].id == nd->cpus.ids[k])",
     "if (t->cpus[c].id % 8 == nd->cpus.ids[k] % 8)", "numa-wide"),
    ("perf's -C/-M lists keep a number's last digit only (CPU 12 read as 2)",
     "src/plan/numa_bind.c", "v = v * 10 + (*s - '0');", "v = *s - '0';", "numa-wide"),
    ("MLC's -m mask reads the hex digits a-f as 1-6",
     "src/cli/mlc_options.c", "(c | 0x20) - 'a' + 10;", "(c | 0x20) - 'a' + 1;", "numa-wide"),
    ("every buffer bound to thread 0's node",
     "src/measure/bandwidth.c", "                                   rq->nodes ? rq->nodes[tid] : -1);",
     "                                   rq->nodes ? rq->nodes[0] : -1);", "numa"),
    ("latency --mem-node not used for the allocation (the CPU's node 0 instead)",
     "src/measure/latency.c", "buffer_alloc_bound(&p->b, rq->bytes, rq->pages, rq->huge_size, rq->node)",
     "buffer_alloc_bound(&p->b, rq->bytes, rq->pages, rq->huge_size, 0)", "numa"),
    ("STREAM's arrays first touched by the main thread",
     "src/measure/stream_run.c", "    team_run(t, job_init, &c);",
     "    memset(c.arrays.a, 0, bytes); memset(c.arrays.b, 0, bytes); memset(c.arrays.c, 0, bytes);\n"
     "    team_run(t, job_init, &c);", "numa"),
    ("sweep rounds done point by point (each round visits only the first point still wanting samples)",
     "src/plan/round_schedule.c", "            visit[k++] = i;", "            { visit[k++] = i; break; }", "unit:rounds_"),
    ("--target-ci check inverted (points within the target measured again, wide ones left)",
     "src/plan/round_schedule.c", "return target > 0 && !round_point_within(p, target);",
     "return target > 0 && round_point_within(p, target);", "unit:rounds_"),
    ("membench latency point by point again (each size's samples in its first visit)",
     "src/modes/latency_mode.c", "    if (o->rounds == 1 && round == 1)\n        return 0;",
     "    if (round >= 1)\n        return 0;", "latrounds"),
    ("the step hook (MPI's barrier) once per point instead of once per visit",
     "src/modes/round_loop.c", "            session_step_begin(s);", "            if (res.rounds == 1) session_step_begin(s);",
     "unit:session_step_hook"),
    ("membench latency's target_ci_met inverted",
     "src/modes/latency_mode.c", 'params_bool(&r->params, "target_ci_met", round_point_within(',
     'params_bool(&r->params, "target_ci_met", !round_point_within(', "latrounds"),
    ("sample end times reversed (ends measured from the wrong side of the origin)",
     "src/core/result.c", "r->sample_times[i] = ends[i] - origin;", "r->sample_times[i] = origin - ends[i];", "schema"),
    ("cpuinfo key matched when another word follows it (s390x 'cpu number : 0' as the model)",
     "src/platform/cpuinfo.c", "if (*p != ':' || (next && p > next))",
     "if ((*p != ':' && p == line + klen) || (next && p > next))", "unit:cpuinfo"),
    ("physical package id -1 (PowerVM) taken as missing topology",
     "src/topology/topology.c", "if (c->package_id < 0 && read_long(root, rel, &said) && said == -1)",
     "if (false && read_long(root, rel, &said) && said == -1)", "unit:topology_power9"),
    ("cache line size read from the wrong sysfs file (POWER's 128 B, s390x's 256 B lost)",
     "src/topology/topology.c", "cache/index%d/coherency_line_size", "cache/index%d/ways_of_associativity",
     "unit:topology_"),
    ("s390x shared L3/L4 from /proc/cpuinfo not added",
     "src/topology/cpuinfo_caches.c", "if (!c[k].data || topology_has_cache_level(t, c[k].level))",
     "if (c[k].data || topology_has_cache_level(t, c[k].level))", "unit:topology_s390x"),
    # Cache sources and the DRAM sizes planned from them ("Right sizes on every machine").
    ("CPUID leaf 4 / 0x8000001D sharing count without its +1",
     "src/topology/cpuid_caches.c", "int sharing = (int)(r[0] >> 14 & 0xfff) + 1;",
     "int sharing = (int)(r[0] >> 14 & 0xfff);", "unit:cpuid_caches"),
    ("AMD's legacy L3 field taken as one instance's size, not the package's",
     "src/topology/cpuid_caches.c", "(int)(r[3] & 0xff), 0,\n            true);", "(int)(r[3] & 0xff), 0,\n            false);",
     "unit:cache_sources"),
    ("AMD's legacy L2 field read with the L3 field's shift",
     "src/topology/cpuid_caches.c", "(uint64_t)(r[2] >> 16) * 1024", "(uint64_t)(r[2] >> 18) * 1024",
     "unit:cpuid_caches"),
    ("CPUID's instances grouped by CPU id, not in core order (Linux numbers SMT siblings n and n+16)",
     "src/topology/cpuid_source.c", "group[i] = (int)(rank / (size_t)sharing);", "group[i] = c->id / sharing;",
     "unit:cache_sources"),
    ("the device tree's cells read little-endian",
     "src/topology/devicetree_caches.c",
     "*v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];",
     "*v = (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | (uint32_t)b[0];", "unit:devicetree"),
    ("a level without cache-level in the device tree not one above its referrer",
     "src/topology/devicetree_caches.c", "int lv = c->declared_level ? c->declared_level : level + 1;",
     "int lv = c->declared_level ? c->declared_level : level;", "unit:devicetree"),
    ("the largest per-instance view counts a package's total",
     "src/topology/cache_views.c", "if (r->level == level && !r->per_package && r->size > best) {",
     "if (r->level == level && r->size > best) {", "unit:cache_sources"),
    ("sources that disagree are not said",
     "src/topology/cache_views.c", "        if (lo && hi != lo)\n", "        if (false)\n", "unit:cache_sources"),
    ("the DRAM rule 1x the last level, not 4x",
     "src/plan/dram_size.c", "return b->bytes ? DRAM_RULE_FACTOR * b->bytes : DRAM_FLOOR_BYTES;",
     "return b->bytes ? b->bytes : DRAM_FLOOR_BYTES;", "unit:cache_sources"),
    ("the cache probe's view taken as a source of the DRAM basis",
     "src/plan/dram_size.c", "return s != CACHE_FROM_MEASURED && s != CACHE_FROM_DEFAULT;",
     "return s != CACHE_FROM_DEFAULT;", "unit:session_dram_sizes"),
    ("the cache probe's view planned with as the last level's size",
     "src/topology/topology.c", "        if (r->level != level || r->source == CACHE_FROM_MEASURED)\n            continue;",
     "        if (r->level != level)\n            continue;\n        if (r->source == CACHE_FROM_MEASURED)\n            return r;",
     "unit:cache_sources"),
    ("a package's total left out of the DRAM basis",
     "src/plan/dram_size.c", "    if (by_package > by_instance) {", "    if (false) {", "unit:cache_sources"),
    ("every last-level instance counted, not those the run's CPUs reach",
     "src/plan/dram_size.c", "b.instances += reaches(&c->shared, cpus, n, &t->usable);",
     "b.instances += reaches(&c->shared, cpus, n, &t->usable) || 1;",
     "unit:cache_sources"),
    ("no source: the floor 8 MiB, not 1 GiB",
     "src/plan/dram_size.h", "#define DRAM_FLOOR_BYTES (1ULL << 30)", "#define DRAM_FLOOR_BYTES (8ULL << 20)",
     "unit:cache_sources"),
    ("may_fit_cache only below half the DRAM rule",
     "src/plan/dram_size.c", "return total < dram_rule_bytes(b);", "return total < dram_rule_bytes(b) / 2;",
     "unit:cache_sources"),
    ("the sweep's DRAM point judged per thread, not all threads together",
     "src/plan/sweep_plan.c", "dram_may_fit_cache(&b, pt->bytes * (uint64_t)nthreads);",
     "dram_may_fit_cache(&b, pt->bytes);", "unit:session_sweep_dram_point"),
    ("the traffic buffers judged per thread, not all threads together",
     "src/modes/traffic_layout.c", "\"the traffic buffers\", L->buffer_bytes * (uint64_t)L->ntraffic,",
     "\"the traffic buffers\", L->buffer_bytes,", "unit:session_dram_sizes"),
    ("stream's rule judged on the three arrays together, not each (STREAM's wording)",
     "src/modes/stream_mode.c", "bool short_of_rule = dram_may_fit_cache(&db, array);",
     "bool short_of_rule = dram_may_fit_cache(&db, 3 * array);", "unit:session_stream"),
    ("latency's DRAM point half the rule",
     "src/modes/latency_mode.c", "o->max_bytes = dram_rule_bytes(&b);", "o->max_bytes = dram_rule_bytes(&b) / 2;",
     "unit:session_dram_sizes"),
    ("latency-matrix buffers 1x the last level",
     "src/plan/node_matrix.c", "uint64_t bytes = dram_rule_bytes(basis);", "uint64_t bytes = dram_rule_bytes(basis) / 4;",
     "unit:session_dram_sizes"),
    ("traffic buffers rounded down to whole MiB (just short of the rule together)",
     "src/plan/traffic_plan.c", "    s += (mib - s % mib) % mib;\n", "    s -= s % mib;\n", "unit:traffic_buffers"),
    ("the sweep's DRAM chain half the rule for the chaser",
     "src/modes/sweep.c", "st->dram_chain_min = dram_rule_bytes(&chaser);", "st->dram_chain_min = dram_rule_bytes(&chaser) / 2;",
     "unit:session_sweep_dram_point"),
    ("the cache probe runs before every measuring mode again",
     "src/modes/session.c", "c->cache_probe == CACHE_PROBE_ALWAYS && s->env.live;",
     "c->cache_probe != CACHE_PROBE_NEVER && s->env.live;", "schema"),
    ("the DRAM check's verdict reversed (better at the smaller footprint called DRAM)",
     "src/core/result.c", ": at_footprint > at_twice * (1 + DRAM_CHECK_TOLERANCE);",
     ": at_footprint < at_twice * (1 + DRAM_CHECK_TOLERANCE);", "unit:dram_check"),
    ("the DRAM check not given to the records",
     "src/modes/session.c", "    if (r->dram_intent && s->dram_check.ran && !r->dram_check.ran)",
     "    if (false)", "unit:dram_check"),
    ("records do not get the mode's size basis",
     "src/modes/session.c", "    if (!r->size_basis && s->size_basis) {", "    if (false) {", "unit:session_records"),
    ("the sweep's L3 points from the level's first source, not the last level's best view",
     "src/plan/sweep_plan.c", "if (level == b.level && b.instance_bytes > cl.size) {", "if (false) {",
     "unit:session_sweep_sizes_pass"),
    ("the probe's edge one point below its plateau's end",
     "src/measure/llc_probe.c", "    r->llc_bytes = p[last].bytes;", "    r->llc_bytes = p[last ? last - 1 : 0].bytes;",
     "unit:llc_probe"),
    ("the probe's served size not in its view of the last level (topology's diagnostic)",
     "src/topology/cache_views.c", "    if (m->served_bytes > llc) /*", "    if (false) /*", "unit:cache_sources"),
    ("the probe's served size read from the bottom of the ladder",
     "src/measure/llc_probe.c", "for (size_t e = d; e-- > 0 && !r->served_bytes;)",
     "for (size_t e = 0; e < d && !r->served_bytes; e++)", "unit:llc_probe_served"),
    ("a probe that saw no DRAM plateau adds no lower bound to its view",
     "src/topology/cache_views.c", "uint64_t llc = m->edge_found ? m->llc_bytes : !m->dram_found ? m->max_bytes : 0;",
     "uint64_t llc = m->edge_found ? m->llc_bytes : 0;", "unit:cache_sources"),
    ("stdout's reader not looked at between samples (only the next write raises SIGPIPE)",
     "src/measure/stop.c", "    return poll_output();\n}", "    return false;\n}", "unit:closed_output_pipe"),
    ("first touch and chain building look only at the flag, not at stdout's reader",
     "src/util/stop_flag.c", "return stop_flagged() || (poll_hook && poll_hook());", "return stop_flagged();",
     "unit:closed_output_pipe"),
    ("the session never watches stdout: a matrix into | head -1 runs to its end, exit 1",
     "src/modes/session.c", "    stop_watch_output(fileno(s->env.out));", "    (void)s;", "pipe"),
    ("stdout lost to a SIGPIPE stop said as an error",
     "src/modes/session.c", "&& stop_signal() == SIGPIPE) {", "&& stop_signal() == -1) {", "pipe"),
    ("numa mem stopped while its tasks start: a record of zeros, perf's lines with 0.000",
     "src/modes/numa_mem_mode.c", "    if (!worked) {\n        numa_mem_result_free(&r);",
     "    if (false) {\n        numa_mem_result_free(&r);", "numamem"),
    ("numa mem -a: the summary counts a test stopped unfinished as one that ran",
     "src/output/numa_sink.c", "done - na - cut, planned", "done - na, planned", "numamem"),
    ("numa mem's thread-speed the sum of the threads' speeds (N times perf's GB/sec/thread)",
     "src/modes/numa_mem_mode.c", "max > 0 ? per_thread / max / 1e9 : 0);", "speeds / 1e9);", "numamem"),
    ("numa mem's spread-runtime (max - min) / max: twice perf's amount under perf's name",
     "src/modes/numa_mem_mode.c", "(max - min) / 2 / max * 100 : 0);", "(max - min) / max * 100 : 0);", "numamem"),
    ("perf's data counts a read-modify-write word twice (read + write)",
     "src/kernels/numa_work.c", "    c->bytes_processed += bytes;",
     "    c->bytes_processed += s.op == OP_RMW ? 2 * bytes : bytes;", "unit:numa_pass_counts_the_bytes_of_each_access"),
    ("a helper that could not be pinned leaves its part (a slice of the chain to touch, links) undone",
     "src/memory/beside.c", "        if (!started[k - 1] || !p[k - 1].pinned)", "        if (!started[k - 1])",
     "unit:beside"),
    ("the first-touch helpers' slices counted from the buffer's start, not the range's",
     "src/memory/buffer.c", "buffer_populate(j->b, j->off + at,", "buffer_populate(j->b, at,",
     "unit:populate_beside"),
    ("a helper's part run on an unpinned thread (its first touch may land on another node)",
     "src/memory/beside.c", "    if (p->pinned) /* unpinned", "    if (1) /* unpinned", "unit:beside_run"),
    ("the TLB-local chase's pass at one line of every chunk (fixed address bits: 0.62x multichase's latency)",
     "src/kernels/chase.c", "(at->offset ^ chunk_offset(v, chunk))", "(at->offset ^ 0 * chunk_offset(v, chunk))", "unit:chase_tlb_local"),
    ("STREAM's non-temporal kernels' page streams all on one page (the other three pages never written)",
     "src/kernels/stream_body.h", "                    size_t at = j + k * page + off;",
     "                    size_t at = j + off;", "unit:stream_kernels_match_reference"),
    ("numa mem's sequential passes in the tight loop under perf's keys (1.4-2.7x perf's figure)",
     "src/kernels/numa_work.c", "        s.perf_loop = !a->tight_loop;", "        s.perf_loop = false;",
     "unit:numa_pass_perfs_loop_reads_its_flags"),
    ("perf's loop with its flags read once a run, not at every word",
     "src/kernels/numa_work.c", "        s.reads = (const unsigned char *)&a->reads;\n        s.writes = (const unsigned char *)&a->writes;",
     "        static unsigned char r, w;\n        r = a->reads;\n        w = a->writes;\n        s.reads = &r;\n        s.writes = &w;",
     "unit:numa_pass_perfs_loop_reads_its_flags"),
    ("--tight-loop's keys printed under perf's names",
     "src/output/numa_sink.c", "    return n->spec.tight ? \"tight-\" : \"\";", "    return n->spec.tight ? \"\" : \"\";", "numamem"),
    ("numa mem -c's per-node process count counts each task on the node, not each process",
     "src/modes/numa_mem_mode.c", "                procs += here > 0;", "                procs += here;", "numamem"),
    ("numa mem's plan still says data is bytes read + bytes written",
     "src/modes/numa_mem_mode.c", "params_text(p, \"data\", \"bytes processed, as perf counts them",
     "params_text(p, \"data\", \"bytes read + bytes written; bytes processed, as perf counts them", "numamem"),
    ("numa mem waits out workers still allocating after a stop (up to 10 s) instead of killing them",
     "src/measure/numa_mem.c", "    st->abandoned = true;\n    kill_all(st);",
     "    st->abandoned = true;\n    if (0)\n        kill_all(st);", "numamem"),
    # warnings grouped by kind on the terminal, and the rounds' progress line
    ("newcomer's terminal: warnings: a kind's count one too many",
     "src/output/warning_summary.c", "size_t count = 0;", "size_t count = 1;", "warnings"),
    ("newcomer's terminal: warnings: a kind said once per warning, not once",
     "src/output/warning_summary.c", "said[kind] = true;", "said[kind] = false;", "warnings"),
    ("newcomer's terminal: warnings: a kind that does not change the reading said too",
     "src/core/warn_kind.c", '{"one_node", false,', '{"one_node", true,', "warnings"),
    ("newcomer's terminal: warnings: JSON's warning_kinds all 'topology'",
     "src/output/json_report.c", "json_string(&j, NULL, warn_kind_get(info->warning_kinds[i])->key);",
     "json_string(&j, NULL, warn_kind_get(WARN_TOPOLOGY)->key);", "warnings"),
    ("newcomer's terminal: warnings: a stopped run says none",
     "src/output/warning_summary.c", "    bool said[WARN_KIND_COUNT] = {false};",
     "    if (!info->complete)\n        return;\n    bool said[WARN_KIND_COUNT] = {false};", "warnings"),
    ("newcomer's terminal: warnings: -v says them at the end only, not each as it comes",
     "src/modes/session.c", "if (!s->measuring || !session_common(s)->verbose)", "if (1)", "warnings"),
    ("newcomer's terminal: progress line: the round number stays 1",
     "src/modes/round_loop.c", "round_progress rp = {res.rounds,", "round_progress rp = {1,", "warnings"),
    ("newcomer's terminal: progress line: an ETA before a round is done",
     "src/modes/round_progress.c", "if (p->round <= 1 || p->done_visits == 0)", "if (p->done_visits == 0)",
     "unit:round_progress"),
    ("newcomer's terminal: progress line: the ETA ignores --max-time",
     "src/modes/round_progress.c", "if (e.s < 0 || bound < e.s)", "if (e.s < 0)", "unit:round_progress"),
    ("newcomer's terminal: progress line: no '(up to M)' when a CV rule may add rounds",
     "src/modes/round_progress.c", "if (p->max_rounds > p->planned)", "if (0)", "warnings"),
    ("newcomer's terminal: progress line: the latency sweep's bound is -r, not the CV rule's cap",
     "src/modes/sweep.c", "return visits > o->tries ? visits : o->tries;",
     "return visits < o->tries ? visits : o->tries;", "warnings"),
    ("latency pace: a visit's first linking and calibration counted as repeated (round 2 starved)",
     "src/plan/round_schedule.c", "cycle_s - chased_s - once_s, sample_s", "cycle_s - chased_s - 0 * once_s, sample_s",
     "unit:rounds_pace_splits"),
    ("latency pace: the current point's visit left out of the visits left",
     "src/plan/round_schedule.c", "later_rounds + (k >= from ? 1 : 0)", "later_rounds + (k > from ? 1 : 0)",
     "unit:rounds_pace_counts"),
    ("latency pace: a point gone still counted",
     "src/plan/round_schedule.c", "        if (points[k].gone)\n            continue;\n", "", "unit:rounds_pace_counts"),
    ("latency pace: the length may pass the plan's",
     "src/plan/round_schedule.c", "return len > max_s ? max_s : len < min_s ? min_s : len;",
     "return len < min_s ? min_s : len;", "unit:rounds_pace_length"),
    ("latency pace: the samples shortened with time to spare (the budget's end reserve taken as the whole budget)",
     "src/modes/latency_mode.c", "double left = latency_time_budget(o) - run_end_s(st) - (now - s->start);",
     "double left = -run_end_s(st) - (now - s->start);", "latrounds"),
    ("latency pace: paced with --sample-ms given",
     "src/modes/latency_mode.c", "latency_time_budget(o) > 0 && !o->sample_ms_given;", "latency_time_budget(o) > 0;",
     "latrounds"),
]

OBSERVED_RUNS = [  # (arguments, --mem-node the check expects or None)
    (["-s", "64", "-o", "read", "-o", "latency", "--cpus", "1,0" if (os.cpu_count() or 1) >= 2 else "0",
      "-r", "1", "--sample-ms", "1", "--latency-sample-ms", "1"], None),
    (["stream", "-n", "100000", "--ntimes", "2"], None),
    (["latency", "--mem-node", "0", "--min", "4K", "--max", "16K", "--sample-ms", "1"], 0),
]

TARGETS = ["membench", "build/membench-tests", "build/membench-faulty"]
# What each suite runs: a mutant rebuilds only those (linking all three took most of
# a unit mutant's time); a mutant that does not build them is no test (stale).
SUITE_TARGETS = {"unit": ["build/membench-tests"], "faulty": ["build/membench-faulty"],
                 "restart": ["build/membench-faulty"], "pool": ["membench", "build/membench-faulty"],
                 "c2c": ["membench", "build/membench-faulty"]}


def suite_targets(suite):
    return SUITE_TARGETS.get(suite.partition(":")[0], ["membench"])

SCHEMA_RUNS = [
    ["-s", "128", "-o", "read", "-o", "latency", "-r", "3", "--sample-ms", "1", "--latency-sample-ms", "1"],
    ["latency", "--min", "4K", "--max", "64K", "--sample-ms", "1"],
    ["stream", "-n", "200000", "--ntimes", "3"],
    ["-s", "16", "-o", "read", "-o", "copy", "-r", "30"],  # 60 visits of 10 ms or more: a host verdict
]


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", **kw)


# Suites that boot a NUMA guest (run_numa_guest.sh's NUMA_ARCHES): only with MUTANTS_NUMA=1.
NUMA_SUITES = {"numa": "x86_64", "numa-wide": "x86_64-wide"}

# Suites that are one check script run as tests/cli/SCRIPT ./membench TREE/SUITE.
CHECK_SCRIPTS = {"rounds": "check_rounds.py", "numamem": "check_numa_mem.py", "traffic": "check_traffic.py",
                 "patterns": "check_latency_patterns.py", "c2c": "check_c2c.py",
                 "openmetrics": "check_openmetrics.py", "plan": "check_plan.py", "warnings": "check_warnings.py",
                 "compare": "check_compare.py", "headline": "check_headline.py"}


def suite_fails(suite, tree):
    """True when the suite fails (the planted bug is caught)."""
    if suite.startswith("unit"):
        # a hang mutant is killed by the tests' watchdog: 15 s here, not the 60 that
        # qemu-user and ASan runs of make check may need
        env = dict(os.environ, MEMBENCH_TEST_WATCHDOG_S="15")
        first = suite.partition(":")[2]
        if first and run(["./build/membench-tests", first], tree, env=env).returncode != 0:
            return True
        return run(["./build/membench-tests"], tree, env=env).returncode != 0
    if suite == "schema":
        docs = []
        for i, args in enumerate(SCHEMA_RUNS):
            doc = os.path.join(tree, "mutant-%d.json" % i)
            run(["./membench"] + args + ["--json", doc], tree)
            docs.append(doc)
        check = run([sys.executable, "tests/cli/check_schema.py", "schema/membench-run.schema.json", "run"] + docs,
                    tree)
        return check.returncode != 0
    if suite == "observed":
        sys.path.insert(0, os.path.join(tree, "tests", "cli"))
        import check_observed
        for i, (args, mem_node) in enumerate(OBSERVED_RUNS):
            doc = os.path.join(tree, "observed-%d.json" % i)
            r = run(["./membench"] + args + ["--json", doc], tree)
            if r.returncode != 0 or check_observed.problems(json.load(open(doc)), mem_node, r.stdout):
                return True
        return False
    if suite == "faulty":
        env = dict(os.environ, MEMBENCH_CORRUPT="copy")
        sweep = run(["./build/membench-faulty", "-s", "64", "-o", "copy", "-r", "1", "--sample-ms", "1"], tree, env=env)
        env["MEMBENCH_CORRUPT"] = "triad"
        stream = run(["./build/membench-faulty", "stream", "-n", "100000", "--ntimes", "2", "--stores", "regular"],
                     tree, env=env)
        return sweep.returncode == 0 or stream.returncode == 0 or "Solution Validates" in stream.stdout
    if suite == "poll":
        return run([sys.executable, "tests/cli/poll_json.py", os.path.join(tree, "poll.json"), "./membench",
                    "-o", "read", "-o", "write", "-r", "2", "--sample-ms", "2", "-t", "2"], tree).returncode != 0
    if suite == "latrounds":
        return run([sys.executable, "tests/cli/check_latency_rounds.py", "./membench", tree], tree).returncode != 0
    if suite == "restart":
        return run([sys.executable, "tests/cli/check_restart.py", "./build/membench-faulty", tree],
                   tree).returncode != 0
    if suite == "pool":
        quick = ["-r", "2", "--sample-ms", "1", "--latency-sample-ms", "1"]
        pooled, small = os.path.join(tree, "pool.json"), os.path.join(tree, "pool-small.json")
        if run(["./membench", "-s", "163840", "-o", "read", "-o", "write", "-o", "copy", "-o", "latency", "--json",
                pooled] + quick,
               tree).returncode != 0:
            return True
        run(["./membench", "-s", "64", "-o", "read", "-o", "copy", "--json", small] + quick, tree)
        if run([sys.executable, "tests/cli/check_pool.py", pooled, small], tree).returncode != 0:
            return True
        for op in ("write", "copy"):
            for kb in ("131072", "64"):  # the pool; kept buffers
                env = dict(os.environ, MEMBENCH_LAZY=op + ":1")
                lazy = run(["./build/membench-faulty", "-p", "1", "-s", kb, "-o", "read", "-o", op] + quick, tree,
                           env=env)
                if lazy.returncode != 1:
                    return True
        return False
    if suite == "files":
        return run(["bash", "tests/cli/check_file_safety.sh", "./membench"], tree,
                   env=dict(os.environ, MEMBENCH_CHECK_FAILFAST="1")).returncode != 0
    if suite in CHECK_SCRIPTS:
        os.makedirs(os.path.join(tree, suite), exist_ok=True)
        return run([sys.executable, "tests/cli/" + CHECK_SCRIPTS[suite], "./membench", os.path.join(tree, suite)],
                   tree, env=dict(os.environ, MEMBENCH_CHECK_FAILFAST="1")).returncode != 0
    if suite == "pipe":
        doc, err = os.path.join(tree, "pipe.json"), os.path.join(tree, "pipe.err")
        piped = run(["bash", "-c", 'timeout 20 ./membench latency-matrix --buffer 64M --sample-ms 3000 --json "$0" '
                     '2>"$1" | head -1 >/dev/null; exit ${PIPESTATUS[0]}', doc, err], tree)
        d = json.load(open(doc)) if os.path.exists(doc) else {}
        return piped.returncode != 141 or d.get("stopped_by") != "SIGPIPE" or "error" in open(err).read()
    if suite == "fleet":
        return run([sys.executable, "tests/report/check_fleet.py", "./membench"], tree).returncode != 0
    if suite in NUMA_SUITES:
        env = dict(os.environ, NUMA_ARCHES=NUMA_SUITES[suite], CI="true")
        return run(["bash", "tests/numa/run_numa_guest.sh"], tree, env=env).returncode != 0
    raise SystemExit("unknown suite " + suite)


def copy_tree(src, tree):
    files = run(["git", "ls-files"], src).stdout.split()
    for f in files:
        os.makedirs(os.path.join(tree, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(os.path.join(src, f), os.path.join(tree, f))
    # a NUMA guest's kernel and busybox, fetched once by make check-numa, are reused
    for arch in ("x86_64",):
        for f in ("vmlinuz", "busybox"):
            have = os.path.join(src, "build-numa", arch, f)
            if os.path.exists(have):
                os.makedirs(os.path.join(tree, "build-numa", arch), exist_ok=True)
                shutil.copy2(have, os.path.join(tree, "build-numa", arch, f))


def plant(tree, mutant):
    """Plants one mutant in tree and runs its suite: 'killed', 'survived' or 'stale: why'."""
    name, path, old, new, suite = mutant
    full = os.path.join(tree, path)
    original = open(full).read()
    if original.count(old) != 1:
        return "stale: %s: the text to replace is not there once" % path
    open(full, "w").write(original.replace(old, new))
    try:
        if run(["make", "-s", "-j2"] + suite_targets(suite), tree).returncode != 0:
            return "stale: does not build"  # a mutant that does not build is no test
        return "killed" if suite_fails(suite, tree) else "survived"
    finally:
        open(full, "w").write(original)
        os.utime(full)  # newer than the mutant's objects: rebuilt next time


def sane(tree, suite):
    """The unmutated tree passes the suite (else every mutant of it would be 'killed')."""
    return run(["make", "-s", "-j2"] + suite_targets(suite), tree).returncode == 0 and not suite_fails(suite, tree)


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    # Workers, each with a scratch tree of its own: a mutant's rebuild (CPU) beside
    # another's suite (mostly waiting on timed runs). MUTANT_JOBS=1 runs one at a time.
    jobs = max(1, int(os.environ.get("MUTANT_JOBS", min(2, os.cpu_count() or 1))))
    base = tempfile.mkdtemp(prefix="membench-mutants-")
    try:
        first = os.path.join(base, "w0")
        copy_tree(src, first)
        build = run(["make", "-s", "-j2"] + TARGETS, first)
        if build.returncode != 0:
            print(build.stdout)
            raise SystemExit("check-mutants: the unmutated tree does not build")
        trees = [first]
        for w in range(1, jobs):  # built copies (mtimes kept: nothing is rebuilt)
            trees.append(os.path.join(base, "w%d" % w))
            shutil.copytree(first, trees[-1], symlinks=True)
        chosen = [m for m in MUTANTS if any(o in m[0] for o in only.split("|"))]
        numa = os.environ.get("MUTANTS_NUMA") == "1"
        planted = [m for m in chosen if m[4] not in NUMA_SUITES or numa]
        # each suite a planted bug uses passes unmutated first (run as one more task,
        # its verdict waited for before any mutant of it counts)
        suites = sorted({m[4].partition(":")[0] for m in planted if m[4] not in NUMA_SUITES})
        # Suites whose checks need rounds done within a wall-clock time run alone, after
        # the rest: beside a rebuild on a loaded machine the unmutated rounds suite failed.
        alone = ("rounds", "latrounds", "warnings")
        phases = []
        for together in (True, False):
            tasks = queue.Queue()
            for suite in suites:
                if (suite not in alone) == together:
                    tasks.put(("sane", suite))
            for m in planted:
                if (m[4].partition(":")[0] not in alone) == together:
                    tasks.put(("plant", m))
            phases.append((tasks, trees if together else trees[:1]))
        results, lock, insane = {}, threading.Lock(), []

        def worker(tree, tasks):
            while not insane:
                try:
                    kind, what = tasks.get_nowait()
                except queue.Empty:
                    return
                try:
                    if kind == "sane":
                        t0 = time.time()
                        if not sane(tree, what):
                            insane.append(what)
                        with lock:
                            print("%s the %s suite unmutated (%.0f s)" % (
                                "FAILS   " if what in insane else "passes  ", what, time.time() - t0), flush=True)
                        continue
                    t0 = time.time()
                    verdict = plant(tree, what)
                except Exception as e:  # the runner's own failure: never a kill
                    if kind == "sane":
                        insane.append(what)
                        continue
                    verdict = "error: %r" % e
                with lock:
                    results[what] = verdict
                    word = {"killed": "killed  ", "survived": "SURVIVED"}.get(verdict, verdict[:5].upper().ljust(8))
                    detail = " [%s]" % what[4] if verdict in ("killed", "survived") else " (%s)" % verdict.partition(": ")[2]
                    # the seconds each took: where the stage's time goes
                    print("%s %s%s (%.0f s)" % (word, what[0], detail, time.time() - t0), flush=True)

        for tasks, workers in phases:
            threads = [threading.Thread(target=worker, args=(t, tasks)) for t in workers]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        if insane:
            raise SystemExit("check-mutants: the %s suite fails without any mutation" % insane[0])
        for name, _, _, _, suite in chosen:
            if suite in NUMA_SUITES and not numa:
                print("skipped  %s [%s: MUTANTS_NUMA=1 boots the %s guest]" % (name, suite, NUMA_SUITES[suite]))
        killed = sum(1 for v in results.values() if v == "killed")
        survived = sum(1 for v in results.values() if v == "survived")
        stale = sum(1 for v in results.values() if v.startswith("stale"))
        errors = sum(1 for v in results.values() if v.startswith("error"))
        skipped = len(chosen) - len(planted)
        print("check-mutants: %d of %d planted bugs killed%s%s%s%s (%d worker%s)" % (
            killed, len(planted), ", %d survived" % survived if survived else "",
            ", %d stale" % stale if stale else "", ", %d runner errors" % errors if errors else "",
            ", %d NUMA-only skipped (MUTANTS_NUMA=1 runs them)" % skipped if skipped else "",
            jobs, "s" if jobs > 1 else ""))
        return 0 if killed == len(planted) else 1
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
