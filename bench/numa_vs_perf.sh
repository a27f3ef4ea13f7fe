#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench numa mem against perf bench numa mem (Debian linux-perf), the same command
# lines, alternating round by round in one batch; per case, the median and range of
# every perf key both print (-q layout), and membench / perf of the medians. Each key
# carries perf's amount in both (README: "Figures"), so the ratios should be near 1.
#
#   bench/numa_vs_perf.sh [ROUNDS]
#   NUMA_CASES="rmw rmw-seq" bench/numa_vs_perf.sh 5     only those cases
#
# Cases (words after "numa mem"):
#   rmw:      -p 2 -t 1 -P 256 -s 3 -q                perf's default access: random-walk
#                                                       read-modify-write
#   rmw-seq:  -p 1 -t 1 -P 64 -s 3 -q -S --no-data_rand_walk
#                                                       sequential read-modify-write
#   read:     -p 2 -t 1 -P 256 -s 3 -q --no-data_writes random-walk reads
#   zero:     -p 1 -t 2 -P 512 -s 3 -zZq --thp 1 --no-data_rand_walk
#                                                       perf's RAM-bw tests: memset
#   write:    -p 2 -t 1 -P 256 -s 3 -q --no-data_reads  random-walk writes
#   read-seq, write-seq: rmw-seq with --no-data_writes, --no-data_reads
#   rmw-seq-512: -p 1 -t 1 -P 512 -s 3 -q -S --no-data_rand_walk (beyond most LLCs)
set -euo pipefail
ROUNDS=${1:-3}
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null; }
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
declare -A CASES=(
    [rmw]="-p 2 -t 1 -P 256 -s 3 -q"
    [rmw-seq]="-p 1 -t 1 -P 64 -s 3 -q -S --no-data_rand_walk"
    [read]="-p 2 -t 1 -P 256 -s 3 -q --no-data_writes"
    [zero]="-p 1 -t 2 -P 512 -s 3 -zZq --thp 1 --no-data_rand_walk"
    [write]="-p 2 -t 1 -P 256 -s 3 -q --no-data_reads"
    [read-seq]="-p 1 -t 1 -P 64 -s 3 -q -S --no-data_rand_walk --no-data_writes"
    [write-seq]="-p 1 -t 1 -P 64 -s 3 -q -S --no-data_rand_walk --no-data_reads"
    [rmw-seq-512]="-p 1 -t 1 -P 512 -s 3 -q -S --no-data_rand_walk"
)
# -q lines: " %14.3f <text>"; the key is the text's first words up to the figure's unit.
keys() { sed -n 's/^ *\([0-9.][0-9.]*\) \(GB\/sec total speed\|GB\/sec\/thread speed\|GB data processed, per thread\|nsecs\/byte\/thread runtime\)$/\2 \1/p' | tr ' ' '_' | sed 's/_\([0-9.]*\)$/ \1/'; }
for round in $(seq 1 "$ROUNDS"); do
    for c in ${NUMA_CASES:-rmw rmw-seq read zero write read-seq write-seq rmw-seq-512}; do
        # shellcheck disable=SC2086
        perf bench numa mem ${CASES[$c]} 2>/dev/null | keys | while read -r k v; do
            echo "$round perf:$c:$k $v"; done >>"$OUT/raw"
        # shellcheck disable=SC2086
        ./membench numa mem ${CASES[$c]} 2>/dev/null | keys | while read -r k v; do
            echo "$round membench:$c:$k $v"; done >>"$OUT/raw"
    done
done
python3 - "$OUT/raw" <<'EOF'
import statistics, sys
vals = {}
for line in open(sys.argv[1]):
    _, name, v = line.split()
    vals.setdefault(name, []).append(float(v))
print("| case | key | perf | membench | membench / perf |")
print("|---|---|---|---|---|")
for name in sorted(k for k in vals if k.startswith("perf:")):
    _, case, key = name.split(":")
    a, b = vals[name], vals.get("membench:%s:%s" % (case, key), [])
    if not b:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    print("| %s | %s | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.2f |" % (
        case, key.replace("_", " "), ma, min(a), max(a), mb, min(b), max(b), mb / ma if ma else float("nan")))
EOF
