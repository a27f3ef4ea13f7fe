#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A 16 KiB read (L1) right after other work (likwid-bench load_avx on 1 GiB, the plain
# chase), with one thread and with two, in turns, ROUNDS times: is a slow process slow
# with one thread too (then it is not two threads sharing a core), and how often?
#   bench/after_other_work.sh [ROUNDS]          (run under flock /tmp/bench.lock)
set -euo pipefail
ROUNDS=${1:-8}
command -v likwid-bench >/dev/null || { echo "after_other_work.sh: needs likwid-bench (apt-get install likwid)" >&2; exit 2; }
cd "$(dirname "$0")/.."
make -s membench >/dev/null
mkdir -p build
cc -std=c11 -O2 -o build/plain_chase bench/plain_chase.c
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for i in $(seq 1 "$ROUNDS"); do
  likwid-bench -t load_avx -w S0:1GB:2 >/dev/null 2>&1
  build/plain_chase 256 >/dev/null
  if [ $((i % 2)) = 1 ]; then order="1 2"; else order="2 1"; fi
  for p in $order; do
    ./membench -o read -s 16 -r 5 -p $p --json "$OUT/oe-$i-$p.json" >/dev/null 2>&1
  done
  python3 - "$i" "$OUT" <<'PY'
import json, sys
i, out_dir = sys.argv[1], sys.argv[2]
out = []
for p in (1,2):
    r = json.load(open('%s/oe-%s-%d.json' % (out_dir, i, p)))['results'][0]
    out.append('-p %d: %.0f GB/s per thread' % (p, r['summary']['median'] / p / 1000))
print(i, ' | '.join(out), flush=True)
PY
done
