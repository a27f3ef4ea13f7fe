#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Latency: speed of the sweep's latency part, repeatability of the 256 MiB point,
# agreement with long reference runs, and the cache-size check of membench latency.
#   bench/latency_checks.sh [RUNS]
set -euo pipefail
RUNS=${1:-5}
cd "$(dirname "$0")/.."
make -s membench >/dev/null

median_spread() { # values on stdin -> "median M  spread S% (min..max)"
    sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
        printf "median %.2f  spread %.1f%% (%.2f..%.2f, %d runs)\n", m, 100*(v[NR]-v[1])/m, v[1], v[NR], NR}'
}
lat() { ./membench "$@" | awk -F, 'NR == 2 {print $4}'; }

echo "== time of the latency part of the default sweep (-o latency), seconds"
for _ in $(seq "$RUNS"); do
    t0=$(date +%s.%N); ./membench -o latency >/dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc
done | median_spread

echo "== repeatability: 256 MiB latency point, ns"
for opt in "" "-H"; do
    printf '%-4s ' "${opt:-4k}"
    for _ in $(seq "$RUNS"); do lat -s 262144 -o latency $opt; done | median_spread
done

echo "== agreement: median of $RUNS default runs vs one reference run of 100x the sample time (2 s samples), ns"
printf '%-10s %-5s %10s %10s %8s   %s\n' size pages default reference ratio "default runs"
for kb in 16 512 2048 262144; do
    for opt in "" "-H"; do
        runs=$(for _ in $(seq "$RUNS"); do lat -s $kb -o latency $opt; done | sort -g | tr '\n' ' ')
        d=$(echo "$runs" | tr ' ' '\n' | grep . | awk '{v[NR]=$1} END {print NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')
        ref=$(lat -s $kb -o latency $opt --latency-sample-ms 2000)
        printf '%-10s %-5s %10s %10s %8.3f   %s\n' "${kb}KB" "${opt:-4k}" "$d" "$ref" "$(echo "$d / $ref" | bc -l)" "$runs"
    done
done

echo "== membench latency --pages 2m: reported vs measured cache sizes"
./membench latency --pages 2m | sed -n '/^Latency steps/,$p'
