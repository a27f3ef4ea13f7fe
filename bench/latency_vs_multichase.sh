#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench's two named latencies against multichase, alternating round by round in
# one batch (every process under flock /tmp/bench.lock):
#   membench latency --min SIZE --max SIZE    headline (TLB-local) and full random
#   multichase -m SIZE                        its default: 256 KiB TLB locality
#   multichase -m SIZE -T SIZE                fully random over SIZE
# Per figure: median and range over the rounds, and each process's wall time (the
# point's cost; multichase's includes its fixed 5+1 x 0.5 s samples).
# multichase is built from a checkout the caller fetched (never vendored):
#
#   bench/latency_vs_multichase.sh MULTICHASE_BINARY [ROUNDS] [SIZE]
#
# SIZE as both tools take it: 1g (default), 512m, ...
set -euo pipefail
MC=${1:?usage: latency_vs_multichase.sh MULTICHASE_BINARY [ROUNDS] [SIZE]}
ROUNDS=${2:-5}
SIZE=${3:-1g}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
MB_SIZE=$(echo "$SIZE" | tr 'kmg' 'KMG')
timed() { # NAME CMD...: appends "seconds output" of one run to $OUT/NAME
    local name=$1 t0 t1 out
    shift
    t0=$(date +%s.%N)
    out=$(flock /tmp/bench.lock "$@" 2>/dev/null | tail -1)
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc) $out" >>"$OUT/$name"
}
for r in $(seq "$ROUNDS"); do
    t0=$(date +%s.%N)
    flock /tmp/bench.lock ./membench latency --min "$MB_SIZE" --max "$MB_SIZE" --json "$OUT/m$r.json" >/dev/null 2>&1
    t1=$(date +%s.%N)
    python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][-1]; print(sys.argv[2], r['value'], r['random_chase']['value'] if r.get('random_chase') else 'nan')" \
        "$OUT/m$r.json" "$(echo "$t1 - $t0" | bc)" >>"$OUT/membench"
    timed mc_local "$MC" -m "$SIZE"
    timed mc_random "$MC" -m "$SIZE" -T "$SIZE"
    echo "round $r done" >&2
done
python3 - "$OUT" "$SIZE" <<'EOF'
import statistics, sys
out, size = sys.argv[1], sys.argv[2]
def col(name, i):
    return [float(l.split()[i]) for l in open(out + "/" + name)]
def show(label, xs):
    print("| %-44s | %8.1f | %8.1f-%-8.1f |" % (label, statistics.median(xs), min(xs), max(xs)))
print("| figure (%s) | median | range |" % size)
print("|---|---|---|")
show("membench latency: headline (TLB-local), ns", col("membench", 1))
show("multichase -m %s (best of its samples), ns" % size, col("mc_local", 1))
show("membench latency: full random, ns", col("membench", 2))
show("multichase -m %s -T %s, ns" % (size, size), col("mc_random", 1))
show("membench latency wall time (both chases), s", col("membench", 0))
show("multichase -m %s wall time, s" % size, col("mc_local", 0))
show("multichase -m %s -T %s wall time, s" % (size, size), col("mc_random", 0))
print("\nround by round (membench headline, multichase, membench random, multichase -T):")
for i, row in enumerate(zip(col("membench", 1), col("mc_local", 1), col("membench", 2), col("mc_random", 1))):
    print("  %d: %7.1f %7.1f   %7.1f %7.1f   ratios %.2f %.2f" % ((i + 1,) + row + (row[0] / row[1], row[2] / row[3])))
pairs = [a / b for a, b in zip(col("membench", 1), col("mc_local", 1))]
pairs_r = [a / b for a, b in zip(col("membench", 2), col("mc_random", 1))]
print("median of the round ratios: headline %.3f, full random %.3f" % (statistics.median(pairs), statistics.median(pairs_r)))
h, l = statistics.median(col("membench", 1)), statistics.median(col("mc_local", 1))
f, g = statistics.median(col("membench", 2)), statistics.median(col("mc_random", 1))
print("\nmedian ratios: headline / multichase default %.3f; full random / multichase -T %s %.3f" % (h / l, size, f / g))
EOF
