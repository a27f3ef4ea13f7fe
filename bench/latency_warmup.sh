#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Does a latency visit's warm-up bring the chase back to its pace before the samples?
# 1. The pace after a flush (bench/chase_warmup.c): a 1 GiB and a 512 MiB chase,
#    ns per load in chunks of 25,000 loads after a 256 MiB streaming pass (10 times).
# 2. Default runs of this tree and of OTHER_MEMBENCH, alternating, ROUNDS each: at the
#    two largest latency sizes, each visit's first and second samples against its
#    third (1.000: the visit's samples came at the chase's pace), the medians and
#    their spread across runs.
#   bench/latency_warmup.sh OTHER_MEMBENCH [ROUNDS]     (run under flock /tmp/bench.lock)
set -euo pipefail
OTHER=$1
ROUNDS=${2:-6}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
mkdir -p build
cc -std=c11 -O2 -o build/chase_warmup bench/chase_warmup.c
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for mib in 1024 512; do
    printf '%s MiB chase after a flush, ns per load (loads before the chunk: ns):' "$mib"
    build/chase_warmup "$mib" 25000 16 10 | awk '{printf " %d:%s", $1 / 1000, $2} END {print "  (loads in thousands)"}'
done
for i in $(seq 1 "$ROUNDS"); do
    order="other this"
    [ $((i % 2)) = 0 ] && order="this other"
    for which in $order; do
        bin=./membench
        [ "$which" = other ] && bin=$OTHER
        "$bin" --json "$OUT/$which-$i.json" >/dev/null 2>&1
    done
done
python3 - "$OUT" <<'PY'
import glob, json, statistics as st, sys
from collections import defaultdict
out = sys.argv[1]
for which in ("other", "this"):
    ratios, medians = defaultdict(lambda: ([], [])), defaultdict(list)
    for path in glob.glob(f"{out}/{which}-*.json"):
        lat = [r for r in json.load(open(path))["results"] if r["operation"] == "latency"]
        for r in sorted(lat, key=lambda r: r["size_bytes"])[-2:]:
            mib = r["size_bytes"] >> 20
            medians[mib].append(r["summary"]["median"])
            visits = defaultdict(list)
            for ns, rnd in zip(r["samples"], r["sample_rounds"]):
                visits[rnd].append(ns)
            for v in visits.values():
                if len(v) >= 3:
                    ratios[mib][0].append(v[0] / v[2])
                    ratios[mib][1].append(v[1] / v[2])
    for mib in sorted(medians):
        m, (first, second) = medians[mib], ratios[mib]
        print("%-5s %5d MiB: visit's 1st/3rd sample %.3f, 2nd/3rd %.3f (medians of %d visits); "
              "median %.1f ns, runs %.1f-%.1f (spread %.1f%%, %d runs)"
              % (which, mib, st.median(first), st.median(second), len(first), st.median(m), min(m), max(m),
                 100 * (max(m) - min(m)) / st.median(m), len(m)))
PY
