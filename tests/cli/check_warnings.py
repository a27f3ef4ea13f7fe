#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a newcomer's terminal says of warnings: without -v, at the end of the run,
each kind that changes how to read the results once (its warning itself when it
came once, else "KIND xN: ..." with N the number of its warnings in the JSON),
kinds that do not change the reading not at all; -v says every warning; JSON keeps
every warning with its kind; a run stopped by Ctrl-C still says what it saw. And
the progress line on a terminal (a pty here): "round i/N" for every round the
JSON's plan says ran, an ETA only once a round is done. Prints TAP lines for
run_cli_tests.sh, or with --grouped JSON STDERR checks one run's stderr (exit 1).

  check_warnings.py MEMBENCH TMPDIR
  check_warnings.py --grouped RUN.json RUN.err"""
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

from round_records import check, load_doc, results, run_json

# The kinds said only under -v and in JSON (src/core/warn_kind.c, docs/uncertainty.md).
DETAIL = {"memory_budget", "host_steal", "cpu_pressure", "memory_pressure", "one_node", "package_cache", "host_noise"}
SAID = re.compile(r"^membench[a-z -]*: warning: (.*)$")  # "membench numa mem: warning: ..."
GROUPED = re.compile(r"^([a-z_]+) x(\d+): ")


def grouped_problems(doc, err):
    """How stderr's warning lines break the rule for doc's warnings; [] when they keep it."""
    bad, counts, first = [], {}, {}
    for w, k in zip(doc["warnings"], doc["warning_kinds"]):
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, w)
    if len(doc["warning_kinds"]) != len(doc["warnings"]):
        bad.append("%d kinds for %d warnings" % (len(doc["warning_kinds"]), len(doc["warnings"])))
    said = [m.group(1) for line in err.splitlines() for m in [SAID.match(line)] if m]
    want = []
    for k in dict.fromkeys(doc["warning_kinds"]):  # the kinds in the order they first came
        if k in DETAIL:
            continue
        want.append(first[k] if counts[k] == 1 else "%s x%d: " % (k, counts[k]))
    got = [s if not GROUPED.match(s) else GROUPED.match(s).group(0) for s in said]
    if got != want:
        bad.append("said %s, want %s" % (got, want))
    return bad


def main_grouped(json_path, err_path):
    bad = grouped_problems(json.load(open(json_path)), open(err_path, errors="replace").read())
    for b in bad:
        print(b)
    return 1 if bad else 0


if len(sys.argv) == 4 and sys.argv[1] == "--grouped":
    sys.exit(main_grouped(sys.argv[2], sys.argv[3]))

BIN, TMP = sys.argv[1:3]
QUICK = ["--sample-ms", "1", "--latency-sample-ms", "1"]


def run(args, name, env=None):
    return run_json([BIN] + args, TMP, name, env)


def individual(doc, kind):
    return [w for w, k in zip(doc["warnings"], doc["warning_kinds"]) if k == kind]


# --- a kind said twice: one line with its count, -v says each ---------------------
# numa-mem with -C and -M naming CPUs and nodes past the one task: two warnings of
# kind option_ignored; -c on one NUMA node: one of kind one_node (-v and JSON only).
NM = ["numa-mem", "-p", "1", "-t", "1", "-P", "8", "-l", "1", "-C", "0,0,0", "-M", "0,0,0", "-c"]
p, d = run(NM, "wk-nm")
ign = individual(d, "option_ignored") if d else []
check("numa-mem -C/-M past its task: JSON keeps both warnings, kind option_ignored",
      p.returncode == 0 and len(ign) == 2 and all("ignored" in w for w in ign), (p.returncode, d and d["warnings"]))
lines = [l for l in p.stderr.splitlines() if "option_ignored" in l or "binding" in l]
check("numa-mem: the terminal says option_ignored once, with the JSON's count (x2), and neither warning",
      d and lines == ["membench numa mem: warning: option_ignored x%d: options that do nothing here were ignored "
                      "(each: -v, or \"warnings\" in --json)" % len(ign)], p.stderr)
check("numa-mem: every kind that changes the reading said once, the others not", d and not grouped_problems(d, p.stderr),
      d and grouped_problems(d, p.stderr))
nodes = d["topology"].get("numa_nodes") if d else None
if nodes is not None and (nodes if isinstance(nodes, int) else len(nodes)) == 1:
    check("numa-mem -c on one node: the one_node warning in JSON, not on the terminal",
          individual(d, "one_node") and individual(d, "one_node")[0] not in p.stderr, p.stderr)
pv, dv = run(NM + ["-v"], "wk-nm-v")
check("numa-mem -v: each warning on its own line, as in the JSON, and no grouped line",
      dv and all(("warning: " + w) in pv.stderr for w in dv["warnings"] if w not in dv["topology"]["warnings"]) and
      len(individual(dv, "option_ignored")) == 2 and " x2: " not in pv.stderr, pv.stderr)

# -v says a warning the measurement gives (not the plan) as it comes: --target-ci of
# 0.01% is not met in 0.3 s, and the rounds say so while the run is measuring.
pt, dt = run(["-s", "64", "-o", "read", "-r", "2", "--target-ci", "0.01", "--max-time", "0.3", "-v"] + QUICK,
             "wk-tci-v")
tci = individual(dt, "target_ci") if dt else []
check("-v: a warning given while measuring (--target-ci not met) is on stderr as itself, as in the JSON",
      tci and all(("warning: " + w) in pt.stderr for w in tci) and " x1: " not in pt.stderr,
      (tci, pt.stderr[-400:]))

# --- each warning's text goes with its kind ----------------------------------------
# A warning filed under another kind is grouped, shown or hidden as that kind: the
# STREAM rule under memory_budget vanished from the terminal and JSON's
# warning_kinds was wrong, and no check paired a text with its kind. Texts whose kind
# is known, from runs that give them (stream --size 64K breaks STREAM's rule here, as
# on any machine with a cache over 16 KiB; latency --max 64K is below the DRAM rule).
TEXT_KINDS = [("is less than STREAM's rule", "stream_rule"), ("below the DRAM rule", "may_fit_cache"),
              ("fell in two levels", "two_levels"), ("options that do nothing", "option_ignored"),
              ("MemAvailable is more than the machine has", "memory_budget")]
for args, name, must in ((["stream", "--size", "64K", "--ntimes", "2"], "wk-stream", "is less than STREAM's rule"),
                         (["latency", "--min", "4K", "--max", "64K", "--sample-ms", "1"], "wk-lat",
                          "below the DRAM rule")):
    p, d = run(args, name)
    pairs = list(zip(d["warnings"], d["warning_kinds"])) if d else []
    wrong = [(w[:80], k, want) for w, k in pairs for text, want in TEXT_KINDS if text in w and k != want]
    check("membench %s: every warning of a known text is of its kind (%s), and its %r warning is there" %
          (" ".join(args), ", ".join(k for _, k in TEXT_KINDS), must),
          d and not wrong and any(must in w for w, _ in pairs) and len(d["warning_kinds"]) == len(d["warnings"]),
          wrong or (d and d["warnings"]))
    check("membench %s: the terminal says what the JSON's kinds call for" % " ".join(args),
          d and not grouped_problems(d, p.stderr), d and grouped_problems(d, p.stderr))

# --- a kind said once is its warning itself; the run's end says it -----------------
p, d = run(["-s", "64", "-o", "read", "-r", "1"] + QUICK, "wk-unpinned", {"OMP_PROC_BIND": "false"})
pl = individual(d, "placement") if d else []
check("threads not pinned: one placement warning, said as itself, after the CSV's run (once)",
      p.returncode == 0 and len(pl) == 1 and p.stderr.count(pl[0]) == 1 and not grouped_problems(d, p.stderr),
      (p.stderr, d and d["warning_kinds"]))

# --- Ctrl-C: the grouped lines still come, of what the JSON holds --------------------
path = os.path.join(TMP, "wk-int.json")
proc = subprocess.Popen([BIN, "-r", "50"] + QUICK + ["--json", path], stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, text=True, env=dict(os.environ, OMP_PROC_BIND="false"))
time.sleep(1.5)
proc.send_signal(signal.SIGINT)
_, err = proc.communicate(timeout=120)
d = load_doc(path)
check("SIGINT: exit 130, the JSON incomplete, and the terminal's warnings are its kinds, grouped",
      proc.returncode == 130 and d and d["complete"] is False and "placement" in d["warning_kinds"] and
      not grouped_problems(d, err), (proc.returncode, err, d and d["warning_kinds"]))

# --- the progress line on a terminal ---------------------------------------------------
def on_pty(args, name):
    """Runs with stderr a pty (stdout a pipe); (exit status, what the pty got, the JSON)."""
    path = os.path.join(TMP, name + ".json")
    master, slave = pty.openpty()
    proc = subprocess.Popen([BIN] + args + ["--json", path], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        r, _, _ = select.select([master], [], [], 1)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None:
            break
    proc.wait()
    os.close(master)
    return proc.returncode, out.decode(errors="replace"), load_doc(path)


PROGRESS = re.compile(r"round (\d+)(?:/(\d+))?( \(up to (\d+)\))?, ETA ([^:]+): \[(\d+)/(\d+)\]")
rc, out, d = on_pty(["-s", "64", "-o", "read", "-r", "3", "-p", "1"] + QUICK, "wk-pty")
seen = [m.groups() for m in PROGRESS.finditer(out)]
rounds = d["plan"].get("rounds") if d else None
check("progress on a terminal: 'round i/3' for each of the JSON's rounds (%s), in order" % rounds,
      rc == 0 and rounds and [int(g[0]) for g in seen] == sorted(int(g[0]) for g in seen) and
      sorted({int(g[0]) for g in seen}) == list(range(1, rounds + 1)) and
      all(g[1] == "3" and g[2] is None for g in seen if int(g[0]) <= 3), (rounds, seen[:12], out[-300:]))
# Rounds past -r 3 come only from a series restarted (a sample fell short of its length:
# the point's retakes, params.series_restarts), an end no schedule knows: '--' there
# (a CI run under ASan restarted one and showed rounds 4 and 5 so).
restarted = any(x.get("params", {}).get("series_restarts", 0) > 0 for x in (d or {}).get("results", []))
check("progress: 'ETA --' in round 1, an ETA in seconds from round 2 to 3 (after that, '--' only for a restarted "
      "series' retakes: %s)" % restarted,
      seen and all((g[4] == "--") == (g[0] == "1") for g in seen if int(g[0]) <= 3) and
      all(re.fullmatch(r"(<= )?\d+ s", g[4]) for g in seen if 1 < int(g[0]) <= 3) and
      all(restarted and g[4] == "--" for g in seen if int(g[0]) > 3), seen[:12])
rc, out, d = on_pty(["-s", "64", "-o", "latency", "-r", "3"] + QUICK, "wk-pty-lat")
seen = [m.groups() for m in PROGRESS.finditer(out)]
rounds = d["plan"].get("rounds") if d else None
check("progress, latency: 'round i/3 (up to 7)' in the -r rounds, 'round i (up to 7)' after, up to the JSON's %s"
      % rounds, rc == 0 and rounds and sorted({int(g[0]) for g in seen}) == list(range(1, rounds + 1)) and
      all(g[3] == "7" and (g[1] == "3") == (int(g[0]) <= 3) for g in seen), (rounds, seen[:12]))
rc, out, d = on_pty(["-s", "64", "-o", "read", "-r", "2", "-v"] + QUICK, "wk-pty-v")
check("progress: none under -v", rc == 0 and "ETA" not in out, out[-300:])

sys.exit(0 if all(results) else 1)
