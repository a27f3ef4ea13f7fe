#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Does the memory probe lift host_interval's coverage? calibration.sh's method (a
# default run's intervals against the median of -r 2 reference slices pooled over
# the batch), with two builds judged in the same rounds, alternating:
#
#   bench/host_interval_ab.sh OLD_MEMBENCH ROUNDS [NEIGHBOUR_MIB ON_S OFF_S]
#
# Each round: a default run of OLD_MEMBENCH, one of ./membench and a reference slice
# (./membench -r 2), in an order that turns every round (each after each). With
# NEIGHBOUR_MIB, bench/mem_neighbour.c streams that many MiB on CPU 1 for ON_S s,
# then rests OFF_S s, for the whole batch: a host whose memory moves over minutes.
# Prints each build's host-interval coverage, and for the new build also the what-if
# of its own runs widened by the CPU probe alone (host_noise.cpu_varied_pct): the
# same runs, so the memory probe's part without the between-process noise.
# Run the whole script under flock /tmp/bench.lock (the neighbour is part of the batch).
# AB_DIR=DIR keeps the runs there; AB_ANALYSE_ONLY=1 with AB_DIR: only the analysis of them.
set -euo pipefail
OLD=$1
ROUNDS=$2
cd "$(dirname "$0")/.."
OUT=${AB_DIR:-$(mktemp -d)}
mkdir -p "$OUT"
[ -n "${AB_ANALYSE_ONLY:-}" ] && ROUNDS_TO_RUN=0 || ROUNDS_TO_RUN=$ROUNDS
[ "$ROUNDS_TO_RUN" = 0 ] || make -s membench >/dev/null
if [ $# -ge 5 ] && [ "$ROUNDS_TO_RUN" != 0 ]; then
    mkdir -p build
    cc -std=c11 -O2 -o build/mem_neighbour bench/mem_neighbour.c
    taskset -c 1 build/mem_neighbour "$3" "$4" "$5" &
    NB=$!
    trap 'kill $NB' EXIT
fi
old() { "$OLD" --json "$OUT/old-$1.json" >/dev/null 2>&1; }
new() { ./membench --json "$OUT/new-$1.json" >/dev/null 2>&1; }
reference() { ./membench -r 2 --json "$OUT/reference-$1.json" >/dev/null 2>&1; }
steps=(old new reference)
orders=("0 1 2" "1 2 0" "2 0 1" "0 2 1" "1 0 2" "2 1 0")
for round in $(seq 1 "$ROUNDS_TO_RUN"); do
    for k in ${orders[$(((round - 1) % 6))]}; do "${steps[$k]}" "$round"; done
    echo "round $round done $(date -u +%H:%M:%S)" >&2
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import statistics, sys
sys.path.insert(0, 'bench')
from calib_reference import load, points, pooled_reference
out, rounds = sys.argv[1], int(sys.argv[2])
ref = {k: statistics.median(v) for k, v in pooled_reference(out, rounds).items()}
docs = {kind: [load(out, kind, i) for i in range(1, rounds + 1)] for kind in ('old', 'new')}
hn = lambda d: d['host_noise'] or {}

def coverage(label, kind, widen):
    """Intervals holding the reference median: each run's median intervals widened on
    each side by widen(run) % of the median (calibration.sh's host cov with widen =
    varied_pct), and the median widening."""
    held = n = 0
    ws = []
    for doc in docs[kind]:
        w = widen(doc)
        ws.append(w)
        for key, r in points(doc).items():
            mi = r['summary']['median_interval']
            if key not in ref or mi is None:
                continue
            d = r['summary']['median'] * w / 100
            held += mi['low'] - d <= ref[key] <= mi['high'] + d
            n += 1
    print('%-46s %4d of %4d (%5.1f%%)  widened by %.1f-%.1f%%, median %.1f' % (
        label, held, n, 100 * held / max(n, 1), min(ws), max(ws), statistics.median(ws)))

coverage('old: host_interval (CPU probe)', 'old', lambda d: hn(d).get('varied_pct') or 0)
coverage('new: host_interval (larger of CPU, memory)', 'new', lambda d: hn(d).get('varied_pct') or 0)
coverage('new runs, CPU probe alone (what-if)', 'new', lambda d: hn(d).get('cpu_varied_pct') or 0)
coverage('new runs, memory probe alone (what-if)', 'new', lambda d: hn(d).get('memory_varied_pct') or 0)
coverage('new runs, larger capped at 20% (what-if)', 'new', lambda d: min(hn(d).get('varied_pct') or 0, 20))
coverage('old runs, median intervals alone', 'old', lambda d: 0)
coverage('new runs, median intervals alone', 'new', lambda d: 0)
for i, doc in enumerate(docs['new'], 1): # the recorded host_interval is what the what-if computes
    if any(r['summary'].get('host_interval') and
           abs(r['summary']['host_interval']['host_varied_pct'] - hn(doc)['varied_pct']) > 1e-9
           for r in doc['results']):
        print('new-%d: host_interval not widened by varied_pct' % i)
print('run  old varied%  new cpu%  new memory%')
for i, (o, n) in enumerate(zip(docs['old'], docs['new']), 1):
    print('%3d  %10.1f  %8.1f  %11.1f' % (i, hn(o).get('varied_pct') or 0, hn(n).get('cpu_varied_pct') or 0,
                                         hn(n).get('memory_varied_pct') or 0))
PY
