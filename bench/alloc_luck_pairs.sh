#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time or process? Runs bench/alloc_luck twice at once, one process on each of the
# first two CPUs, PAIRS times in a row. If the two processes of a pair agree while the
# pairs differ, a DRAM figure moves with when it is measured, not with the process or
# the memory it was given. Run it alone: flock /tmp/bench.lock bench/alloc_luck_pairs.sh
#   bench/alloc_luck_pairs.sh [PAIRS [SIZE_MIB [K [ROUNDS]]]]
set -euo pipefail
PAIRS=${1:-4}
SIZE=${2:-64} K=${3:-2} ROUNDS=${4:-15}
cd "$(dirname "$0")/.."
mkdir -p build
cc -O2 -o build/alloc_luck bench/alloc_luck.c
OUT=$(mktemp -d)
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; $SIZE MiB, $K buffers a process, $ROUNDS rounds"
for i in $(seq "$PAIRS"); do
    taskset -c 0 build/alloc_luck "$SIZE" "$K" "$ROUNDS" >"$OUT/cpu0" &
    taskset -c 1 build/alloc_luck "$SIZE" "$K" "$ROUNDS" >"$OUT/cpu1"
    wait
    printf 'pair %d: latency medians (ns) CPU 0: %s CPU 1: %s read medians (GB/s) CPU 0: %s CPU 1: %s\n' "$i" \
        "$(awk '/^buffer/ {printf "%s ", $4}' "$OUT/cpu0")" "$(awk '/^buffer/ {printf "%s ", $4}' "$OUT/cpu1")" \
        "$(awk '/^buffer/ {printf "%s ", $9}' "$OUT/cpu0")" "$(awk '/^buffer/ {printf "%s ", $9}' "$OUT/cpu1")" |
        tee -a "$OUT/pairs"
done
# A process's latency: the mean of its buffers' medians. Within a pair: how far its two
# processes are apart; across pairs: how far the pairs' means are.
python3 - "$OUT/pairs" <<'PY'
import statistics, sys
gaps, means = [], []
for line in open(sys.argv[1]):
    lat = line.split("CPU 0:")[1].split("read")[0]
    a, b = (statistics.mean(map(float, part.split())) for part in lat.split("CPU 1:"))
    gaps.append(100 * abs(a - b) / ((a + b) / 2))
    means.append((a + b) / 2)
print("latency: the two processes of a pair %.1f%% apart (median; largest %.1f%%); the pairs' means spread %.1f%% (%.1f..%.1f ns)"
      % (statistics.median(gaps), max(gaps), 100 * (max(means) - min(means)) / statistics.median(means), min(means), max(means)))
PY
rm -rf "$OUT"
