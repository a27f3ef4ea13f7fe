#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How often the sweep's series restart (a sample shorter than --sample-ms: the host
# sped up after the pass count was set), once and more than once, in default runs.
#
#   bench/restart_count.sh [RUNS] [OTHER_MEMBENCH]
#
# RUNS default runs (`membench --json`, default 10); with OTHER_MEMBENCH (another
# build, e.g. of an older commit) the two alternate run by run, and each is counted
# alone. Prints per binary: bandwidth records, records with 1 restart, with 2 or more,
# and the most seen.
set -euo pipefail
RUNS=${1:-10}
OTHER=${2:-}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
bins=(./membench)
[ -n "$OTHER" ] && bins+=("$OTHER")
for i in $(seq 1 "$RUNS"); do
    for b in "${!bins[@]}"; do
        "${bins[$b]}" --json "$OUT/run$b-$i.json" >/dev/null
    done
done
for b in "${!bins[@]}"; do
    python3 - "${bins[$b]}" "$OUT"/run"$b"-*.json <<'PY'
import json, sys
counts = []
for path in sys.argv[2:]:
    for r in json.load(open(path))["results"]:
        if r.get("metric") == "bandwidth":
            counts.append(int(r.get("params", {}).get("series_restarts", 0)))
once = sum(1 for c in counts if c == 1)
more = sum(1 for c in counts if c >= 2)
print("%s: %d runs, %d bandwidth records, %d restarted once, %d twice or more (most %d)"
      % (sys.argv[1], len(sys.argv) - 2, len(counts), once, more, max(counts or [0])))
PY
done
