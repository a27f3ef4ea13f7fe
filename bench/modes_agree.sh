#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The same recipe measured by different modes (issue 34, "modes agree"), alternating
# mode by mode, round by round, every process under flock /tmp/bench.lock:
#   latency --min S --max S  |  latency-matrix -b S --cpu 0  |  mlc --idle_latency -b S
#   bandwidth-matrix --traffic R -b B  |  peak-bandwidth --traffic R -b B
# Per mode: the median over rounds of each run's figure, its range, and each run's
# own 95% interval (median_interval) so a reader can tell whether they overlap.
#
#   bench/modes_agree.sh [ROUNDS] [LATENCY_SIZE] [BANDWIDTH_BUFFER]
set -euo pipefail
ROUNDS=${1:-3}
S=${2:-1G}
B=${3:-512M}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
declare -A CMD=(
    [latency]="latency --min $S --max $S --cpu 0"
    [latency-matrix]="latency-matrix -b $S --cpu 0"
    [mlc-idle]="mlc --idle_latency -b $S -c 0"
    [bandwidth-matrix]="bandwidth-matrix --traffic R -b $B"
    [peak-bandwidth]="peak-bandwidth --traffic R -b $B"
)
ORDER="latency latency-matrix mlc-idle bandwidth-matrix peak-bandwidth"
for r in $(seq "$ROUNDS"); do
    for m in $ORDER; do
        # shellcheck disable=SC2086
        flock /tmp/bench.lock ./membench ${CMD[$m]} --json "$OUT/$m.$r.json" >/dev/null 2>&1 || true
    done
    echo "round $r done" >&2
done
python3 - "$OUT" "$ROUNDS" $ORDER <<'EOF'
import json, os, statistics, sys
out, rounds, modes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("| mode | figure | median | range | each run's 95% interval |")
print("|---|---|---|---|---|")
for m in modes:
    vals, ivs = [], []
    for r in range(1, rounds + 1):
        p = os.path.join(out, "%s.%d.json" % (m, r))
        if not os.path.exists(p):
            continue
        recs = [x for x in json.load(open(p))["results"] if x["operation"] in ("latency", "R")]
        if not recs:
            continue
        x = recs[-1]
        vals.append(x["value"])
        mi = x["summary"].get("median_interval")
        ivs.append("%.1f-%.1f" % (mi["low"], mi["high"]) if mi else "-")
    unit = "ns" if m in ("latency", "latency-matrix", "mlc-idle") else "MB/s"
    if vals:
        print("| %s | %s | %.1f | %.1f-%.1f | %s |" % (m, unit, statistics.median(vals), min(vals), max(vals),
                                                    ", ".join(ivs)))
EOF
