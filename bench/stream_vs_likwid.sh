#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# membench stream vs likwid-bench, 1 and 2 threads, interleaved round by round.
#   bench/stream_vs_likwid.sh [ROUNDS]
#
# Arrays of 128 MiB (16 Mi doubles; 4x this machine's 32 MiB L3) for both tools:
# likwid's -w size is the total over its streams, so copy (2 streams) gets 256MB,
# stream (3 streams) 384MB, triad (4 streams) 512MB. Byte counting: both count the
# bytes each kernel explicitly loads and stores, 10^6 B per MB, no write-allocate:
# STREAM Copy 16 B and Triad 24 B per element; likwid copy 16 B, stream (A=B*s+C,
# the STREAM triad) 24 B, triad (A=B*C+D, four streams) 32 B.
set -euo pipefail
ROUNDS=${1:-4}
cd "$(dirname "$0")/.."
if ! command -v likwid-bench >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid >/dev/null
fi
make -s membench >/dev/null
RAW=$(mktemp)
trap 'rm -f "$RAW"' EXIT
lk() { likwid-bench -t "$1" -w "S0:$2:$3" 2>/dev/null | awk '/^MByte\/s/ {print $2}'; }
for round in $(seq 1 "$ROUNDS"); do
    for t in 1 2; do
        out=$(./membench stream -n 16777216 -p "$t" --stores both)
        copy=($(echo "$out" | awk '/^Copy:/ && n++ < 2 {print $2}'))
        triad=($(echo "$out" | awk '/^Triad:/ && n++ < 2 {print $2}'))
        echo "$t membench-copy-regular ${copy[0]}" >>"$RAW"
        echo "$t membench-copy-nt ${copy[1]}" >>"$RAW"
        echo "$t membench-triad-regular ${triad[0]}" >>"$RAW"
        echo "$t membench-triad-nt ${triad[1]}" >>"$RAW"
        echo "$t copy_avx $(lk copy_avx 256MB "$t")" >>"$RAW"
        echo "$t copy_mem_avx $(lk copy_mem_avx 256MB "$t")" >>"$RAW"
        echo "$t stream_avx $(lk stream_avx 384MB "$t")" >>"$RAW"
        echo "$t stream_mem_avx512 $(lk stream_mem_avx512 384MB "$t")" >>"$RAW"
        echo "$t triad_avx $(lk triad_avx 512MB "$t")" >>"$RAW"
        echo "$t triad_mem_avx512 $(lk triad_mem_avx512 512MB "$t")" >>"$RAW"
    done
    echo "round $round/$ROUNDS done" >&2
done
python3 - "$RAW" <<'PY'
import sys, statistics as st, collections
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    t, k, x = line.split()
    v[(int(t), k)].append(float(x))
med = {k: st.median(x) for k, x in v.items()}
pairs = [("membench-copy-nt", "copy_mem_avx"), ("membench-triad-nt", "triad_mem_avx512"),
         ("membench-triad-nt", "stream_mem_avx512"), ("membench-copy-regular", "copy_avx"),
         ("membench-triad-regular", "triad_avx"), ("membench-triad-regular", "stream_avx")]
print(f"{'threads':7} {'membench':24} {'MB/s':>9} {'likwid':18} {'MB/s':>9} {'ratio':>6}")
for t in (1, 2):
    for m, l in pairs:
        print(f"{t:7} {m:24} {med[(t,m)]:9.0f} {l:18} {med[(t,l)]:9.0f} {med[(t,m)]/med[(t,l)]:6.2f}")
print(f"(medians of {len(next(iter(v.values())))} interleaved rounds)")
PY
