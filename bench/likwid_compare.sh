#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench vs likwid-bench on the same working set, interleaved round by round so
# slow drifts of a shared machine hit both tools alike.
#
#   [WS_KB=N] bench/likwid_compare.sh [ROUNDS] [MEMBENCH_EXTRA_ARGS...]
#
# Working set: WS_KB KiB over 2 threads (default 1 GiB: likwid -w S0:1048576kB:2).
# likwid splits the working set over its streams and threads, so per thread:
# read/write WS/2, copy WS/4 source + WS/4 destination; membench is run with the
# same per-thread sizes. WS_KB=64 is the L1 case (copy: 16 KiB + 16 KiB a thread).
# Byte counting: likwid counts every byte loaded or stored by the kernel (copy: 16 B
# per element: 8 read + 8 written); membench counts sc-membench style (copy: the
# buffer size once), so membench copy figures are doubled before comparing. Both
# use 10^6 bytes per MB. Neither counts write-allocate traffic.
set -euo pipefail
ROUNDS=${1:-5}
shift || true
EXTRA=("$@")
cd "$(dirname "$0")/.."
if ! command -v likwid-bench >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid >/dev/null
fi
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

WS_KB=${WS_KB:-1048576}
# pairs: label likwid_kernel membench_op per_thread_kb count_factor
PAIRS=(
    "read:load_avx:read:$((WS_KB / 2)):1"
    "write:store_avx:write:$((WS_KB / 2)):1"
    "write-nt:store_mem_avx:write-nt:$((WS_KB / 2)):1"
    "copy:copy_avx:copy:$((WS_KB / 4)):2"
    "copy-nt:copy_mem_avx:copy-nt:$((WS_KB / 4)):2"
)
for round in $(seq 1 "$ROUNDS"); do
    for p in "${PAIRS[@]}"; do
        IFS=: read -r label lk op kb factor <<<"$p"
        l=$(likwid-bench -t "$lk" -w "S0:${WS_KB}kB:2" 2>/dev/null | awk '/^MByte\/s/ {print $2}')
        m=$(./membench -s "$kb" -o "$op" "${EXTRA[@]}" | awk -F, -v f="$factor" 'NR == 2 {print $3 * f}')
        echo "$round $label $lk $l $m" >>"$OUT/raw"
    done
    echo "round $round/$ROUNDS done" >&2
done
python3 - "$OUT/raw" <<'PY'
import sys, statistics as st, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, label, lk, l, m = line.split()
    rows[(label, lk)].append((float(l), float(m)))
print(f"{'op':9} {'likwid kernel':14} {'likwid MB/s':>12} {'membench MB/s':>14} {'ratio':>6} {'paired ratio min..max':>22}")
for (label, lk), v in rows.items():
    l = [a for a, _ in v]; m = [b for _, b in v]; ratios = [b / a for a, b in v]
    print(f"{label:9} {lk:14} {st.median(l):12.0f} {st.median(m):14.0f} {st.median(ratios):6.2f} "
          f"{min(ratios):10.2f}..{max(ratios):.2f}   likwid spread {100*(max(l)-min(l))/st.median(l):.0f}%, "
          f"membench spread {100*(max(m)-min(m))/st.median(m):.0f}%")
print(f"(medians over {len(next(iter(rows.values())))} interleaved rounds; ratio = median of per-round membench/likwid)")
PY
