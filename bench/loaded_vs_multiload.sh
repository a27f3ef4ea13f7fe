#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How steady loaded-latency's delay-0 point is against multiload's loaded latency on
# the same host, alternating round by round in one batch (each process under flock
# /tmp/bench.lock):
#   membench loaded-latency --delays 0 [-b SIZE --chase-buffer SIZE]
#       (membench's defaults: every usable CPU but the chaser's makes R traffic, all
#       reads; latency the median of 9 samples; bandwidth over the same window)
#   multiload -c chaseload -l stream-sum -t NCPU -m SIZE
#       (one thread chases, the others run lmbench's stream sum, all reads; the
#       average load bandwidth over its 5 samples of 0.5 s, in MiB/s)
# Per tool: the delay-0 bandwidth and latency per round, their median, range and
# spread (max / min), and the ratio of membench's spread to multiload's (issue 45:
# within 1.5x). multiload is built from a checkout the caller fetched (never vendored):
#
#   bench/loaded_vs_multiload.sh MULTILOAD_BINARY [ROUNDS] [SIZE] [-- MEMBENCH_ARGS...]
#
# SIZE per thread as multiload takes it (1g default); membench runs its own default
# buffers unless MEMBENCH_ARGS say otherwise.
set -euo pipefail
ML=${1:?usage: loaded_vs_multiload.sh MULTILOAD_BINARY [ROUNDS] [SIZE] [-- MEMBENCH_ARGS...]}
ROUNDS=${2:-6}
SIZE=${3:-1g}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = -- ] && shift
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
NCPU=$(nproc)
for r in $(seq "$ROUNDS"); do
    flock /tmp/bench.lock ./membench loaded-latency --delays 0 "$@" --json "$OUT/m$r.json" >/dev/null 2>&1
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d['results'] if x['operation'] == 'loaded-latency'][0]
print(r['params']['bandwidth_mb_s'], r['value'], r['params'].get('traffic_threads'), d['elapsed_s'])" "$OUT/m$r.json" >>"$OUT/membench"
    flock /tmp/bench.lock "$ML" -c chaseload -l stream-sum -t "$NCPU" -m "$SIZE" 2>/dev/null | tail -1 >>"$OUT/multiload.raw"
    echo "round $r done" >&2
done
python3 - "$OUT" <<'PY'
import statistics, sys
out = sys.argv[1]
mb = [l.split() for l in open(out + "/membench")]
ml = [[f.strip() for f in l.split(",")] for l in open(out + "/multiload.raw")]
# multiload: Samples, Byte/thd, ChaseThds, ChaseNS, ChaseMibs, ChDeviate, LoadThds, LdMaxMibs, LdAvgMibs, ...
figs = {
    "membench delay-0 bandwidth, MB/s": [float(x[0]) for x in mb],
    "multiload stream-sum load, MB/s (LdAvgMibs x 1.048576)": [float(x[8]) * 1.048576 for x in ml],
    "membench delay-0 latency, ns (median)": [float(x[1]) for x in mb],
    "multiload chase under load, ns (ChaseNS)": [float(x[3]) for x in ml],
}
print("| figure | per round | median | range | spread (max/min) |")
print("|---|---|---|---|---|")
for k, v in figs.items():
    print("| %s | %s | %.1f | %.1f-%.1f | %.2fx |" % (k, " ".join("%.0f" % x for x in v), statistics.median(v),
                                                   min(v), max(v), max(v) / min(v)))
s = lambda v: max(v) / min(v)
keys = list(figs)
print("\nspread of membench over multiload's: bandwidth %.2f, latency %.2f (issue 45: within 1.5)" % (
    s(figs[keys[0]]) / s(figs[keys[1]]), s(figs[keys[2]]) / s(figs[keys[3]])))
print("membench traffic threads %s, wall %s s" % (" ".join(x[2] for x in mb), " ".join("%.1f" % float(x[3]) for x in mb)))
PY
