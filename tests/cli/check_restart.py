#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A sweep restart at a known visit, without timing luck.

  check_restart.py MEMBENCH_FAULTY TMPDIR

build/membench-faulty with MEMBENCH_SLOW=read:4 sleeps 20 ms in the first four read
kernel calls: read is calibrated on them at visit 1 (one pass lasts longer than a
sample), and its visit-2 sample comes in short, so the series restarts there. The
sample dropped with it is taken again one round later, not in the same visit: read's
three samples lie in three consecutive rounds from round 2 on, and the run has a 4th
round. read, finished last, still comes out first: CSV and JSON keep plan order,
and each record's host steal and pressure are over its own visits.
Prints one ok/not ok line; exit 1 on failure."""
import json
import os
import subprocess
import sys

faulty, tmp = sys.argv[1], sys.argv[2]
doc = os.path.join(tmp, "restart.json")
env = dict(os.environ, MEMBENCH_SLOW="read:4")
r = subprocess.run([faulty, "-s", "128", "-o", "copy", "-o", "write", "-o", "read", "-p", "1", "-r", "3",
                    "--json", doc], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
problems = []
if r.returncode != 0:
    problems.append("exit status %d: %s" % (r.returncode, r.stderr.strip()))
else:
    csv_ops = [line.split(",")[1] for line in r.stdout.splitlines()[1:] if line]
    d = json.load(open(doc))
    ops = [x["operation"] for x in d["results"]]
    rs = {x["operation"]: x for x in d["results"]}
    if csv_ops != ["read", "write", "copy"] or ops != ["read", "write", "copy"]:
        problems.append("not in plan order: CSV %s, JSON %s" % (csv_ops, ops))
    rd = rs.get("read", {}).get("sample_rounds", [])
    if rs.get("read", {}).get("params", {}).get("series_restarts", 0) < 1:
        problems.append("read did not restart")
    if len(rd) != 3 or rd[0] < 2 or rd != list(range(rd[0], rd[0] + 3)):
        problems.append("read's samples not in 3 consecutive rounds after round 1: %s" % rd)
    if not rd or not d["plan"]["rounds"] >= rd[-1] >= 4:
        problems.append("the run's rounds (%s) do not include read's retake (%s)" % (d["plan"]["rounds"], rd))
    for op in ("write", "copy"):
        if len(set(rs.get(op, {}).get("sample_rounds", []))) != 3:
            problems.append("%s's samples not in 3 rounds: %s" % (op, rs.get(op, {}).get("sample_rounds")))
    # write and copy go out right after read, at once: their host figures are over
    # their own visits (each 3 samples of >= 10 ms), not the instant since read's record.
    for x in d["results"]:
        pr = x["params"]
        if not pr.get("host_load_s", 0) >= x["summary"]["n"] * pr["min_sample_s"]:
            problems.append("%s's host figures over %s s, less than its %d samples of >= %s s"
                            % (x["operation"], pr.get("host_load_s"), x["summary"]["n"], pr["min_sample_s"]))
        if os.access("/proc/stat", os.R_OK) and "host_steal_pct" not in pr:
            problems.append("%s has no host_steal_pct" % x["operation"])
name = ("sweep restart at visit 2: read's 3 samples in 3 consecutive rounds after round 1 (a 4th round), CSV and JSON "
        "in plan order, host load over each point's own visits")
print(("ok - %s" if not problems else "not ok - %s") % name)
for p in problems:
    print("    " + p)
sys.exit(1 if problems else 0)
