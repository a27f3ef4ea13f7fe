#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench's two named latencies against multichase, alternating round by round in
# one batch (every process under flock /tmp/bench.lock):
#   membench latency --min SIZE --max SIZE    headline (TLB-local) and full random
#   multichase -m SIZE                        its default: 256 KiB TLB locality
#   multichase -m SIZE -T SIZE                fully random over SIZE
# Per figure: median and range over the rounds, and each process's wall time (the
# point's cost; multichase's includes its fixed 5+1 x 0.5 s samples). Like with like:
# multichase prints the best of its samples, so membench's best sample (its table's
# Best, JSON summary.min) is set beside it as well as membench's median; and how many
# of the rounds' full random medians each round's interval holds (its host interval,
# the one widened by the host's own movement).
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
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][-1]
c = r.get('random_chase') or {}
s = c.get('summary') or {}
mi, hi = s.get('median_interval') or {}, s.get('host_interval') or {}
print(sys.argv[2], r['value'], c.get('value', 'nan'), r['summary']['min'], s.get('min', 'nan'),
      mi.get('low', 'nan'), mi.get('high', 'nan'), hi.get('low', 'nan'), hi.get('high', 'nan'))" \
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
show("membench latency: headline (TLB-local), best sample, ns", col("membench", 3))
show("membench latency: full random, ns", col("membench", 2))
show("membench latency: full random, best sample, ns", col("membench", 4))
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
hb, fb = statistics.median(col("membench", 3)), statistics.median(col("membench", 4))
print("best against best (multichase's statistic): headline %.3f, full random %.3f" % (hb / l, fb / g))
pb = [a / b for a, b in zip(col("membench", 3), col("mc_local", 1))]
pr = [a / b for a, b in zip(col("membench", 4), col("mc_random", 1))]
print("  round by round: headline %s; full random %s (%d of %d full random pairs within 10%%)" % (
      " ".join("%.2f" % x for x in pb), " ".join("%.2f" % x for x in pr), sum(abs(x - 1) <= 0.10 for x in pr), len(pr)))
meds = col("membench", 2)
for name, lo_i, hi_i in (("median interval", 5, 6), ("host interval", 7, 8)):
    held = [sum(lo <= m <= hi for m in meds) for lo, hi in zip(col("membench", lo_i), col("membench", hi_i))]
    print("full random %s: each round's holds %s of the %d rounds' medians (median %d)" % (
          name, " ".join(map(str, held)), len(meds), statistics.median(held)))
EOF
