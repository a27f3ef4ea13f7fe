#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# peak-bandwidth's ALL Reads against likwid-bench's widest load kernels on the same
# bytes (issue 45 item 3), alternating process by process, ROUNDS rounds: membench
# `peak-bandwidth --traffic R -b SIZE` (SIZE a thread, every usable CPU) and likwid
# `load_avx512` and `load_avx` on SIZE x threads over those threads (likwid's -w is the
# total); membench also with --kernel avx512 and --kernel avx2. All count the bytes
# loaded, MB = 10^6 B. Prints every round (membench's with the kernel it ran, JSON
# kernel.isa), then medians, spreads and membench's own choice / each.
#   bench/peak_vs_likwid.sh [ROUNDS] [SIZE]     (run under flock -x /tmp/bench.lock)
set -euo pipefail
ROUNDS=${1:-6}
SIZE=${2:-1G}
cd "$(dirname "$0")/.."
if ! command -v likwid-bench >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid >/dev/null
fi
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
T=$(nproc)
BYTES=$(python3 -c "import sys; s='$SIZE'; print(int(s[:-1]) * {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}[s[-1]])")
WS=$((BYTES * T / 1024))kB
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $T CPUs; $SIZE a thread; likwid -w S0:$WS:$T"
for r in $(seq 1 "$ROUNDS"); do
    # membench's own choice, then each x86 ISA given (--kernel), the same bytes
    for k in best avx512 avx2; do
        [ "$k" = best ] && kernel=() || kernel=(--kernel "$k")
        ./membench peak-bandwidth --traffic R -b "$SIZE" "${kernel[@]}" --json "$OUT/p.json" >/dev/null 2>&1 || continue
        python3 -c "
import json; d = json.load(open('$OUT/p.json')); x = d['results'][0]
print($r, 'peak_R' + ('' if '$k' == 'best' else '_$k'), x['value'], x['kernel']['isa'])" >>"$OUT/raw"
    done
    for k in load_avx512 load_avx; do
        likwid-bench -t "$k" -w "S0:$WS:$T" 2>/dev/null | awk -v r="$r" -v k="$k" '/^MByte\/s/ {print r, k, $2, "-"}' >>"$OUT/raw"
    done
done
cat "$OUT/raw"
python3 - "$OUT/raw" <<'PY'
import collections, statistics, sys
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, tool, rate, _ = line.split()
    v[tool].append(float(rate))
peak = statistics.median(v["peak_R"])
for tool in ("peak_R", "peak_R_avx512", "peak_R_avx2", "load_avx512", "load_avx"):
    x = v.get(tool)
    if x:
        m = statistics.median(x)
        print("%-12s median %9.1f MB/s  range %9.1f-%9.1f  spread %.2fx  membench/this %.3f" % (
            tool, m, min(x), max(x), max(x) / min(x), peak / m))
PY
