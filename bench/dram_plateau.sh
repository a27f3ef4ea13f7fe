#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Is the default DRAM figure DRAM's? (issue 44, "DRAM figures that are DRAM on every
# machine"). Round by round, alternating, each mode at its default size and at twice
# it (the default size read from the default run's own JSON plan):
#   stream        Triad (regular stores), default arrays vs --size 2x
#   sweep         the DRAM point's read, default run (-o read) vs -s 2x (KiB)
#   peak          peak-bandwidth ALL Reads (--traffic R), default vs -b 2x
# Prints each figure per round, the medians and default/2x (within 5%: a plateau),
# and the wall time of the default runs. The sizes must be the same in every round.
#   flock -x /tmp/bench.lock bench/dram_plateau.sh [ROUNDS]     (default 3)
set -euo pipefail
ROUNDS=${1:-3}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
cp membench "$OUT/membench"
trap 'rm -rf "$OUT"' EXIT
MB="$OUT/membench"
echo "membench $(git rev-parse --short HEAD), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
     "(family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model" \
     "$(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')), $(nproc) CPUs," \
     "cache sysfs: $([ -d /sys/devices/system/cpu/cpu0/cache ] && echo yes || echo none); $ROUNDS rounds"
wall() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N); echo "$t0 $t1" | awk '{printf "%.1f", $2-$1}'; }
for r in $(seq 1 "$ROUNDS"); do
    w=$(wall "$MB" stream --stores regular --json "$OUT/stream-$r.json")
    echo "$w" >"$OUT/stream-$r.wall"
    array=$(python3 -c "import json; print(json.load(open('$OUT/stream-$r.json'))['plan']['array_elements']*8)")
    wall "$MB" stream --stores regular --size $((2 * array / 1024)) --json "$OUT/stream2-$r.json" >/dev/null
    w=$(wall "$MB" -o read --json "$OUT/sweep-$r.json")
    echo "$w" >"$OUT/sweep-$r.wall"
    kb=$(python3 -c "import json; print(json.load(open('$OUT/sweep-$r.json'))['results'][-1]['size_kb'])")
    wall "$MB" -o read -s $((2 * kb)) --json "$OUT/sweep2-$r.json" >/dev/null
    w=$(wall "$MB" peak-bandwidth --traffic R --json "$OUT/peak-$r.json")
    echo "$w" >"$OUT/peak-$r.wall"
    b=$(python3 -c "import json; print(json.load(open('$OUT/peak-$r.json'))['plan']['buffer_bytes'])")
    wall "$MB" peak-bandwidth --traffic R -b $((2 * b / 1048576))M --json "$OUT/peak2-$r.json" >/dev/null
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def fig(path, pick):
    d = json.load(open(path))
    rs = [r for r in d["results"] if pick(r)]
    return (rs[-1]["value"] / 1000, rs[-1]["size_bytes"]) if rs else (float("nan"), 0)
modes = [("stream Triad (regular)", "stream", lambda r: r["operation"] == "triad"),
         ("sweep DRAM read", "sweep", lambda r: r["operation"] == "read"),
         ("peak-bandwidth ALL Reads", "peak", lambda r: r["operation"] in ("all reads", "R", "read") or True)]
for name, key, pick in modes:
    a = [fig("%s/%s-%d.json" % (out, key, i), pick) for i in range(1, rounds + 1)]
    b = [fig("%s/%s2-%d.json" % (out, key, i), pick) for i in range(1, rounds + 1)]
    walls = [float(open("%s/%s-%d.wall" % (out, key, i)).read()) for i in range(1, rounds + 1)]
    sizes = sorted({s for _, s in a})
    ma, mb = statistics.median(v for v, _ in a), statistics.median(v for v, _ in b)
    print("%-26s default %s GB/s (size %s, same every round: %s), 2x %s GB/s; median %.1f vs %.1f: %.3f; "
          "default wall %s s" % (name, " ".join("%.1f" % v for v, _ in a), sizes, len(sizes) == 1,
                                 " ".join("%.1f" % v for v, _ in b), ma, mb, ma / mb, " ".join("%.1f" % w for w in walls)))
PY
