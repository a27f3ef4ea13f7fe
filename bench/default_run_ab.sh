#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The default run of this tree against another build, alternating, ROUNDS times each:
# wall time, seconds spent in bandwidth and in latency points (the records'
# host_load_s, the time of their visits), the rounds run and whether the time budget
# cut any (plan.time_budget_cut), the overhead (the run's time outside its rounds:
# startup, topology, cache probe, planning, teams, output), the DRAM figures of the
# largest size, so a change in speed shows whether the numbers moved with it, and
# the host-noise verdict.
#   bench/default_run_ab.sh OTHER_MEMBENCH [ROUNDS]     (run under flock /tmp/bench.lock)
set -euo pipefail
OTHER=$1
ROUNDS=${2:-3}
cd "$(dirname "$0")/.."
make -s membench >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for i in $(seq 1 "$ROUNDS"); do
    for which in other this; do
        bin=./membench
        [ "$which" = other ] && bin=$OTHER
        t0=$(date +%s.%N)
        "$bin" --json "$OUT/$which-$i.json" >/dev/null 2>&1
        t1=$(date +%s.%N)
        python3 - "$which" "$(echo "$t1 - $t0" | bc)" "$OUT/$which-$i.json" <<'PY'
import json, sys
which, wall, path = sys.argv[1:]
doc = json.load(open(path))
rs, noise = doc["results"], doc["host_noise"]
bw = sum(r["params"].get("host_load_s", 0) for r in rs if r["operation"] != "latency")
lat = sum(r["params"].get("host_load_s", 0) for r in rs if r["operation"] == "latency")
top = max(r["size_bytes"] for r in rs)
measuring = max(t for r in rs for t in r.get("sample_end_s", [0]))
plan = doc["plan"]
rounds = "rounds %s%s" % (plan.get("rounds"), " (budget cut)" if plan.get("time_budget_cut") else "")
figs = " ".join("%s %.1f %s" % (r["operation"], r["value"] / 1000 if r["operation"] != "latency" else r["value"],
                                "GB/s" if r["operation"] != "latency" else "ns")
                for r in rs if r["size_bytes"] == top)
verdict = "host ±%.1f%% (%d probes)" % (noise["varied_pct"], noise["probes"]) if noise["varied_pct"] is not None \
    else "host: no verdict (%d probes)" % noise["probes"]
print("%-5s %6.1f s  overhead %4.1f s  bandwidth %5.1f s  latency %5.1f s  %s | %d MiB: %s | %s" % (
    which, float(wall), float(wall) - measuring, bw, lat, rounds, top >> 20, figs, verdict), flush=True)
PY
    done
done
