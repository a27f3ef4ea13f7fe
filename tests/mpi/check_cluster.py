#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a membench-mpi cluster JSON against what the run promised.

  check_cluster.py FILE RANKS [key=value ...]

Always: the document is JSON, "mode" is "cluster", one node per rank in rank order,
each with host, status, error and exit_status; every node with a document holds a
schema-2 run document (written out and validated by tests/cli/check_schema.py);
an ok node's figures are those its document's results give (best bandwidth per
operation; STREAM: Triad; latency at the largest size); the outliers are exactly
the nodes not ok or flagged; the figure medians are the median of the ok nodes'.
key=value asks more: status.R=ok|failed|no answer, error.R=TEXT (a substring),
exit_status=N, complete=true|false, in_turn=1 (the ranks' measurements do not
overlap and come in rank order), cpus_disjoint=1 (each rank's threads ran on CPUs
no other rank used), one_at_a_time=true|false, share_host=refuse|split.
Prints one line per problem; exit status 0 when there is none."""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "schema", "membench-run.schema.json")
CHECK_SCHEMA = os.path.join(HERE, "..", "cli", "check_schema.py")


def figures_of(doc):
    """What the cluster should have read off one node's document."""
    out, largest = {}, {}
    stream = doc.get("mode") == "stream"
    for r in doc["results"]:
        name = "%s %s" % (r["operation"], r["unit"])
        if stream and r["operation"] != "triad":
            continue
        if r["metric"] == "bandwidth":
            out[name] = max(out.get(name, r["value"]), r["value"])
        elif r["metric"] == "latency":
            largest.setdefault(name, []).append((r["size_bytes"], r["value"]))
    for name, cells in largest.items():
        top = max(s for s, _ in cells)
        out[name] = statistics.median([v for s, v in cells if s == top])
    return out


def expand(cpus):
    """"0-2,5" -> ["0", "1", "2", "5"]"""
    out = []
    for part in cpus.split(","):
        lo, _, hi = part.partition("-")
        out += [str(c) for c in range(int(lo), int(hi or lo) + 1)]
    return out


def main():
    path, ranks = sys.argv[1], int(sys.argv[2])
    want = dict(a.split("=", 1) for a in sys.argv[3:])
    bad = []
    try:
        d = json.load(open(path))
    except (OSError, ValueError) as e:
        print("%s: not JSON: %s" % (path, e))
        return 1
    if d.get("mode") != "cluster" or d.get("tool") != "membench":
        bad.append("not a membench cluster document")
    nodes = d.get("nodes", [])
    if [n.get("rank") for n in nodes] != list(range(ranks)):
        bad.append("nodes %s, expected ranks 0..%d" % ([n.get("rank") for n in nodes], ranks - 1))
    docs = []
    for n in nodes:
        for key in ("host", "status", "error", "exit_status", "document", "figures", "reasons"):
            if key not in n:
                bad.append("rank %s: no %s" % (n.get("rank"), key))
        if n.get("document") is not None:
            docs.append(n["document"])
            if n["status"] == "ok":
                expect = figures_of(n["document"])
                got = {k: v["value"] for k, v in n["figures"].items()}
                if set(got) != set(expect) or any(abs(got[k] - expect[k]) > 1e-9 * abs(expect[k]) for k in got):
                    bad.append("rank %d: figures %s, its document gives %s" % (n["rank"], got, expect))
    # the schema check of every node's own document
    if docs:
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for i, doc in enumerate(docs):
                files.append(os.path.join(tmp, "node%d.json" % i))
                json.dump(doc, open(files[-1], "w"))
            r = subprocess.run([sys.executable, CHECK_SCHEMA, SCHEMA, "run"] + files, capture_output=True, text=True)
            if r.returncode != 0:
                bad.append("a node's document fails the schema: " + r.stdout.strip()[:500])
    flagged = [n["rank"] for n in nodes if n.get("status") != "ok" or n.get("reasons")]
    if sorted(d.get("outliers", [])) != flagged:
        bad.append("outliers %s, but the nodes not ok or with reasons are %s" % (d.get("outliers"), flagged))
    for fig in d.get("figures", []):
        vals = [n["figures"][fig["name"]]["value"] for n in nodes
                if n["status"] == "ok" and fig["name"] in n["figures"]]
        if vals and abs(fig["median"] - statistics.median(vals)) > 1e-9 * abs(fig["median"]):
            bad.append("figure %s: median %s, the nodes' is %s" % (fig["name"], fig["median"], statistics.median(vals)))
        if vals and (fig["min"] != min(vals) or fig["max"] != max(vals)):
            bad.append("figure %s: min/max %s/%s, the nodes' %s/%s" % (fig["name"], fig["min"], fig["max"],
                                                                       min(vals), max(vals)))
    for key, value in want.items():
        if key.startswith("status."):
            r = int(key.split(".")[1])
            if nodes[r]["status"] != value:
                bad.append("rank %d: status %s, expected %s" % (r, nodes[r]["status"], value))
        elif key.startswith("error."):
            r = int(key.split(".")[1])
            if value not in (nodes[r]["error"] or ""):
                bad.append("rank %d: error %r, expected it to say %r" % (r, nodes[r]["error"], value))
        elif key == "in_turn":
            spans = [(n["measured_from_unix_s"], n["measured_to_unix_s"]) for n in nodes if "measured_from_unix_s" in n]
            if len(spans) != ranks or any(spans[i][1] > spans[i + 1][0] for i in range(len(spans) - 1)):
                bad.append("measurements overlap or are out of rank order: %s" % spans)
        elif key == "cpus_disjoint":
            seen = {}
            for n in nodes:
                for t in n["document"]["placement"]["threads"]:
                    for cpu in expand(t["cpus"]):
                        if cpu in seen and seen[cpu] != n["rank"]:
                            bad.append("CPU %s used by ranks %d and %d" % (cpu, seen[cpu], n["rank"]))
                        seen[cpu] = n["rank"]
        elif str(d.get(key)).lower() != value.lower():
            bad.append("%s: %s, expected %s" % (key, d.get(key), value))
    for b in bad:
        print("%s: %s" % (path, b))
    return 1 if bad else 0


sys.exit(main())
