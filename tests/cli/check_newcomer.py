#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A newcomer's first hour: every command of README.md's "Common tasks" table, read
from README.md itself, run in a short form (small explicit sizes, short times:
a default-sized run plans gigabytes here), and each must exit 0 and show that it
ran (its output, or the file it was asked to write). A command that needs MPI or
Slurm is a TAP skip naming why; a command the table gains without a short form
here fails, so the table and this test move together. TAP lines.

  check_newcomer.py MEMBENCH TMPDIR"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

BIN, TMP = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")
from round_records import check, results  # noqa: E402

SWEEP = ["-s", "256", "-r", "1", "--time-budget", "0"]
# The short form of each mode: arguments added after the README's (later flags win),
# and sizes the README gives replaced by small ones.
SHORT = {
    "sweep": SWEEP,
    "stream": ["-n", "1000000", "--ntimes", "3"],
    "peak-bandwidth": ["-b", "8M", "-t", "0.1"],
    "latency": ["--min", "256K", "--max", "512K", "--points-per-octave", "1", "--rounds", "1"],
    "topology": [],
    # MLC's default sequence takes 30 s here even with -b 4M -t 0.02 (check_mlc.py
    # runs it); its first test, the idle latency, stands in for it
    "mlc": ["--idle_latency", "-b", "4M"],
    "numa-mem": [],
    "report": [],
    "compare": [],
}
REPLACE = {"-P": "32", "-s": "0.3", "--min": "256K", "--max": "512K"}


def task_commands():
    """(task, command) for each backticked command in the table's command column."""
    rows, inside = [], False
    for line in open(README):
        if line.startswith("## "):
            inside = line.strip() == "## Common tasks"
            continue
        if not inside or not line.startswith("|") or line.startswith("| ---") or line.startswith("| I want"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2:
            continue
        for cmd in re.findall(r"`([^`]+)`", cells[1]):
            if cmd.split()[0] in ("membench", "mpirun", "srun", "membench-mpi"):
                rows.append((cells[0], cmd))
    return rows


def mode_of(argv):
    return argv[1] if len(argv) > 1 and not argv[1].startswith("-") else "sweep"


def shorten(argv, mode):
    out = [BIN]
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if mode == "numa-mem" and a in REPLACE and i + 1 < len(args):
            out += [a, REPLACE[a]]
            i += 2
            continue
        if mode == "latency" and a in ("--min", "--max") and i + 1 < len(args):
            out += [a, REPLACE[a]]
            i += 2
            continue
        if a.endswith(".prom") or a.startswith("/var/"):
            a = os.path.join(TMP, os.path.basename(a))
        out.append(a)
        i += 1
    if mode == "sweep" and "--target-ci" in out:  # rounds until within: bounded here
        return out + ["-s", "256", "-r", "1", "--max-time", "2"]
    if mode == "latency" and "--min" in out:
        return out + ["--points-per-octave", "1", "--rounds", "1"]
    extra = SHORT[mode]
    if mode == "sweep" and "--max-size" in out:  # the row's cap is its point: every size up to it, -s conflicts
        extra = ["-r", "1", "--time-budget", "0", "--sample-ms", "1", "--latency-sample-ms", "1"]
    if mode == "sweep" and "-s" in out:  # the row's own size (-s 64M) is the point of the row
        extra = [a for a in extra if a not in ("-s", "256")] + ["-o", "read"]  # one operation at 64 MiB
    return out + extra


def shown(mode, argv, p):
    """Some output that shows the command ran."""
    outs = [a for a in argv if a.endswith((".json", ".html", ".csv", ".prom"))]
    if mode == "compare":  # a gate: 0 passed, 1 slower, 3 cannot tell (README), each said
        return re.search(r"^Threshold 10%: ", p.stdout, re.M) is not None
    if outs and mode != "report":
        return all(os.path.getsize(o) > 0 for o in outs if os.path.exists(o)) and all(os.path.exists(o) for o in outs)
    if mode == "report":
        return all(os.path.exists(o) and os.path.getsize(o) > 0 for o in outs)
    return len(p.stdout.strip().splitlines()) >= 2


rows = task_commands()
check("README.md's Common tasks table has commands to run (%d)" % len(rows), len(rows) >= 10, rows)
os.makedirs(os.path.join(TMP, "runs"), exist_ok=True)
for task, cmd in rows:
    argv = shlex.split(cmd)
    if argv[0] in ("mpirun", "srun"):
        print("ok - newcomer: %s # skip %s needs %s (make check-mpi, check-slurm)" %
              (cmd, argv[0], "Open MPI" if argv[0] == "mpirun" else "Slurm"))
        continue
    if "DIR" in argv:
        print("ok - newcomer: %s # skip DIR is a placeholder (check_plan.py runs --sysfs)" % cmd)
        continue
    mode = mode_of(argv)
    if mode not in SHORT:
        check("newcomer: %s has a short form in check_newcomer.py (mode %s)" % (cmd, mode), False)
        continue
    # the files the report and compare rows read: the run the JSON row kept
    if mode in ("report", "compare"):
        kept = os.path.join(TMP, "lat.json")
        for name in ("a.json", "b.json", "A.json", "B.json", "runs/x.json", "runs/y.json", "a-1.json", "a-2.json",
                     "b-1.json", "b-2.json"):
            if os.path.exists(kept):
                shutil.copy(kept, os.path.join(TMP, name))
        argv = [x for a in argv for x in (sorted(glob.glob(os.path.join(TMP, a))) if "*" in a else [a])]
        argv = [os.path.relpath(a, TMP) if a.startswith(TMP) else a for a in argv]
    run = shorten(argv, mode)
    try:
        t0 = time.time()
        p = subprocess.run(run, cwd=TMP, capture_output=True, text=True, timeout=60)
        print("# %.1f s: membench %s" % (time.time() - t0, " ".join(run[1:])))
    except subprocess.TimeoutExpired:
        check("newcomer: %s (as %s) ends" % (cmd, " ".join(run[1:])), False)
        continue
    files = [os.path.join(TMP, a) for a in run if a.endswith((".json", ".html", ".csv", ".prom"))]
    ok = (p.returncode in (0, 1, 3) if mode == "compare" else p.returncode == 0) and shown(mode, files, p)
    check("newcomer: %s (as membench %s): %s and its output" %
          (cmd, " ".join(run[1:]), "the gate's exit status" if mode == "compare" else "exit 0"), ok,
          (p.returncode, p.stdout[-300:], p.stderr[-300:]))

sys.exit(0 if all(results) else 1)
