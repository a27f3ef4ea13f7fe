# SPDX-License-Identifier: MIT
"""What the check scripts share: one check() for their TAP lines, a run whose --json
is read back, and a record's sample end times by round."""
import json
import os
import subprocess
import sys
import time


# Every check's verdict, in order: the script exits 0 when all are true.
results = []


def check(name, cond, detail=""):
    """One TAP line; what went wrong below it when it failed. Under
    MEMBENCH_CHECK_FAILFAST=1 (make check-mutants) the first failure ends the script:
    one failure is all a planted bug needs, and the rest of a suite is its time."""
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + name)
    if not cond and detail:
        print("    " + str(detail)[:600].replace("\n", "\\n"))
    if not cond and os.environ.get("MEMBENCH_CHECK_FAILFAST") == "1":
        sys.stdout.flush()
        sys.exit(1)


def load_doc(path):
    """The JSON document at path, or None when there is none or it does not parse."""
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None


def wait_for_doc(path, proc, ready=lambda d: True, timeout=10):
    """Waits while proc runs, up to timeout s, until its --json document at path parses
    and ready(it) holds (a run writes it once measuring starts, its stop handlers
    armed): a signal sent after a fixed sleep alone came too early on a loaded host."""
    deadline = time.time() + timeout
    while time.time() < deadline and proc.poll() is None:
        d = load_doc(path)
        if d is not None and ready(d):
            return True
        time.sleep(0.02)
    return False


def run_json(cmd, tmp, name, env=None):
    """Runs cmd + --json TMP/NAME.json (env: variables added to the environment);
    (the process, the document or None)."""
    path = os.path.join(tmp, name + ".json")
    p = subprocess.run(cmd + ["--json", path], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, **(env or {})))
    return p, load_doc(path)


def by_round(r):
    """{round: [end times]} of one record."""
    out = {}
    for k, t in zip(r["sample_rounds"], r["sample_end_s"]):
        out.setdefault(k, []).append(t)
    return out


def target_verdicts(recs, target_pct):
    """--target-ci's verdict recomputed from each record's own median interval: met
    when its larger side is within target_pct of the median at a level of 95% or more
    (plan/round_schedule's rule). (records whose target_ci_met disagrees, as
    "size op: says X, interval +-Y% at Z"; the records that missed)."""
    wrong, missed = [], []
    for r in recs:
        s, mi = r["summary"], r["summary"].get("median_interval")
        half, level = None, 0
        if mi and s["median"] > 0 and mi.get("level", 0) > 0:
            half = max(mi["high"] - s["median"], s["median"] - mi["low"]) / s["median"]
            level = mi["level"]
        met = half is not None and len(r["samples"]) >= 2 and level >= 0.95 and half <= target_pct / 100
        if half is not None and abs(half - target_pct / 100) < 1e-9:
            met = r["params"].get("target_ci_met")  # on the edge: rounding decides, not the rule
        if r["params"].get("target_ci_met") is not met:
            wrong.append("%s %s: says %s, interval +-%s%% at %s" % (r["size_bytes"], r["operation"],
                         r["params"].get("target_ci_met"), half and round(100 * half, 5), level))
        if not met:
            missed.append(r)
    return wrong, missed
