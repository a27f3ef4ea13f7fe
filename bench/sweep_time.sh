#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Wall time of the default sweep: the bandwidth part alone (-o read -o write -o copy)
# and the whole default run (bandwidth + latency), RUNS times each; prints medians.
#   bench/sweep_time.sh [RUNS]
set -euo pipefail
RUNS=${1:-5}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
measure() {
    local label=$1; shift
    local times=()
    for _ in $(seq 1 "$RUNS"); do
        local t0 t1
        t0=$(date +%s.%N)
        ./membench "$@" >/dev/null
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk -v l="$label" -v n="$RUNS" \
        '{v[NR]=$1} END {printf "%-34s median %.2f s  (min %.2f, max %.2f, %d runs)\n", l, v[int((n+1)/2)], v[1], v[n], n}'
}
measure "bandwidth sweep (read/write/copy)" -o read -o write -o copy
measure "default run (bandwidth + latency)"
