#!/usr/bin/env bash
# membench numa mem against perf bench numa mem (Debian linux-perf), the same command
# lines, alternating round by round in one batch; medians and spreads of the total
# speed (GB/s, 10^9 bytes).
#
#   bench/numa_vs_perf.sh [ROUNDS]
#
# Cases (words after "numa mem"):
#   zero:  -p 1 -t 2 -P 512 -s 3 -zZq --thp 1 --no-data_rand_walk   (perf's RAM-bw tests: memset,
#          write-only, so both count the same bytes)
#   rmw:   -p 2 -t 1 -P 256 -s 3 -q                                  (perf's default: random-walk
#          read-modify-write; membench counts each byte read and written, perf once: the table
#          also gives membench / 2)
set -euo pipefail
ROUNDS=${1:-3}
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null; }
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ZERO=(-p 1 -t 2 -P 512 -s 3 -zZq --thp 1 --no-data_rand_walk)
RMW=(-p 2 -t 1 -P 256 -s 3 -q)
speed() { sed -n 's/^ *\([0-9.]*\) GB\/sec total speed$/\1/p'; }
for round in $(seq 1 "$ROUNDS"); do
    echo "$round perf_zero $(perf bench numa mem "${ZERO[@]}" 2>/dev/null | speed)" >>"$OUT/raw"
    echo "$round membench_zero $(./membench numa mem "${ZERO[@]}" 2>/dev/null | speed)" >>"$OUT/raw"
    echo "$round perf_rmw $(perf bench numa mem "${RMW[@]}" 2>/dev/null | speed)" >>"$OUT/raw"
    echo "$round membench_rmw $(./membench numa mem "${RMW[@]}" 2>/dev/null | speed)" >>"$OUT/raw"
done
python3 bench/medians.py "$OUT/raw"
