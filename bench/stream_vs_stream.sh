#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench stream against McCalpin's STREAM, like for like (issue 45 item 3): the same
# arrays (--size SIZE each), every usable CPU, STREAM built -O3 -march=native -fopenmp
# from a stream.c you give (fetched by you, never kept in this tree), alternating
# process by process, ROUNDS rounds. Both count STREAM's bytes (Copy 16 B, Triad 24 B
# an element, MB = 10^6 B) and report the best of NTIMES less the first. Prints each
# round's Copy and Triad for STREAM and for membench's regular and non-temporal stores
# (with --stores both, the first block of membench's table, then the second; the
# comparison lines after them are skipped), then the medians, spreads and ratios,
# against STREAM -O3 and against STREAM-loop (the same with its Copy kept a loop).
#   bench/stream_vs_stream.sh STREAM_C [ROUNDS] [SIZE]     (run under flock -x /tmp/bench.lock)
set -euo pipefail
SRC=${1:?usage: stream_vs_stream.sh STREAM_C [ROUNDS] [SIZE]}
ROUNDS=${2:-6}
SIZE=${3:-1G}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# the element count membench takes for --size, so both run the same arrays
./membench stream --size "$SIZE" --plan --json "$OUT/plan.json" >/dev/null
N=$(python3 -c "import json; print(json.load(open('$OUT/plan.json'))['plan']['array_elements'])")
gcc -O3 -march=native -fopenmp -mcmodel=medium -DSTREAM_ARRAY_SIZE="$N" -DNTIMES=10 "$SRC" -o "$OUT/stream"
# gcc -O3 turns STREAM's Copy loop into a call to glibc's memcpy, which copies a
# large range with non-temporal stores: like for like with membench's non-temporal
# Copy. The same source with the loop kept (regular stores) is like for like with
# membench's regular Copy.
gcc -O3 -march=native -fopenmp -mcmodel=medium -fno-tree-loop-distribute-patterns -DSTREAM_ARRAY_SIZE="$N" \
    -DNTIMES=10 "$SRC" -o "$OUT/stream-loop"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs; arrays of $N doubles ($SIZE each)"
echo "# gcc $(gcc -dumpversion) -O3 -march=native -fopenmp; OMP_NUM_THREADS unset (every CPU), as membench stream"
for r in $(seq 1 "$ROUNDS"); do
    "$OUT/stream" | awk -v r="$r" '/^Copy:|^Triad:/ {sub(":", "", $1); print r, "STREAM", $1, $2}' >>"$OUT/raw"
    "$OUT/stream-loop" | awk -v r="$r" '/^Copy:|^Triad:/ {sub(":", "", $1); print r, "STREAM-loop", $1, $2}' >>"$OUT/raw"
    # membench's own kernel choice, then AVX-512 given (where the CPU has it)
    for k in best avx512; do
        [ "$k" = best ] && kernel=() tag=membench || kernel=(--kernel "$k") tag=membench-$k
        ./membench stream --size "$SIZE" --stores both --ntimes 10 "${kernel[@]}" 2>/dev/null |
            awk -v r="$r" -v t="$tag" '/^Copy:|^Triad:/ {sub(":", "", $1); n = seen[$1]++; if (n < 2) print r, t (n ? "-nt" : "-regular"), $1, $2}' >>"$OUT/raw" || true
    done
done
cat "$OUT/raw"
python3 - "$OUT/raw" <<'PY'
import collections, statistics, sys
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, tool, fn, rate = line.split()
    v[(tool, fn)].append(float(rate))
for fn in ("Copy", "Triad"):
    ref = statistics.median(v[("STREAM", fn)])
    loop = statistics.median(v[("STREAM-loop", fn)])
    for tool in ("STREAM", "STREAM-loop", "membench-regular", "membench-nt", "membench-avx512-regular",
                 "membench-avx512-nt"):
        x = v.get((tool, fn))
        if not x:
            continue
        print("%-6s %-24s median %8.1f MB/s  range %8.1f-%8.1f  spread %.2fx  vs STREAM %.3f  vs STREAM-loop %.3f" % (
            fn, tool, statistics.median(x), min(x), max(x), max(x) / min(x), statistics.median(x) / ref,
            statistics.median(x) / loop))
PY
