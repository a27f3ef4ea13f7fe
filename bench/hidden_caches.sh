#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# DRAM figures when sysfs hides the caches, as Firecracker-style cloud guests do:
# a mount namespace puts an empty tmpfs over every /sys/devices/system/cpu/cpuN/cache
# (root needed; nothing outside the namespace changes). Per round, in alternating
# order: default `stream` and `bandwidth-matrix` with the caches hidden, the same at
# 1 GiB per array / per thread (DRAM beyond doubt), and, given OLD, an older binary's
# default with the caches hidden. Every run goes through `flock /tmp/bench.lock`.
# Prints each run's Triad (MB/s) and bandwidth-matrix read (MB/s) with the array or
# buffer size it chose, then medians and spreads (bench/medians.py).
#   bench/hidden_caches.sh ROUNDS [BIN] [OLD]
set -u
ROUNDS=${1:-5}
BIN=$(realpath "${2:-./membench}")
OLD=${3:+$(realpath "$3")}
TMP=$(mktemp -d /tmp/hidden-caches-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
hidden() { # CMD...: run with the cache directories hidden
    flock /tmp/bench.lock unshare -m --propagation private sh -c \
        'for d in /sys/devices/system/cpu/cpu*/cache; do mount -t tmpfs none "$d"; done; exec "$@"' sh "$@"
}
plain() { flock /tmp/bench.lock "$@"; }
triad() { # JSON: "MB/s array_bytes basis"
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["results"] if r["operation"] == "triad"]
print("%.0f %d %s" % (max(r["value"] for r in t), d["plan"]["array_elements"] * 8, d["plan"].get("size_basis", "-")))
PY
}
matrix() { # JSON: "MB/s buffer_bytes basis"
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print("%.0f %d %s" % (r["value"], d["plan"]["buffer_bytes"], d["plan"].get("size_basis", "-")))
PY
}
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs; $(date -u +%FT%TZ)"
echo "# run kind MB/s bytes basis"
for r in $(seq 1 "$ROUNDS"); do
    kinds="hidden gib${OLD:+ old}"
    [ $((r % 2)) -eq 0 ] && kinds="gib hidden${OLD:+ old}"
    for k in $kinds; do
        case $k in
        hidden) hidden "$BIN" stream --ntimes 5 --stores regular --json "$TMP/s.json" >/dev/null 2>&1
                hidden "$BIN" bandwidth-matrix --json "$TMP/m.json" >/dev/null 2>&1 ;;
        old)    hidden "$OLD" stream --ntimes 5 --stores regular --json "$TMP/s.json" >/dev/null 2>&1
                hidden "$OLD" bandwidth-matrix --json "$TMP/m.json" >/dev/null 2>&1 ;;
        gib)    plain "$BIN" stream --ntimes 5 --stores regular --size 1G --json "$TMP/s.json" >/dev/null 2>&1
                plain "$BIN" bandwidth-matrix -b 1G --json "$TMP/m.json" >/dev/null 2>&1 ;;
        esac
        echo "$r stream-$k $(triad "$TMP/s.json")"
        echo "$r matrix-$k $(matrix "$TMP/m.json")"
    done
done | tee "$TMP/rows"
python3 - "$TMP/rows" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
for kind in sorted({r[1] for r in rows}):
    v = [float(r[2]) for r in rows if r[1] == kind]
    med = statistics.median(v)
    print("%-14s median %8.0f MB/s  spread %5.1f%%  (n=%d, %s bytes)" % (kind, med, 100 * (max(v) - min(v)) / med, len(v),
          sorted({r[3] for r in rows if r[1] == kind})))
PY
