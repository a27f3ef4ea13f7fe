#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Repeatability of RAM latency with --target-ci (issue 14's goal: 10 runs of
# `membench -o latency -s 262144 --target-ci 2 --max-time 60` within 5% of each
# other). Each run's median, its stated interval, whether the target was met, its
# rounds and time; then the spread of the medians and how many intervals hold the
# median of all runs. Run it alone: flock /tmp/bench.lock bench/target_ci_repeat.sh
#   bench/target_ci_repeat.sh [RUNS] [extra membench options]
set -euo pipefail
RUNS=${1:-10}
shift || true
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=${TCI_DIR:-$(mktemp -d)}
mkdir -p "$OUT"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; files in $OUT"
for i in $(seq "$RUNS"); do
    ./membench -o latency -s 262144 --target-ci 2 --max-time 60 "$@" --json "$OUT/run-$i.json" >/dev/null 2>"$OUT/run-$i.err"
done
python3 - "$OUT" "$RUNS" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
rows = []
for i in range(1, runs + 1):
    d = json.load(open("%s/run-%d.json" % (out, i)))
    r = d["results"][0]
    iv = r["summary"]["median_interval"]
    hv = r["summary"].get("host_interval") or iv  # the median interval widened by the run's host variation
    rows.append((r["value"], iv["low"], iv["high"], iv["level"], r["params"].get("target_ci_met"), r["params"]["rounds"],
                 d["elapsed_s"], hv["low"], hv["high"]))
    print("run %2d: %7.1f ns  [%.1f, %.1f] (%.0f%%, +-%.1f%%)  host [%.1f, %.1f]  target met %-5s  %2d rounds  %4.1f s"
          % (i, r["value"], iv["low"], iv["high"], 100 * iv["level"], 50 * (iv["high"] - iv["low"]) / r["value"],
             hv["low"], hv["high"], r["params"].get("target_ci_met"), r["params"]["rounds"], d["elapsed_s"]))
med = statistics.median(x[0] for x in rows)
lo, hi = min(x[0] for x in rows), max(x[0] for x in rows)
print("medians: median %.1f ns, spread %.1f%% (%.1f..%.1f; goal: within 5%%)" % (med, 100 * (hi - lo) / med, lo, hi))
print("intervals holding the median of all runs: %d of %d (host intervals: %d); target met in %d"
      % (sum(x[1] <= med <= x[2] for x in rows), len(rows), sum(x[7] <= med <= x[8] for x in rows),
         sum(bool(x[4]) for x in rows)))
PY
