#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The MLC-class modes against the other tools on this machine, round by round in one
# batch so drifts of a shared host hit every tool alike; medians and spreads.
#
#   bench/mlc_class.sh [ROUNDS]
#
# Per round:
#   peak-bandwidth R (all reads, 2 traffic threads, 512 MiB per thread, 10 windows);
#   the sweep's read at 512 MiB per thread on 2 threads (sc-membench's RAM figure);
#   likwid-bench load_avx on 1 GB over 2 threads (512 MiB each, every byte counted);
#   peak-bandwidth W5,W8 and W2,W7 and W11,W10 (regular vs non-temporal stores);
#   loaded-latency R (MLC's 19 delays), its idle, largest-delay and delay-0 rows.
# All MB/s are 10^6 bytes/s of application bytes (what each tool prints).
set -euo pipefail
ROUNDS=${1:-3}
cd "$(dirname "$0")/.."
if ! command -v likwid-bench >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid >/dev/null
fi
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
B=(-b 512M --window-ms 100 --samples 10)
for round in $(seq 1 "$ROUNDS"); do
    ./membench peak-bandwidth --traffic R "${B[@]}" --csv | awk -F, -v r="$round" 'NR == 2 {print r, "peak_R", $7}' >>"$OUT/raw"
    ./membench -s 524288 -o read -p 2 | awk -F, -v r="$round" 'NR == 2 {print r, "sweep_read", $3}' >>"$OUT/raw"
    likwid-bench -t load_avx -w S0:1GB:2 2>/dev/null | awk -v r="$round" '/^MByte\/s/ {print r, "likwid_load_avx", $2}' >>"$OUT/raw"
    ./membench peak-bandwidth --traffic W5,W8,W2,W7,W11,W10 "${B[@]}" --csv |
        awk -F, -v r="$round" 'NR > 1 {print r, "peak_" $1, $7}' >>"$OUT/raw"
    ./membench loaded-latency -b 512M --chase-buffer 512M --json "$OUT/ll.json" >/dev/null 2>&1
    python3 - "$OUT/ll.json" "$round" >>"$OUT/raw" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); r = sys.argv[2]; res = d["results"]
idle = res[0]; rows = res[1:]
print(r, "ll_idle_ns", idle["value"])
print(r, "ll_delay20000_ns", rows[-1]["value"])
print(r, "ll_delay0_mb_s", rows[0]["params"]["bandwidth_mb_s"])
print(r, "ll_delay0_ns", rows[0]["value"])
print(r, "ll_knee_mb_s", d["analysis"].get("knee_bandwidth_mb_s", 0))
PY
done
python3 bench/medians.py "$OUT/raw"
