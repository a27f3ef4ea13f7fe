"""What check_rounds.py (the sweep) and check_latency_rounds.py (membench latency)
both need: a run whose --json is read back, and a record's sample end times by round."""
import json
import os
import subprocess


def run_json(cmd, tmp, name):
    """Runs cmd + --json TMP/NAME.json; (the process, the document or None)."""
    path = os.path.join(tmp, name + ".json")
    p = subprocess.run(cmd + ["--json", path], capture_output=True, text=True, timeout=300)
    try:
        doc = json.load(open(path))
    except (OSError, ValueError):
        doc = None
    return p, doc


def by_round(r):
    """{round: [end times]} of one record."""
    out = {}
    for k, t in zip(r["sample_rounds"], r["sample_end_s"]):
        out.setdefault(k, []).append(t)
    return out
