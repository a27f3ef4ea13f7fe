#!/bin/bash
# SPDX-License-Identifier: MIT
# membench compare on a large pair of runs: writes A and B run documents of N
# figures each (default 20000; 12 samples in 4 rounds per figure, as a sweep with
# -r 12 writes them; B a mix of faster, slower and unchanged figures), then times
# `membench compare A B --threshold 5` with /usr/bin/time -v (wall time, peak RSS).
#   bench/compare_scale.sh [N] [MEMBENCH] [DIR]
# Timing runs take /tmp/bench.lock (the machine is shared).
set -euo pipefail
n=${1:-20000}
membench=${2:-./membench}
dir=${3:-$(mktemp -d)}
mkdir -p "$dir"
python3 - "$n" "$dir" <<'EOF'
import json, random, sys
n, out = int(sys.argv[1]), sys.argv[2]
ops = ["read", "write", "copy", "latency"]
def doc(factor_of):
    rnd = random.Random(7)
    results = []
    for i in range(n):
        op = ops[i % 4]
        metric = "latency" if op == "latency" else "bandwidth"
        base = 100.0 + (i % 97)
        f = factor_of(i)
        samples = [round(base * f * (1 + rnd.gauss(0, 0.02)), 3) for _ in range(12)]
        results.append({"mode": "sweep", "operation": op, "metric": metric,
                        "unit": "ns" if metric == "latency" else "MB/s", "value": max(samples),
                        "size_bytes": 1024 * (1 + i // 4), "threads": 2,
                        "placement": [{"thread": 0, "cpu": 0, "node": 0, "memory_node": 0},
                                      {"thread": 1, "cpu": 1, "node": 0, "memory_node": 0}],
                        "samples": samples, "sample_rounds": [k // 3 for k in range(12)], "complete": True})
    return {"tool": "membench", "version": "0.1.0", "schema": 2, "mode": "sweep", "complete": True,
            "started_at": "2026-01-01T00:00:00Z",
            "host": {"hostname": "vm", "cpu_model": "EPYC", "kernel": "Linux 6"},
            "host_noise": None, "options": {"tries": 12}, "results": results}
# B: every 3rd figure 10% slower, every 3rd + 1 10% faster, the rest unchanged
steps = {0: 0.9, 1: 1.1, 2: 1.0}
json.dump(doc(lambda i: 1.0), open(out + "/a.json", "w"))
json.dump(doc(lambda i: steps[i % 3]), open(out + "/b.json", "w"))
EOF
echo "files: $dir/a.json $dir/b.json ($n figures each)"
status=0
flock /tmp/bench.lock /usr/bin/time -v "$membench" compare "$dir/a.json" "$dir/b.json" --threshold 5 \
    >"$dir/table.txt" 2>"$dir/time.txt" || status=$?
echo "exit status $status (1: figures beyond the threshold, as expected)"
tail -n 2 "$dir/table.txt"
grep -E "Elapsed \(wall|Maximum resident|User time|System time" "$dir/time.txt"
