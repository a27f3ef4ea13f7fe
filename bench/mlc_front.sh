#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `membench mlc`: how long MLC's default sequence takes, and whether the front end
# measures what the native modes measure (it runs them as steps: it should), round
# by round in one batch; medians and spreads.
#
#   bench/mlc_front.sh [ROUNDS]
#
# Per round: `membench mlc` (no test: the five tests, default sizes), its wall time and
# its ALL Reads and idle (latency matrix) figures; then `membench peak-bandwidth
# --traffic R` and `membench latency-matrix` alone, the same figures.
set -euo pipefail
ROUNDS=${1:-3}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for round in $(seq 1 "$ROUNDS"); do
    start=$(date +%s.%N)
    ./membench mlc >"$OUT/mlc.txt" 2>/dev/null
    end=$(date +%s.%N)
    echo "$round mlc_default_s $(echo "$end - $start" | bc)" >>"$OUT/raw"
    awk -v r="$round" -F'\t' '/^ALL Reads/ {print r, "mlc_all_reads", $2}' "$OUT/mlc.txt" >>"$OUT/raw"
    awk -v r="$round" 'f && /^ +[0-9]+\t/ {split($0, a, "\t"); print r, "mlc_idle_node0_ns", a[2]; exit}
                       /^Numa node\t/ {f = 1}' "$OUT/mlc.txt" >>"$OUT/raw"
    ./membench peak-bandwidth --traffic R --csv 2>/dev/null | awk -F, -v r="$round" 'NR == 2 {print r, "native_peak_R", $7}' >>"$OUT/raw"
    ./membench latency-matrix --csv 2>/dev/null | awk -F, -v r="$round" 'NR == 2 {print r, "native_latency_matrix_ns", $4}' >>"$OUT/raw"
done
python3 bench/medians.py "$OUT/raw"
