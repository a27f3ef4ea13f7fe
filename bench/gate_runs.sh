#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The gate with several runs a side (issue 45, "a gate that neither cries wolf nor
# sleeps"), gate_rates.sh's successor: TRIALS trials of RUNS runs a side, each trial
# interleaving A1 B1 L1 A2 B2 L2 ... of one build, where A and B run on the host as
# it is and L runs while two `yes` loops keep both CPUs busy (a real slowdown of the
# host, not of the build). Per trial it runs the gate the way docs/compare.md's CI
# recipe does, `membench compare A1..An vs B1..Bn --threshold PCT`, on:
#   A/A         A's runs against B's: one build, so every exit 1 is a false alarm;
#   B x0.5      B's samples scaled by 0.5 (a controlled 2x slowdown: the gate's
#               statistics, not a real regression);
#   B loaded    the L runs as B (a real 2x-ish slowdown under load);
# and the same three as a single pair (A1 against B1), the old two-file form. Prints
# the share of trials at each exit status (0 pass, 1 slower, 3 cannot tell) and of
# figures at each verdict, with the median B/A.
#   flock -x /tmp/bench.lock bench/gate_runs.sh [TRIALS] [RUNS] [THRESHOLDS]
#       (default 20 5 "10"); GATE_DIR=DIR keeps the runs there (else a temporary
#       directory); GATE_ANALYSE_ONLY=1 with GATE_DIR judges runs kept before anew
#       (with this tree's membench), measuring nothing. GATE_HOGS=N keeps N more `yes`
#       loops running through every run, A and B too (a noisier host for the A/A case).
set -euo pipefail
TRIALS=${1:-20}
RUNS=${2:-5}
THRESHOLDS=${3:-10}
RUN=(-o read -o copy -s 64 -r 10)
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=${GATE_DIR:-$(mktemp -d)}
mkdir -p "$OUT"
cp membench "$OUT/membench" # a rebuild while this runs changes nothing
LOAD=()
HOGS=()
stop_load() {
    for p in "${LOAD[@]}"; do kill "$p" 2>/dev/null || true; done
    LOAD=()
}
stop_hogs() {
    for p in "${HOGS[@]}"; do kill "$p" 2>/dev/null || true; done
    HOGS=()
}
trap 'stop_load; stop_hogs; [ -n "${GATE_DIR:-}" ] || rm -rf "$OUT"' EXIT
if [ -z "${GATE_ANALYSE_ONLY:-}" ]; then
    for _ in $(seq 1 "${GATE_HOGS:-0}"); do
        yes >/dev/null &
        HOGS+=($!)
    done
    echo "${GATE_HOGS:-0}" >"$OUT/hogs"
    for t in $(seq 1 "$TRIALS"); do
        for k in $(seq 1 "$RUNS"); do
            "$OUT/membench" "${RUN[@]}" --json "$OUT/a-$t-$k.json" >/dev/null 2>&1
            "$OUT/membench" "${RUN[@]}" --json "$OUT/b-$t-$k.json" >/dev/null 2>&1
            yes >/dev/null &
            LOAD+=($!)
            yes >/dev/null &
            LOAD+=($!)
            "$OUT/membench" "${RUN[@]}" --json "$OUT/l-$t-$k.json" >/dev/null 2>&1 # its load warnings
            stop_load
        done
        echo "trial $t of $TRIALS measured ($(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    done
    stop_hogs
    date -u +%Y-%m-%dT%H:%MZ >"$OUT/finished"
fi
family=$(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
echo "membench $(git rev-parse --short HEAD), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
     "(family $family, model $model), $(nproc) CPUs; runs finished $(cat "$OUT/finished" 2>/dev/null || echo '?');" \
     "$TRIALS trials of $RUNS runs a side of: membench ${RUN[*]};" \
     "$(cat "$OUT/hogs" 2>/dev/null || echo 0) yes loop(s) through every run"
python3 - "$OUT" "$TRIALS" "$RUNS" "$THRESHOLDS" <<'PY'
import collections, json, statistics, subprocess, sys
out, trials, runs, thresholds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), [float(t) for t in sys.argv[4].split()]
membench = out + "/membench"

def runs_of(side, t):
    return ["%s/%s-%d-%d.json" % (out, side, t, k) for k in range(1, runs + 1)]

def scaled(src, factor):
    path = src.replace(".json", "-x%g.json" % factor)
    d = json.load(open(src))
    for r in d["results"]:
        r["value"] *= factor
        r["samples"] = [s * factor for s in r["samples"]]
        for k in ("min", "max", "median", "mean"):
            if r.get("summary") and r["summary"].get(k) is not None:
                r["summary"][k] *= factor
    json.dump(d, open(path, "w"))
    return path

def noise(path):
    h = json.load(open(path)).get("host_noise") or {}
    return h.get("varied_pct") or 0

quiet = [p for t in range(1, trials + 1) for p in runs_of("a", t) + runs_of("b", t)]
loaded = [p for t in range(1, trials + 1) for p in runs_of("l", t)]
print("host varied_pct: A and B runs median %.1f%% (max %.1f%%), loaded runs median %.1f%% (max %.1f%%)" % (
    statistics.median(map(noise, quiet)), max(map(noise, quiet)), statistics.median(map(noise, loaded)),
    max(map(noise, loaded))))
cases = [("A/A", lambda t: runs_of("b", t)),
         ("B x0.5", lambda t: [scaled(p, 0.5) for p in runs_of("b", t)]),
         ("B loaded", lambda t: runs_of("l", t))]
print("%-28s %5s  %7s %7s %7s  | figures: %s" % ("case", "thr", "exit 0", "exit 1", "exit 3",
                                                  "slower / within noise / cannot tell / faster; median B/A"))
for single in (False, True):
    for name, b_of in cases:
        bs = {t: b_of(t) for t in range(1, trials + 1)}
        label = "%s, %s" % (name, "one pair (A1 B1)" if single else "%d runs a side" % runs)
        for thr in thresholds:
            status, verdicts, ratios = collections.Counter(), collections.Counter(), []
            for t in range(1, trials + 1):
                a, b = runs_of("a", t), bs[t]
                args = [a[0], b[0]] if single else a + ["vs"] + b
                cj = "%s/cmp.json" % out
                p = subprocess.run([membench, "compare"] + args + ["--threshold", "%g" % thr, "--json", cj],
                                   capture_output=True, text=True)
                status[p.returncode] += 1
                for fig in json.load(open(cj))["figures"]:
                    v = fig["verdict"]
                    verdicts["slower" if v.startswith("slower") else "same" if v.startswith("no difference") else
                             "untold" if v.startswith("cannot tell") else "faster"] += 1
                    ratios.append(fig["ratio"])
            n, nf = sum(status.values()), sum(verdicts.values())
            pct = lambda c, k, n: "%5.0f%%" % (100.0 * c[k] / n)
            print("%-28s %4g%%  %7s %7s %7s  | %s / %s / %s / %s; %.2f" % (
                label, thr, pct(status, 0, n), pct(status, 1, n), pct(status, 3, n), pct(verdicts, "slower", nf),
                pct(verdicts, "same", nf), pct(verdicts, "untold", nf), pct(verdicts, "faster", nf),
                statistics.median(ratios)), flush=True)
PY
