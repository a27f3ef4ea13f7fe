#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How often `membench compare --threshold PCT` passes (0), fails (1) or cannot tell
# (3) (issue 37, "the gate"): PAIRS pairs of short runs of one build, one after the
# other on a quiet host (A/A: every 1 is a false alarm), the same B runs with their
# samples scaled to 0.9, 0.75 and 0.5 of themselves (a controlled 10%, 25% and 2x
# slowdown: the statistics of the gate, not of a real regression), 0.5 again with B's
# host_noise.varied_pct doctored to 99.9, and B runs made while two `yes` loops keep
# both CPUs busy (a real loaded host; no scaling). Per threshold it prints the share
# of pairs at each exit status and of figures at each verdict.
#   flock /tmp/bench.lock bench/gate_rates.sh [PAIRS] [THRESHOLDS]   (default 20 "5 10 20")
# One run a side; the gate of several runs a side, interleaved, is bench/gate_runs.sh
# (issue 45). Since then a single pair calls a difference under 2x "cannot tell".
set -euo pipefail
PAIRS=${1:-20}
THRESHOLDS=${2:-5 10 20}
RUN=(-o read -o copy -s 64 -r 10)
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
cp membench "$OUT/membench" # a rebuild while this runs changes nothing
LOAD=()
trap 'for p in "${LOAD[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$OUT"' EXIT
for i in $(seq 1 "$PAIRS"); do
    "$OUT/membench" "${RUN[@]}" --json "$OUT/a-$i.json" >/dev/null
    "$OUT/membench" "${RUN[@]}" --json "$OUT/b-$i.json" >/dev/null
done
yes >/dev/null &
LOAD+=($!)
yes >/dev/null &
LOAD+=($!)
for i in $(seq 1 "$PAIRS"); do
    "$OUT/membench" "${RUN[@]}" --json "$OUT/loaded-$i.json" >/dev/null 2>&1 # its load warnings
done
for p in "${LOAD[@]}"; do kill "$p"; done
LOAD=()
echo "membench $(git rev-parse --short HEAD), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
     "$(nproc) CPUs; $PAIRS pairs of: membench ${RUN[*]}"
python3 - "$OUT" "$PAIRS" "$THRESHOLDS" <<'PY'
import collections, copy, json, os, statistics, subprocess, sys
out, pairs, thresholds = sys.argv[1], int(sys.argv[2]), [float(t) for t in sys.argv[3].split()]

def scaled(src, factor, varied=None):
    d = json.load(open(src))
    for r in d["results"]:
        r["value"] *= factor
        r["samples"] = [s * factor for s in r["samples"]]
        for k in ("min", "max", "median", "mean"):
            if r.get("summary") and r["summary"].get(k) is not None:
                r["summary"][k] *= factor
    if varied is not None:
        d["host_noise"]["varied_pct"] = varied
    path = src.replace(".json", "-x%g%s.json" % (factor, "-doctored" if varied is not None else ""))
    json.dump(d, open(path, "w"))
    return path

def noise(path):
    return json.load(open(path))["host_noise"]["varied_pct"]

cases = [("A/A, quiet", lambda i: "%s/b-%d.json" % (out, i))]
for f in (0.9, 0.75, 0.5):
    cases.append(("B x%g" % f, lambda i, f=f: scaled("%s/b-%d.json" % (out, i), f)))
cases.append(("B x0.5, B claims 99.9%", lambda i: scaled("%s/b-%d.json" % (out, i), 0.5, 99.9)))
cases.append(("B on a loaded host", lambda i: "%s/loaded-%d.json" % (out, i)))
print("host varied_pct: quiet median %.1f%% (max %.1f%%), loaded median %.1f%% (max %.1f%%)" % (
    statistics.median(noise("%s/b-%d.json" % (out, i)) for i in range(1, pairs + 1)),
    max(noise("%s/b-%d.json" % (out, i)) for i in range(1, pairs + 1)),
    statistics.median(noise("%s/loaded-%d.json" % (out, i)) for i in range(1, pairs + 1)),
    max(noise("%s/loaded-%d.json" % (out, i)) for i in range(1, pairs + 1))))
print("%-24s %5s  %7s %7s %7s  | figures: %s" % ("case", "thr", "exit 0", "exit 1", "exit 3",
                                                  "slower / within noise / cannot tell / faster; median B/A"))
for name, b_of in cases:
    bs = [b_of(i) for i in range(1, pairs + 1)]
    for t in thresholds:
        status, verdicts, ratios = collections.Counter(), collections.Counter(), []
        for i, b in enumerate(bs, 1):
            cj = "%s/cmp.json" % out
            p = subprocess.run([out + "/membench", "compare", "%s/a-%d.json" % (out, i), b, "--threshold", "%g" % t,
                                "--json", cj], capture_output=True, text=True)
            status[p.returncode] += 1
            for fig in json.load(open(cj))["figures"]:
                v = fig["verdict"]
                verdicts["slower" if v.startswith("slower") else "same" if v.startswith("no difference") else
                         "untold" if v.startswith("cannot tell") else "faster"] += 1
                ratios.append(fig["ratio"])
        n, nf = sum(status.values()), sum(verdicts.values())
        pct = lambda c, k, n: "%5.0f%%" % (100.0 * c[k] / n)
        print("%-24s %4g%%  %7s %7s %7s  | %s / %s / %s / %s; %.2f" % (
            name, t, pct(status, 0, n), pct(status, 1, n), pct(status, 3, n), pct(verdicts, "slower", nf),
            pct(verdicts, "same", nf), pct(verdicts, "untold", nf), pct(verdicts, "faster", nf),
            statistics.median(ratios)), flush=True)
PY
