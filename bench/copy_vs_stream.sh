#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 14, defect 3: the sweep's DRAM copy against STREAM Copy, alternating in
# BATCHES batches. The sweep's copy counts each byte once, STREAM's Copy twice (read
# and write): the sweep's figures are doubled here. Prints per batch the sweep's best
# and median, STREAM Copy's best and median (GB/s, STREAM's counting) and the ratios.
#   bench/copy_vs_stream.sh [BATCHES] [SIZE_KB]     (run under flock /tmp/bench.lock)
set -euo pipefail
BATCHES=${1:-5}
SIZE_KB=${2:-262144}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# STREAM's arrays as large as the sweep's two buffers per thread, for all threads
THREADS=$(./membench -s 4 -o read -r 1 --sample-ms 1 --json "$OUT/t.json" >/dev/null && python3 -c \
    "import json; print(json.load(open('$OUT/t.json'))['results'][0]['threads'])")
N=$((SIZE_KB * 1024 / 8 * THREADS))
for i in $(seq 1 "$BATCHES"); do
    ./membench -o copy -s "$SIZE_KB" -r 9 --json "$OUT/sweep.json" >/dev/null
    ./membench stream -n "$N" --stores regular --ntimes 10 --json "$OUT/stream.json" >/dev/null 2>&1
    python3 - "$i" "$OUT/sweep.json" "$OUT/stream.json" <<'PY'
import json, statistics, sys
i, sweep, stream = sys.argv[1:]
s = json.load(open(sweep))["results"][0]
c = [r for r in json.load(open(stream))["results"] if r["operation"] == "copy"][0]
sb, sm = 2 * s["summary"]["max"] / 1000, 2 * s["summary"]["median"] / 1000
cb, cm = c["summary"]["max"] / 1000, c["summary"]["median"] / 1000
print("batch %s  sweep best %5.1f median %5.1f  STREAM best %5.1f median %5.1f  ratio best %.2f median %.2f"
      % (i, sb, sm, cb, cm, sb / cb, sm / cm), flush=True)
PY
done
