#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How steady is the last-level-cache probe (src/measure/llc_probe.h), and how long
# does it take? Runs bench/llc_probe.c N times for each of the MAX_MIB values,
# alternating them run by run, each run under flock /tmp/bench.lock (other
# benchmarks may run between two runs, never during one). Prints the reference the
# probe is meant to replace (sysfs's L3 size, lscpu's model), each run's
# llc_bytes, dram_from_bytes, sure and wall time, then per MAX_MIB the medians and
# spreads (min..max).
#   bench/llc_probe.sh [N [MIN_KIB [BUDGET_S [MAX_MIB...]]]]   (defaults 5 256 3 64 2048)
set -euo pipefail
N=${1:-5} MIN_KIB=${2:-256} BUDGET=${3:-3}
shift $(($# < 3 ? $# : 3))
MAXES=("$@")
[ ${#MAXES[@]} -gt 0 ] || MAXES=(64 2048)
cd "$(dirname "$0")/.."
make -s build/membench-tests >/dev/null 2>&1 || true # the library objects under build/src
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -pthread \
    -Isrc -o build/llc_probe bench/llc_probe.c src/measure/llc_probe.c \
    $(find build/src -name '*.o' | grep -v -e /main.o -e /llc_probe.o -e /modes/ -e /cli/) -lm

l3=none
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
    [ "$(cat "$d/level" 2>/dev/null)" = 3 ] && l3=$(cat "$d/size")
done
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; sysfs L3 (reference): $l3"
echo "# min ${MIN_KIB} KiB, budget ${BUDGET} s, max alternating: ${MAXES[*]} MiB; $N runs each"
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
for i in $(seq "$N"); do
    for max in "${MAXES[@]}"; do
        line=$(flock /tmp/bench.lock build/llc_probe "$MIN_KIB" "$max" "$BUDGET" "$i" | grep '^result')
        get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
        printf 'run %d max %5d MiB: llc %10s dram_from %10s sure %s batches %s wall %6s s (sysfs L3 %s)\n' "$i" \
            "$max" "$(get llc_bytes)" "$(get dram_from)" "$(get sure)" "$(get batches)" "$(get wall_s)" "$l3"
        echo "$max $(get llc_bytes) $(get dram_from) $(get sure) $(get wall_s) $(get edge_found) $(get dram_found)" >>"$OUT"
    done
done
python3 - "$OUT" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    mx, llc, dram, sure, wall, edge, dfound = line.split()
    runs[int(mx)].append((int(llc), int(dram), int(sure), float(wall), int(edge), int(dfound)))
mib = lambda b: "%.4g MiB" % (b / 2**20)
for mx, rs in runs.items():
    llc = [r[0] for r in rs if r[4]]
    dram = [r[1] for r in rs if r[5]]
    wall = [r[3] for r in rs]
    def spread(xs, f):
        return "median %s (%s..%s)" % (f(statistics.median(xs)), f(min(xs)), f(max(xs))) if xs else "none"
    print("max %d MiB: %d runs; edge found %d, DRAM found %d, sure %d" %
          (mx, len(rs), len(llc), len(dram), sum(r[2] for r in rs)))
    print("  llc_bytes       %s" % spread(llc, mib))
    print("  dram_from_bytes %s" % spread(dram, mib))
    print("  wall            %s" % spread(wall, lambda s: "%.2f s" % s))
PY
