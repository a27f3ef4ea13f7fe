#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The static binary (make static) against the dynamic one, alternating round by round
# (the order turns each round): every sweep operation, memcpy included, at 1 MiB per
# thread (cache) and 512 MiB per thread (DRAM), 2 threads, best of 3; then the
# median, lowest and highest of each figure (medians.py).
#   bench/static_ab.sh [ROUNDS] [NAME=BINARY...]    (run under flock -x /tmp/bench.lock)
# Default binaries: dynamic=./membench static=build-static/$(uname -m)/membench;
# more (a musl build, say) are added as NAME=BINARY.
set -euo pipefail
ROUNDS=${1:-5}
shift || true
cd "$(dirname "$0")/.."
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=(dynamic=./membench "static=build-static/$(uname -m)/membench")
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for i in $(seq 1 "$ROUNDS"); do
    n=${#builds[@]}
    for k in $(seq 0 $((n - 1))); do
        b=${builds[$(((k + i) % n))]}
        name=${b%%=*} bin=${b#*=}
        for kb in 1024 524288; do
            "$bin" -s "$kb" -o read -o write -o copy -o write-nt -o copy-nt -o memcpy -o latency -r 3 2>/dev/null |
                awk -F, -v r="$i" -v n="$name" -v kb="$kb" 'NR > 1 {
                    v = $2 == "latency" ? $4 : $3; printf "%s %s-%s-%s %s\n", r, n, kb, $2, v }' >>"$OUT/raw"
        done
    done
done
sort -k2,2 -s "$OUT/raw" >"$OUT/sorted"
python3 bench/medians.py "$OUT/sorted"
